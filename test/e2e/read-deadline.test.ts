// A request body that never finishes arriving cannot hold a slot or a shutdown (remote.md §1.5
// step 6, providers.md §8.2 row 4): `serve --http` answers 408 `request_timeout` after 5 s and
// frees the slot; `corpus serve` shuts down on SIGTERM while a client holds a stalled body.
// On the executable, the Node.js bundle and the Deno bundle (corpus: not on Node.js 20).
// The tests run concurrently (each has its own server process and port): most of each is a
// 5 s server-side deadline passing, which they now wait out together instead of one by one.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { type Launcher, launcher, launchers } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const TOKEN_ENV = 'EC_DEADLINE_TOKEN';
const TOKEN = 'ec-deadline-token-8Qw2Lm';
const NODE_MAJOR = Number(spawnSync('node', ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout?.trim() || 0);
let fake: GenericHttpFake;
let config: string;
const dir = mkdtempSync(join(tmpdir(), 'read-deadline-'));

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'ok' }] });
  config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } });
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), '# A\n\nalpha');
  // One index for every runtime's corpus serve (corpus index itself runs on each runtime in
  // test/cli/corpus.test.ts); serving reads it only.
  const exe = launcher('executable');
  const index = await runProcess(exe.command, [...exe.args, 'corpus', 'index', 'docs', '--out', 'index.sqlite'], { cwd: dir });
  if (index.code !== 0) throw new Error(`corpus index failed: ${index.stderr}`);
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
  rmSync(dir, { recursive: true, force: true });
});

const READ_DEADLINE = proves('http-read-deadline', ['executable', 'node-bundle', 'deno-bundle']);
const runtimes: Launcher[] = launchers();

function start(runtime: Launcher, args: string[], cwd?: string): { child: ChildProcess; url: Promise<string>; exited: Promise<number | null> } {
  const child = spawn(runtime.command, [...runtime.args, ...args], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error('exited before listening')));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, exited };
}

/** Opens a connection, sends headers and 10 of `length` body bytes, and collects whatever comes back. */
function stalledPost(url: string, path: string, headers: Record<string, string>, length = 100): { socket: Socket; answer: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json', `Content-Length: ${length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${lines.join('\r\n')}\r\n\r\n{"jsonrpc"`);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const answer = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
    socket.on('data', () => {
      if (/\r\n\r\n[\s\S]*\}/.test(text)) resolve(text);
    });
  });
  return { socket, answer };
}

const MCP = { Accept: 'application/json, text/event-stream' };

for (const runtime of runtimes) {
  describe.concurrent(`read deadlines on the ${runtime.label} ${READ_DEADLINE(runtime.id)}`, () => {
    test(
      'serve --http: stalled bodies get 408 request_timeout and free their slots',
      async () => {
        const server = start(runtime, ['serve', '--http', '--config', config, '--insecure-no-auth', '--listen', '127.0.0.1:0', '--max-concurrency', '2']);
        try {
          const url = await server.url;
          const stalled = [stalledPost(url, '/mcp', MCP), stalledPost(url, '/mcp', MCP)];
          const answers = await Promise.all(stalled.map((s) => s.answer));
          for (const answer of answers) {
            expect(answer).toStartWith('HTTP/1.1 408');
            expect(answer).toContain('{"error":"request_timeout"}');
          }
          for (const s of stalled) s.socket.destroy();
          const ok = await fetch(url, {
            method: 'POST',
            headers: { ...MCP, 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
          });
          expect(ok.status).toBe(200);
        } finally {
          server.child.kill('SIGTERM');
        }
        expect(await server.exited).toBe(0);
      },
      LIVENESS_MS,
    );

    test.skipIf(runtime.label === 'node' && NODE_MAJOR < 23)(
      'corpus serve: SIGTERM ends a stalled body read and the process exits 0',
      async () => {
        const server = start(runtime, ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'], dir);
        const url = await server.url;
        // One stalled body runs into the 5 s deadline (408), and its client keeps the connection open.
        const held = stalledPost(url, '/v1/context/search', { Authorization: `Bearer ${TOKEN}` });
        expect(await held.answer).toStartWith('HTTP/1.1 408');
        expect(await held.answer).toContain('{"error":"Request body was not received in time."}');
        // Another is still stalled when SIGTERM arrives: shutdown ends its read (408) or it was never admitted.
        const stalled = stalledPost(url, '/v1/context/search', { Authorization: `Bearer ${TOKEN}` });
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        const answer = await stalled.answer;
        expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
        held.socket.destroy();
        stalled.socket.destroy();
      },
      LIVENESS_MS,
    );
  });
}
