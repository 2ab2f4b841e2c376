// Soak and chaos (issue 20 item 10): the compiled executable's stdio server and `serve --http`
// each take N `context_search` calls against a loopback provider that, chosen by a seeded
// generator, answers, stalls, resets, answers 5xx, redirects, or sends oversized, invalid-JSON
// or invalid-UTF-8 bodies. Every call must be answered exactly once (a result or the stable
// error) with exactly one provider request; file descriptors, RSS and the heap after the
// server's latest full collection (JSC's GC log) are sampled after a warm-up and at the end; a normal call must still succeed afterwards. Loopback only; bounded
// by N and the provider timeout; stops by itself.
//
// `bun test/soak/soak.ts [calls]` runs both servers once and prints the figures (10,000 for the
// closing note); test/soak/soak.long.ts (`npm run test:long`) runs a smaller count in CI.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onJsonLines } from '../support/json-lines.ts';
import { exePath } from '../support/paths.ts';
import { JSC_GC_LOG_ENV, type JscFullGcLog, jscFullGcLog } from '../memory/stdio-memory.ts';

const TOKEN_ENV = 'SOAK_TOKEN';
const TOKEN = 'soak-token-7Hc2Qe';
/** The stable model-visible error (profile-v1.md §6). */
export const STABLE_ERROR = 'External context search failed.';
/** Calls in flight at once. */
const WINDOW = 32;

/** What the provider does with one request. */
type Mode = 'ok' | 'stall' | 'reset' | '5xx' | 'redirect' | 'oversized' | 'invalid-json' | 'invalid-utf8';
const MODES: ReadonlyArray<[Mode, number]> = [
  ['ok', 50],
  ['stall', 5],
  ['reset', 8],
  ['5xx', 10],
  ['redirect', 7],
  ['oversized', 7],
  ['invalid-json', 7],
  ['invalid-utf8', 6],
];

/** mulberry32: a small seeded generator, so every run sees the same sequence of modes. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChaosProvider {
  readonly origin: string;
  requests(): number;
  /** Forces every later request to `ok` (the final health check). */
  calm(): void;
  close(): Promise<void>;
}

async function startChaosProvider(seed: number): Promise<ChaosProvider> {
  const random = seeded(seed);
  const total = MODES.reduce((sum, [, weight]) => sum + weight, 0);
  const pick = (): Mode => {
    let roll = random() * total;
    for (const [mode, weight] of MODES) {
      roll -= weight;
      if (roll < 0) return mode;
    }
    return 'ok';
  };
  let requests = 0;
  let calm = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      const mode = calm ? 'ok' : pick();
      switch (mode) {
        case 'ok':
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ id: `d${requests}`, content: 'soak item', title: 'Soak', uri: 'https://kb.example/soak' }] }));
          return;
        case 'stall':
          return; // until the client's timeout closes the connection
        case 'reset':
          request.socket.destroy();
          return;
        case '5xx':
          response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy"}');
          return;
        case 'redirect':
          response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
          return;
        case 'oversized':
          response.writeHead(200, { 'content-type': 'application/json' }).end(`{"items":[{"id":"x","content":"${'x'.repeat(1_100_000)}"}]}`);
          return;
        case 'invalid-json':
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[');
          return;
        case 'invalid-utf8':
          response.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
          return;
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests: () => requests,
    calm: () => {
      calm = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * File descriptors and resident set size of a live process (Linux /proc), and its heap after
 * its latest full collection (JSC's GC log; undefined before the first). RSS follows the
 * collector's sizing; only the heap after a full GC shows what stays live.
 */
export interface ProcessSample {
  readonly fds: number;
  readonly rssKib: number;
  readonly heapAfterFullGcKib: number | undefined;
}

function sample(pid: number, gcLog: JscFullGcLog): ProcessSample {
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  const rssKib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  const heapMiB = gcLog.lastFullMiB();
  return { fds, rssKib, heapAfterFullGcKib: heapMiB === undefined ? undefined : Math.round(heapMiB * 1024) };
}

/** Feeds a child's stderr, line by line, to a JSC GC-log parser. */
function readGcLog(stderr: NodeJS.ReadableStream): JscFullGcLog {
  const gcLog = jscFullGcLog();
  let rest = '';
  stderr.setEncoding('utf8');
  stderr.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) gcLog.onLine(line);
  });
  return gcLog;
}

/** The outcome of one soak run against one server. */
export interface SoakReport {
  readonly surface: 'stdio' | 'http';
  readonly calls: number;
  readonly answered: number;
  readonly results: number;
  readonly stableErrors: number;
  readonly other: number;
  readonly duplicates: number;
  readonly providerRequests: number;
  readonly start: ProcessSample;
  readonly end: ProcessSample;
  readonly afterwardOk: boolean;
  readonly seconds: number;
}

type Answer = 'result' | 'stable-error' | 'other';

function classify(result: unknown): Answer {
  const { content, isError } = (result ?? {}) as { content?: Array<{ text?: string }>; isError?: boolean };
  const text = content?.[0]?.text;
  if (isError === true) return text === STABLE_ERROR ? 'stable-error' : 'other';
  return typeof text === 'string' && text.includes('soak item') ? 'result' : 'other';
}

/** Runs `calls` calls with at most WINDOW in flight; `call(i)` resolves with the answer of call i. */
async function drive(calls: number, call: (index: number) => Promise<Answer>, onProgress: (done: number) => void): Promise<Answer[]> {
  const answers: Answer[] = new Array(calls);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      const index = next++;
      answers[index] = await call(index);
      done++;
      onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, worker));
  return answers;
}

function writeConfig(dir: string, origin: string): string {
  const file = join(dir, 'soak.json');
  writeFileSync(file, JSON.stringify({ version: 1, timeoutMs: 500, provider: { type: 'generic-http-search-v1', baseUrl: origin, tokenEnv: TOKEN_ENV } }));
  return file;
}

const QUERY = (index: number): unknown => ({ name: 'context_search', arguments: { query: `soak query ${index}` } });

/** The stdio server: one process, JSON-RPC lines, every id answered once. */
async function soakStdio(calls: number, provider: ChaosProvider, config: string): Promise<SoakReport> {
  const child: ChildProcessWithoutNullStreams = spawn(exePath(), ['serve', '--config', config], { env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN, ...JSC_GC_LOG_ENV }, stdio: 'pipe' });
  const gcLog = readGcLog(child.stderr);
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  const seen = new Set<number>();
  let duplicates = 0;
  onJsonLines(child.stdout, (message) => {
    const id = message['id'] as number;
    if (seen.has(id)) duplicates++;
    seen.add(id);
    pending.get(id)?.(message);
    pending.delete(id);
  });
  const request = (id: number, method: string, params: unknown): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return measure(
    'stdio',
    calls,
    provider,
    child.pid ?? 0,
    gcLog,
    async (index) => classify((await request(index + 1, 'tools/call', QUERY(index)))['result']),
    () => duplicates,
    async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    },
  );
}

/** `serve --http --insecure-no-auth`: one POST per call. */
async function soakHttp(calls: number, provider: ChaosProvider, config: string): Promise<SoakReport> {
  const child = spawn(exePath(), ['serve', '--http', '--config', config, '--insecure-no-auth', '--listen', '127.0.0.1:0', '--max-concurrency', '64'], {
    env: { PATH: process.env['PATH'] ?? '', [TOKEN_ENV]: TOKEN, ...JSC_GC_LOG_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const gcLog = readGcLog(child.stderr);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => reject(new Error('serve --http exited')));
  });
  let duplicates = 0;
  const post = async (index: number): Promise<Answer> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: QUERY(index) }),
    });
    const body = (await response.json()) as { id?: number; result?: unknown };
    if (body.id !== index + 1) duplicates++;
    return classify(body.result);
  };
  return measure(
    'http',
    calls,
    provider,
    child.pid ?? 0,
    gcLog,
    post,
    () => duplicates,
    async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    },
  );
}

async function measure(
  surface: 'stdio' | 'http',
  calls: number,
  provider: ChaosProvider,
  pid: number,
  gcLog: JscFullGcLog,
  call: (index: number) => Promise<Answer>,
  duplicates: () => number,
  stop: () => Promise<void>,
): Promise<SoakReport> {
  const started = performance.now();
  const warmUp = Math.min(200, Math.floor(calls / 10));
  const before = provider.requests();
  let start: ProcessSample = sample(pid, gcLog);
  const answers = await drive(calls, call, (done) => {
    if (done === warmUp) start = sample(pid, gcLog);
  });
  const end = sample(pid, gcLog);
  const providerRequests = provider.requests() - before;
  provider.calm();
  const afterwardOk = (await call(calls)) === 'result';
  await stop();
  return {
    surface,
    calls,
    answered: answers.filter((answer) => answer !== undefined).length,
    results: answers.filter((answer) => answer === 'result').length,
    stableErrors: answers.filter((answer) => answer === 'stable-error').length,
    other: answers.filter((answer) => answer === 'other').length,
    duplicates: duplicates(),
    providerRequests,
    start,
    end,
    afterwardOk,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/**
 * Runs the soak against both servers of the compiled executable.
 *
 * @param calls Calls per server.
 * @param seed The chaos generator's seed.
 * @returns One report per server.
 */
export async function runSoak(calls: number, seed = 20): Promise<SoakReport[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ec-soak-'));
  const reports: SoakReport[] = [];
  try {
    for (const surface of ['stdio', 'http'] as const) {
      const provider = await startChaosProvider(seed);
      try {
        const config = writeConfig(dir, provider.origin);
        reports.push(surface === 'stdio' ? await soakStdio(calls, provider, config) : await soakHttp(calls, provider, config));
      } finally {
        await provider.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return reports;
}

if (import.meta.main) {
  const calls = Number(process.argv[2] ?? 10000);
  for (const report of await runSoak(calls)) console.log(JSON.stringify(report));
}
