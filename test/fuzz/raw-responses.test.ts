// Raw HTTP response fuzzing (issue 11, "Response parsing: random bytes"): a loopback TCP
// server answers each request with arbitrary bytes at the protocol level — broken status
// lines, junk or conflicting headers, lying lengths, bad chunking, early close — instead of a
// well-formed response. Every adapter's search ends in success or one of our stable
// ProviderErrors and every write in one of the four outcomes; a bounded sample through the
// compiled executable writes exactly one operator line and nothing else to stderr.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createProvider } from '../../src/providers/create-provider.ts';
import { PROVIDER_ERROR_MESSAGES, ProviderError } from '../../src/providers/provider-error.ts';
import type { BoundProvider } from '../../src/providers/types.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { genericBinding, mem0Binding } from '../support/provider-bindings.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/** Fuzz run counts (reported in the closing note). */
export const RAW_RESPONSE_FUZZ_RUNS = { inProcess: 300, processes: 12 } as const;

/** The response bytes the server sends next, then closes. */
let next: Uint8Array = new Uint8Array(0);
let connections = 0;
let server: Server;
let origin: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let seen = '';
    const answer = next;
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      // Answer once the request head and its declared body have arrived.
      const head = seen.indexOf('\r\n\r\n');
      if (head === -1) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(seen.slice(0, head))?.[1] ?? 0);
      if (seen.length - head - 4 < length) return;
      socket.removeAllListeners('data');
      socket.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await removeTempDirs();
});

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const BODY = `{"items":[{"id":"1","content":"${CANARY.body}"}],"results":[{"id":"1","memory":"${CANARY.body}"}]}`;

/** A protocol-level response: structured pieces that are each sometimes wrong, or raw bytes. */
function rawResponse(): fc.Arbitrary<Uint8Array> {
  const statusLine = fc.oneof(
    fc.constantFrom('HTTP/1.1 200 OK', 'HTTP/1.0 200 OK', 'HTTP/1.1 204 No Content', 'HTTP/1.1 302 Found', 'HTTP/1.1 500 Oops', 'HTTP/1.1 999 Weird'),
    fc.constantFrom(
      'HTTP/1.1 200',
      'HTTP/2 200',
      'HTTP/1.1 20 OK',
      'HTTP/1.1 -1 X',
      'HTTX/1.1 200 OK',
      'HTTP/1.1 1000 OK',
      '',
      'garbage',
      'HTTP/1.1 101 Switching Protocols',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 30 }),
  );
  const header = fc.oneof(
    fc.constantFrom(
      'content-type: application/json',
      'content-length: 5',
      'content-length: 0',
      'content-length: 99999999',
      'content-length: -1',
      'content-length: abc',
      'content-length: 10, 20',
      'transfer-encoding: chunked',
      'transfer-encoding: gzip, chunked',
      'content-encoding: gzip',
      'content-encoding: br',
      'location: http://127.0.0.1:1/elsewhere',
      'connection: close',
      'connection: upgrade',
      'upgrade: websocket',
      'x-bad\u0001: value',
      ': empty name',
      'no colon here',
      `set-cookie: ${CANARY.credential}`,
      ' folded: continuation',
    ),
    fc.tuple(fc.string({ unit: 'binary-ascii', maxLength: 12 }), fc.string({ unit: 'binary-ascii', maxLength: 20 })).map(([name, value]) => `${name}: ${value}`),
  );
  const body = fc.oneof(
    fc.constant(BODY),
    fc.constant(`${(BODY.length).toString(16)}\r\n${BODY}\r\n0\r\n\r\n`),
    fc.constantFrom('', '0\r\n\r\n', 'zz\r\nnot hex\r\n', '5\r\n{"ite', `ffffffff\r\n${BODY}`, '{"items":[]}'),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
  const structured = fc
    .record({
      status: statusLine,
      headers: fc.array(header, { maxLength: 5 }),
      separator: fc.constantFrom('\r\n', '\n', '\r\n', '\r'),
      body,
      cut: fc.option(fc.nat({ max: 300 }), { nil: undefined }),
    })
    .map(({ status, headers, separator, body: text, cut }) => {
      const bytes = enc(`${[status, ...headers].join(separator)}${separator}${separator}${text}`);
      return cut === undefined ? bytes : bytes.slice(0, cut);
    });
  return fc.oneof({ weight: 5, arbitrary: structured }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }) });
}

function adapters(): BoundProvider[] {
  return [
    createProvider(genericBinding(origin, CANARY.credential)),
    createProvider(mem0Binding('mem0-server-rest-2026-08', origin, { userId: 'u1' }, { writeEnabled: true, credential: CANARY.credential })),
    createProvider(mem0Binding('polardb-mysql-2026-08', origin, { userId: 'u1' }, { writeEnabled: true, credential: CANARY.credential })),
    createProvider(mem0Binding('mem0-platform-v3', origin, { appId: 'a' }, { writeEnabled: true, credential: CANARY.credential })),
  ];
}

describe('raw HTTP response fuzzing', () => {
  test(`in-process: only stable ProviderErrors for searches, only the four outcomes for writes, one connection each (${RAW_RESPONSE_FUZZ_RUNS.inProcess} runs)`, async () => {
    const list = adapters();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: list.length - 1 }), rawResponse(), fc.boolean(), async (index, bytes, write) => {
        const provider = list[index] as BoundProvider;
        next = bytes;
        connections = 0;
        const signal = AbortSignal.timeout(5000);
        if (write && provider.remember !== undefined) {
          const result = await provider.remember({ content: CANARY.content, signal });
          expect(['stored', 'accepted', 'failed', 'unknown']).toContain(result.status);
          if (result.status === 'failed' || result.status === 'unknown') expectNoCanary(result.cause);
        } else {
          try {
            await provider.search({ query: CANARY.query, limit: 5, signal });
          } catch (error) {
            if (!(error instanceof ProviderError)) throw new Error(`not a ProviderError: ${String(error)}`, { cause: error });
            expect(Object.values(PROVIDER_ERROR_MESSAGES)).toContain(error.message);
          }
        }
        expect(connections).toBe(1);
      }),
      { numRuns: RAW_RESPONSE_FUZZ_RUNS.inProcess },
    );
  });

  test(`the executable: check --search writes exactly one operator line or none, nothing else (${RAW_RESPONSE_FUZZ_RUNS.processes} spawns)`, async () => {
    const dir = await makeTempDir('ec-raw-fuzz-');
    const config = await writeConfigFile({ version: 1, timeoutMs: 3000, provider: { type: 'generic-http-search-v1', baseUrl: origin, tokenEnv: 'TOKEN' } }, { dir: dir.path });
    for (const bytes of fc.sample(rawResponse(), { numRuns: RAW_RESPONSE_FUZZ_RUNS.processes, seed: 1111 })) {
      next = bytes;
      const result = await runProcess(exePath(), ['check', '--config', config, '--search', CANARY.query], { env: cleanEnv({ TOKEN: CANARY.credential }) });
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      expect({ bytes: new TextDecoder().decode(bytes).slice(0, 120), lines: lines.filter((line) => !line.startsWith('external-context: context_search failed: ')) }).toEqual({
        bytes: new TextDecoder().decode(bytes).slice(0, 120),
        lines: [],
      });
      expect(lines.length).toBe(result.code === 0 ? 0 : 1);
      expectNoCanary(result.stdout.replace(/"content":"[^"]*"/g, '') + result.stderr);
    }
  });
});
