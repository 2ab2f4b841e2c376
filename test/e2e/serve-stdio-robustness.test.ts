// `serve` over stdio against misbehaving clients, on the compiled executable: a client that
// closes its read end of stdout (EPIPE), and one oversized line (the SDK's 10 MiB read limit);
// on all three runtimes: a line over 4 MiB and one nested 1.9 million levels deep are each
// answered with a JSON-RPC error (`id: null`) and RSS stays bounded (profile-v1.md §6.1).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { denoLauncher, nodeLauncher, type BundleLauncher } from '../bundle/bundle-runtimes.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { removeTempDirs } from '../support/temp-dir.ts';

const TOKEN_ENV = 'EC_ROBUST_TOKEN';
const TOKEN = 'ec-robust-token-3Vx9Kp';
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

let fake: GenericHttpFake;
let config: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'Kept serving.' }] });
  config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } });
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;

test('a client that closed its end of stdout ends serve promptly with nothing on stderr (liveness)', async () => {
  const child = Bun.spawn([exePath(), 'serve', '--config', config], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  await child.stdout.cancel();
  child.stdin.write(line(INITIALIZE));
  child.stdin.flush();
  const code = await child.exited;
  expect(await new Response(child.stderr).text()).toBe('');
  expect(code === 0 || code === 1).toBe(true);
}, 20_000);

test('an 11 MiB line is refused with one id-null error and the next tools/call is answered; exit 0 only after stdin ends', async () => {
  const child = Bun.spawn([exePath(), 'serve', '--config', config], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  child.stdin.write(line(INITIALIZE));
  child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
  child.stdin.write(line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'after the big line' } } }));
  child.stdin.flush();
  const reader = child.stdout.getReader();
  let text = '';
  while (!text.includes('"id":3')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const answer = text.split('\n').find((entry) => entry.includes('"id":3'));
  expect(answer).toBeDefined();
  expect(answer).toContain('Kept serving.');
  expect(text).not.toContain('"id":2');
  expect(text).toContain('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request too large: a message may hold at most 4194304 bytes."}}\n');
  // Still running while stdin is open: one more call is answered.
  child.stdin.write(line({ jsonrpc: '2.0', id: 4, method: 'tools/list' }));
  child.stdin.flush();
  while (!text.includes('"id":4')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  expect(text).toContain('"id":4');
  child.stdin.end();
  expect(await child.exited).toBe(0);
  expect(await new Response(child.stderr).text()).toBe('');
}, 30_000);

/** Peak resident set size of a live process, in KiB (Linux /proc). */
function peakKib(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
}

const runtimes: BundleLauncher[] = [{ label: 'executable', command: exePath(), args: [] }, nodeLauncher(), denoLauncher()];

describe.skipIf(process.platform !== 'linux')('oversized and deep stdin lines on every runtime', () => {
  for (const runtime of runtimes) {
    test(`${runtime.label}: each is answered with an id-null JSON-RPC error, later calls are answered, RSS stays within 64 MiB`, async () => {
      const child = spawn(runtime.command, [...runtime.args, 'serve', '--config', config], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), stdio: ['pipe', 'pipe', 'pipe'] });
      let text = '';
      let wake: () => void = () => {};
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        wake();
      });
      const until = async (needle: string): Promise<void> => {
        while (!text.includes(needle)) await new Promise<void>((resolve) => (wake = resolve));
      };
      child.stdin.write(line(INITIALIZE));
      child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      await until('"id":1');
      const idle = peakKib(child.pid ?? 0);
      const depth = 1_900_000;
      child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}\n`);
      child.stdin.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"context_search","arguments":{"query":${'['.repeat(depth)}${']'.repeat(depth)}}}}\n`);
      child.stdin.write(line({ jsonrpc: '2.0', id: 4, method: 'tools/list' }));
      await until('"id":4');
      const peak = peakKib(child.pid ?? 0);
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const lines = text.split('\n').filter((entry) => entry !== '');
      expect(lines.slice(1)).toEqual([
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request too large: a message may hold at most 4194304 bytes."}}',
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request nested too deeply: at most 64 levels."}}',
        expect.stringContaining('"id":4'),
      ]);
      console.log(`[stdio-limits] ${runtime.label}: peak RSS ${idle} KiB after the handshake, ${peak} KiB after both lines`);
      expect(peak - idle).toBeLessThanOrEqual(64 * 1024);
      expect(code).toBe(0);
      expect(fake.requests.filter((request) => JSON.stringify(request).includes('[[['))).toHaveLength(0);
    }, 60_000);
  }
});

// Issue 20 item 8: closing stdin while a call waits on the provider wrote the call's
// `cancelled` operator line on Node.js only (Bun and Deno exited first). serve now waits for
// every aborted call to end, so all three runtimes write the same one line (profile-v1.md §7).
describe('stdin closed while a call is in flight', () => {
  for (const runtime of runtimes) {
    test(`${runtime.label}: one cancelled operator line on stderr, exit 0`, async () => {
      fake.reset();
      fake.override({ kind: 'stall-before-headers' });
      const child = spawn(runtime.command, [...runtime.args, 'serve', '--config', config], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdout.resume();
      child.stdin.write(line(INITIALIZE));
      child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'stalled' } } }));
      await fake.waitForRequests(1);
      child.stdin.end();
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      fake.reset();
      expect(stderr).toBe('external-context: context_search failed: cancelled\n');
      expect(code).toBe(0);
    }, 30_000);
  }
});
