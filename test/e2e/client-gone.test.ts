// A client that closes its connection in the middle of a request body (remote.md §1.10): the
// request still gets its log line and its count in `external_context_requests_total` (outcome
// `bad-request`), the concurrency slot is freed (`external_context_in_flight_requests` back to 0,
// never negative), and nothing of the body reaches the log. Found by a hostile test: such
// requests vanished from the log and the metrics, so a peer could send any number unseen.
// On the executable and the Node.js bundle.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { denoLauncher, nodeLauncher, type BundleLauncher } from '../bundle/bundle-runtimes.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const TOKEN_ENV = 'EC_GONE_TOKEN';
const TOKEN = 'ec-gone-token-CANARY-CRED-7Hq';
const CANARY_QUERY = 'CANARY-QUERY-gone-4Rt';
const BROKEN = 3;
let fake: GenericHttpFake;
let config: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'ok' }] });
  config = await writeConfigFile({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } });
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

interface Server {
  readonly child: ChildProcess;
  readonly url: Promise<string>;
  /** Resolves once stderr holds `count` lines that contain `text`. */
  linesWith(text: string, count: number): Promise<string[]>;
  readonly stderr: () => string;
}

function start(runtime: BundleLauncher, args: string[]): Server {
  const child = spawn(runtime.command, [...runtime.args, ...args], { env: cleanEnv({ [TOKEN_ENV]: TOKEN }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error(`exited before listening: ${err}`)));
  });
  const linesWith = async (text: string, count: number): Promise<string[]> => {
    for (;;) {
      const lines = err.split('\n').filter((line) => line.includes(text));
      if (lines.length >= count) return lines;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, url, linesWith, stderr: () => err };
}

/**
 * Sends headers and the start of a body that claims 1000 bytes, waits until the server admitted
 * the request (the in-flight gauge reads 1: it is reading the body), then closes the connection.
 * A connection closed before the request reached the handler is never seen by it, so the order
 * is proven by that event, not left to a race.
 */
async function postAndVanish(url: string, metricsUrl: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const head = [`POST /mcp HTTP/1.1`, `Host: ${hostname}:${port}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Content-Length: 1000'];
  await new Promise<void>((resolve) =>
    socket.write(`${head.join('\r\n')}\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context_search","arguments":{"query":"${CANARY_QUERY}`, () => resolve()),
  );
  while (!(await (await fetch(metricsUrl)).text()).includes('external_context_in_flight_requests 1\n')) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.destroy();
}

const CLIENT_GONE = proves('http-client-gone', ['executable', 'node-bundle', 'deno-bundle']);
const runtimes: (readonly ['executable' | 'node-bundle' | 'deno-bundle', BundleLauncher])[] = [
  ['executable', { label: 'executable', command: requireBuilt(exePath()), args: [] }],
  ['node-bundle', nodeLauncher()],
  ['deno-bundle', denoLauncher()],
];

for (const [id, runtime] of runtimes) {
  describe(`a client gone mid-body on the ${runtime.label} ${CLIENT_GONE(id)}`, () => {
    test(
      'serve --http logs and counts each such request as bad-request and frees its slot',
      async () => {
        const server = start(runtime, ['serve', '--http', '--config', config, '--insecure-no-auth', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0', '--max-concurrency', '2']);
        try {
          const url = await server.url;
          const metricsLine = (await server.linesWith('"event":"metrics"', 1))[0] ?? '';
          const metricsUrl = (JSON.parse(metricsLine) as { address: string }).address;
          for (let index = 0; index < BROKEN; index++) {
            await postAndVanish(url, metricsUrl);
            await server.linesWith('"outcome":"bad-request"', index + 1);
          }
          const lines = await server.linesWith('"outcome":"bad-request"', BROKEN);
          expect(lines).toHaveLength(BROKEN);
          const metrics = await (await fetch(metricsUrl)).text();
          expect(metrics).toContain(`external_context_requests_total{outcome="bad-request"} ${BROKEN}`);
          expect(metrics).toContain('external_context_in_flight_requests 0\n');
          // The slots are free: two searches at the limit of 2 both run.
          const searches = await Promise.all(
            [1, 2].map((id) =>
              fetch(url, {
                method: 'POST',
                headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'alpha' } } }),
              }),
            ),
          );
          expect(searches.map((response) => response.status)).toEqual([200, 200]);
          for (const response of searches) expect(await response.text()).toContain('doc-1');
          expect(server.stderr()).not.toContain(CANARY_QUERY);
          expect(server.stderr()).not.toContain(TOKEN);
          expect(metrics).not.toContain(CANARY_QUERY);
        } finally {
          server.child.kill('SIGTERM');
        }
      },
      LIVENESS_MS,
    );
  });
}
