// Raw HTTP against the real processes, on the executable, the Node.js bundle and the Deno bundle.
// Malformed, missing and repeated Host fields sent as raw bytes over TCP (issue 20 item 8):
// `serve --http` and `corpus serve` give the same status and body on every runtime, never an
// empty 500, and corpus serve never takes a path out of the Host (remote.md §1.5 step 1,
// providers.md §8.2 row 0). JSON-RPC batches to `serve --http` are refused with 400 before
// anything in them runs (issue 20 item 2; remote.md §1.5 step 7).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_REFUSED_BODY } from '../../src/mcp/http/remote-mcp-handler.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { type Launcher, launchers } from '../support/launchers.ts';
import { exePath } from '../support/paths.ts';
import { rawExchange as exchange } from '../support/raw-http.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const TOKEN_ENV = 'EC_HOST_TOKEN';
const TOKEN = 'ec-host-token-5Tn8Rw';
// corpus commands need node:sqlite: Node.js 22.13 or later (providers.md §8).
const [NODE_MAJOR, NODE_MINOR] = (spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim() ?? '0.0').split('.').map(Number) as [number, number];
const NODE_HAS_SQLITE = NODE_MAJOR > 22 || (NODE_MAJOR === 22 && NODE_MINOR >= 13);
const LISTEN = proves('http-listen', ['executable', 'node-bundle', 'deno-bundle']);
const runtimes: Launcher[] = launchers();
const dir = mkdtempSync(join(tmpdir(), 'malformed-host-'));
let fake: GenericHttpFake;
let config: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'ok' }] });
  config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } });
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), '# A\n\nalpha');
  const index = spawnSync(exePath(), ['corpus', 'index', 'docs', '--out', 'index.sqlite'], { cwd: dir, encoding: 'utf8' });
  if (index.status !== 0) throw new Error(`corpus index failed: ${index.stderr}`);
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a listener and resolves its port from the one stdout line; `stderr()` is what it wrote there so far. */
async function start(runtime: Launcher, args: readonly string[]): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const child = spawn(runtime.command, [...runtime.args, ...args], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error('exited before listening')));
  });
  return { child, port: Number(new URL(url).port), stderr: () => stderr };
}

/** A POST with `hosts` as its Host lines (none for an empty list), a 2-byte JSON body, `Connection: close`. */
function post(path: string, hosts: readonly string[], version = '1.1'): string {
  return `POST ${path} HTTP/${version}\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
}

// Each Host form with what it must get. PORT is replaced by the bound port.
const MALFORMED: readonly (readonly string[])[] = [
  [''],
  [' '],
  ['a b'],
  ['bad host'],
  ['[::1'],
  ['a/b'],
  ['host:99999'],
  ['\u00e9vil'],
  ['a\tb'],
  ['evil@127.0.0.1:PORT'],
  ['127.0.0.1:PORT/x'],
  ['127.0.0.1:PORT?x'],
  ['127.0.0.1:PORT#x'],
  ['::1'],
  [':80'],
  ['[]'],
  ['127.0.0.1:-1'],
  ['127.0.0.1:+80'],
  ['a/v1/context/search'],
];
const REPEATED: readonly (readonly string[])[] = [['127.0.0.1:PORT', '127.0.0.1:PORT'], ['a', 'b'], ['a,b'], ['127.0.0.1:PORT, 127.0.0.1:PORT']];
const EMPTY_400 = '400 ';

function withPort(hosts: readonly string[], port: number): string[] {
  return hosts.map((host) => host.replace('PORT', String(port)));
}

const CALLS = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'context_search', arguments: { query: `q${i}` } } }));

for (const runtime of runtimes) {
  describe(`malformed Host and batches on the ${runtime.label} ${LISTEN(runtime.id)}`, () => {
    // One serve --http per runtime for the Host and the batch tests: a refused Host is logged
    // as host-refused, so the batch test's count of batch-refused lines reads the same log.
    let serveHttp: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      serveHttp = await start(runtime, ['serve', '--http', '--config', config, '--insecure-no-auth', '--listen', '127.0.0.1:0', '--max-concurrency', '4', '--log-format', 'text']);
    }, LIVENESS_MS);
    afterAll(() => {
      serveHttp?.child.kill('SIGTERM');
    });

    test(
      'serve --http: 403 host_not_allowed for a malformed Host, an empty 400 for none or a repeated one, never a 500',
      async () => {
        const { port } = serveHttp;
        {
          const seen: Record<string, string> = {};
          const want: Record<string, string> = {};
          for (const hosts of MALFORMED) {
            seen[JSON.stringify(hosts)] = await exchange(port, post('/mcp', withPort(hosts, port)));
            want[JSON.stringify(hosts)] = '403 {"error":"host_not_allowed"}';
          }
          for (const hosts of [...REPEATED, []]) {
            seen[JSON.stringify(hosts)] = await exchange(port, post('/mcp', withPort(hosts, port)));
            want[JSON.stringify(hosts)] = EMPTY_400;
          }
          seen['HTTP/1.0 without Host'] = await exchange(port, post('/mcp', [], '1.0'));
          want['HTTP/1.0 without Host'] = EMPTY_400;
          seen['a control character'] = await exchange(port, post('/mcp', ['\u0001x']));
          want['a control character'] = EMPTY_400;
          // The allowed Host passes on to the SDK, which refuses the missing Accept header.
          seen['allowed'] = (await exchange(port, post('/mcp', [`127.0.0.1:${port}`]))).slice(0, 4);
          want['allowed'] = '406 ';
          expect(seen).toEqual(want);
        }
      },
      LIVENESS_MS,
    );

    test.skipIf(runtime.label === 'node' && !NODE_HAS_SQLITE)(
      'corpus serve: an empty 400 for a missing, repeated or malformed Host, never a 500 or a path taken from the Host',
      async () => {
        const { child, port } = await start(runtime, ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0']);
        try {
          const seen: Record<string, string> = {};
          const want: Record<string, string> = {};
          for (const hosts of [...MALFORMED, ...REPEATED, []]) {
            seen[JSON.stringify(hosts)] = await exchange(port, post('/v1/context/search', withPort(hosts, port)));
            want[JSON.stringify(hosts)] = EMPTY_400;
          }
          seen['HTTP/1.0 without Host'] = await exchange(port, post('/v1/context/search', [], '1.0'));
          want['HTTP/1.0 without Host'] = EMPTY_400;
          seen['a control character'] = await exchange(port, post('/v1/context/search', ['\u0001x']));
          want['a control character'] = EMPTY_400;
          // A well-formed allowed Host reaches the token check; a well-formed foreign one (also one
          // the URL parser accepts only decoded) is refused by the allow-list (row 0b).
          seen['allowed'] = await exchange(port, post('/v1/context/search', [`127.0.0.1:${port}`]));
          want['allowed'] = '401 {"error":"Authentication required."}';
          for (const host of ['x:', '%41', '[::1]:1']) {
            seen[host] = await exchange(port, post('/v1/context/search', [host]));
            want[host] = '403 {"error":"Host not allowed."}';
          }
          expect(seen).toEqual(want);
        } finally {
          child.kill('SIGTERM');
        }
      },
      LIVENESS_MS,
    );

    test(
      `serve --http: JSON-RPC batches are 400 with the fixed body and a batch-refused log line, no provider request`,
      async () => {
        fake.reset();
        const { child, port, stderr } = serveHttp;
        try {
          // A leading UTF-8 BOM is dropped by the decoder before JSON.parse, so it hides no batch.
          const bodies = [JSON.stringify(CALLS), ` \n\t${JSON.stringify(CALLS)}`, '[]', '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', `\uFEFF${JSON.stringify(CALLS)}`, '\uFEFF \n[]'];
          const answers = await Promise.all(
            bodies.map(async (body) => {
              const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
              return `${response.status} ${await response.text()}`;
            }),
          );
          expect(answers).toEqual(bodies.map(() => `400 ${BATCH_REFUSED_BODY}`));
          expect(fake.requests).toHaveLength(0);
          // The same server still answers a single call.
          const single = await fetch(`http://127.0.0.1:${port}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify(CALLS[0]),
          });
          expect(single.status).toBe(200);
          expect(fake.requests).toHaveLength(1);
        } finally {
          child.kill('SIGTERM');
        }
        await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
        expect(stderr().match(/ 400 batch-refused /g)).toHaveLength(6);
      },
      LIVENESS_MS,
    );
  });
}
