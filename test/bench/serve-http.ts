// Benchmark of `serve --http` (remote.md §1.11; figures, never pass/fail): searches per second
// and p50/p99 latency with 32 concurrent clients on loopback, set against the provider's own
// latency measured the same way. The server is the compiled executable when built (else
// `bun src/main.ts`), without authentication and with a JWT verified on every request. The
// no-auth paths that are compared with each other (metrics off, `--metrics-listen`, and a
// `baselineExe`) run side by side in interleaved rounds, so a burst of load on a shared
// machine hits them alike; their ratios are medians of the per-round ratios.
// Run: `bun test/bench/serve-http.ts`; `npm run bench` picks up `benchServeHttp`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { cpuMs } from './peak-rss.ts';
import { exePath, REPO_ROOT } from '../support/paths.ts';

/** Concurrent clients, each sending its next request as soon as the previous one is answered. */
const CLIENTS = 32;
/** Measured requests per client and path. */
const REQUESTS_PER_CLIENT = 250;
/** Untimed requests per client first (JIT, connection pools, the JWKS cache). */
const WARM_UP_PER_CLIENT = 25;
/** Interleaved rounds of the compared no-auth paths; each gets requestsPerClient / ROUNDS per client per round. */
const INTERLEAVED_ROUNDS = 10;
const TOKEN = 'bench-provider-token';
const RESOURCE = 'https://context.example.com/mcp';
const ISSUER = 'https://issuer.example.com';
const ITEMS = [
  { id: 'policy-1', content: 'Use the reviewed <deployment> workflow for every production change.', title: 'Deployment policy', uri: 'https://context.example.com/p/1', score: 0.91 },
  { id: 'policy-2', content: 'Rollbacks follow the runbook; page the on-call engineer first.', title: 'Rollback policy', score: 0.72 },
  { id: 'policy-3', content: 'Feature flags default to off in production.', score: 0.5 },
];

/** Latency and throughput of one path. */
export interface PathFigures {
  readonly path: string;
  readonly requests: number;
  readonly searchesPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  /**
   * CPU time (user + system) the server process spent per measured search, in ms; Linux only
   * (/proc), and less sensitive to other load on the machine than the latencies.
   */
  readonly serverCpuMsPerSearch?: number;
}

/** Everything this benchmark measures. */
export interface ServeHttpBenchResult {
  readonly clients: number;
  readonly server: string;
  readonly provider: PathFigures;
  readonly noAuth: PathFigures;
  /**
   * `--insecure-no-auth` with `--metrics-listen` (issue 30 §2: the cost of counting), scraped
   * once per second during the run; measured right after `noAuth`, under the same load.
   */
  readonly noAuthMetrics: PathFigures | undefined;
  /** `--insecure-no-auth` of `baselineExe`, interleaved with `noAuth`; absent without one. */
  readonly noAuthBaseline: PathFigures | undefined;
  /**
   * Throughput ratios of the interleaved no-auth paths, each the median over the rounds of
   * that round's ratio (the paths of one round ran back to back under the same load).
   */
  readonly interleaved: {
    readonly rounds: number;
    /** metrics on over metrics off (issue 30 §2: at least 0.97). */
    readonly metricsOverOff: number | undefined;
    /** this executable over `baselineExe`. */
    readonly offOverBaseline: number | undefined;
    /** The same ratios of server CPU per search (all threads). */
    readonly cpuMetricsOverOff: number | undefined;
    readonly cpuOffOverBaseline: number | undefined;
  };
  /** Absent when the options left the JWT path out. */
  readonly jwt: PathFigures | undefined;
  /**
   * The reference servers of sdk-floor-main.ts under the same load, when
   * `referenceExe` was given: no SDK, the SDK with a no-op tool, the SDK with the one fetch.
   */
  readonly references: { readonly bare: PathFigures; readonly sdkNoop: PathFigures; readonly sdk: PathFigures } | undefined;
  /** p50 and p99 of each server path minus the provider's own, in ms. */
  readonly overheadMs: { readonly noAuth: { p50: number; p99: number }; readonly jwt: { p50: number; p99: number } | undefined };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/** How many clients and searches; the defaults are the issue's 32 clients. */
export interface ServeHttpBenchOptions {
  readonly clients?: number;
  readonly requestsPerClient?: number;
  /** Also measure with a JWT verified per request (default true). */
  readonly jwt?: boolean;
  /** The executable to serve (default dist/external-context, else `bun src/main.ts`). */
  readonly exe?: string;
  /** The compiled sdk-floor-main.ts: also measure its HTTP reference servers. */
  readonly referenceExe?: string;
  /** An older executable whose no-auth path runs interleaved with this one's (`--baseline-exe`). */
  readonly baselineExe?: string;
  /** Also measure `--metrics-listen` interleaved with the no-auth path (default true). */
  readonly metrics?: boolean;
}

/**
 * Little's law for a closed loop: with `clients` each waiting for its answer, latency ≈
 * clients / throughput. So a p50 of at most the provider's p50 plus `overheadMs` needs at
 * least this throughput, and on one JavaScript thread at most 1000 / throughput ms of CPU
 * per search.
 *
 * @returns The searches per second and the CPU ms per search that the target implies.
 */
export function littlesLaw(clients: number, providerP50Ms: number, overheadMs: number): { searchesPerSecond: number; cpuMsPerSearch: number } {
  const searchesPerSecond = clients / ((providerP50Ms + overheadMs) / 1000);
  return { searchesPerSecond, cpuMsPerSearch: 1000 / searchesPerSecond };
}

async function drive(
  label: string,
  send: () => Promise<void>,
  serverPid?: number,
  load: { clients: number; requestsPerClient: number } = { clients: CLIENTS, requestsPerClient: REQUESTS_PER_CLIENT },
  warmUpPerClient = WARM_UP_PER_CLIENT,
  sink?: number[],
): Promise<PathFigures> {
  const { clients, requestsPerClient } = load;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < warmUpPerClient; i++) await send();
    }),
  );
  const latencies: number[] = [];
  const cpuBefore = cpuMs(serverPid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < requestsPerClient; i++) {
        const t0 = performance.now();
        await send();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(serverPid);
  sink?.push(...latencies);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    path: label,
    requests: latencies.length,
    searchesPerSecond: latencies.length / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    meanMs: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
    ...(cpuBefore === undefined || cpuAfter === undefined ? {} : { serverCpuMsPerSearch: (cpuAfter - cpuBefore) / latencies.length }),
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// The provider: a minimal Generic HTTP Search V1 endpoint answering three items at once.
function providerServer(): Server {
  const body = JSON.stringify({ items: ITEMS });
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) res.writeHead(401).end();
      else res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
}

function knowsLogFormat(command: string, prefix: readonly string[]): boolean {
  const help = spawnSync(command, [...prefix, 'serve', '--help'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
  return `${help.stdout}${help.stderr}`.includes('--log-format');
}

function startServer(args: readonly string[], config: string, exe: string = exePath(), concurrency = CLIENTS): Promise<{ url: string; child: ChildProcess }> {
  const [command, prefix] = existsSync(exe) ? [exe, []] : [process.execPath, [path.join(REPO_ROOT, 'src', 'main.ts')]];
  // No log line per request: every executable that knows --log-format gets `none` (an older
  // --baseline-exe predates it).
  const logFlags = knowsLogFormat(command, prefix) ? ['--log-format', 'none'] : [];
  const child = spawn(command, [...prefix, 'serve', '--http', '--config', config, '--listen', '127.0.0.1:0', '--max-concurrency', String(Math.max(64, concurrency)), ...logFlags, ...args], {
    env: { PATH: process.env['PATH'] ?? '', BENCH_PROVIDER_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve({ url: out.trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`serve --http exited with ${code}`)));
  });
}

function knowsMetricsListen(exe: string = exePath()): boolean {
  if (!existsSync(exe)) return false;
  const help = spawnSync(exe, ['serve', '--help'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
  return help.stdout.includes('--metrics-listen');
}

/** One server of the interleaved no-auth comparison, with what its rounds measured. */
interface InterleavedSubject {
  readonly label: string;
  readonly args: readonly string[];
  readonly exe: string | undefined;
  /** `/metrics` of a `--metrics-listen` server, scraped every second as Prometheus would. */
  readonly metricsUrl?: string;
  server?: { url: string; child: ChildProcess };
  rounds: PathFigures[];
}

function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

/** The figures of several rounds of one path as one: all requests, all latencies, all CPU. */
function mergeRounds(label: string, rounds: readonly PathFigures[], latencies: readonly number[]): PathFigures {
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.requests / round.searchesPerSecond, 0);
  const sorted = [...latencies].sort((a, b) => a - b);
  const cpu = rounds.every((round) => round.serverCpuMsPerSearch !== undefined)
    ? rounds.reduce((sum, round) => sum + (round.serverCpuMsPerSearch as number) * round.requests, 0) / requests
    : undefined;
  return {
    path: label,
    requests,
    searchesPerSecond: requests / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    meanMs: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
    ...(cpu === undefined ? {} : { serverCpuMsPerSearch: cpu }),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median over the rounds of `of(a) / of(b)` in the same round. */
function pairedRatio(a: InterleavedSubject | undefined, b: InterleavedSubject | undefined, of: (figures: PathFigures) => number | undefined): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const ratios = a.rounds.map((round, index) => {
    const mine = of(round);
    const theirs = b.rounds[index] === undefined ? undefined : of(b.rounds[index] as PathFigures);
    return mine === undefined || theirs === undefined || theirs === 0 ? Number.NaN : mine / theirs;
  });
  return ratios.some(Number.isNaN) ? undefined : median(ratios);
}

/**
 * The no-auth paths compared with each other, all started at once and driven in
 * INTERLEAVED_ROUNDS rounds, the order rotating each round; the `--metrics-listen` server's
 * /metrics is scraped every second throughout.
 */
async function measureNoAuthInterleaved(
  config: string,
  exe: string | undefined,
  baselineExe: string | undefined,
  withMetrics: boolean,
  load: { clients: number; requestsPerClient: number },
  post: (url: string) => () => Promise<void>,
  children: ChildProcess[],
): Promise<Pick<ServeHttpBenchResult, 'noAuth' | 'noAuthMetrics' | 'noAuthBaseline' | 'interleaved'>> {
  const off: InterleavedSubject = { label: 'serve --http, --insecure-no-auth', args: ['--insecure-no-auth'], exe, rounds: [] };
  const subjects = [off];
  let metrics: InterleavedSubject | undefined;
  if (withMetrics && knowsMetricsListen(exe)) {
    const port = await freePort();
    metrics = {
      label: 'serve --http, --insecure-no-auth, --metrics-listen (scraped every 1 s)',
      args: ['--insecure-no-auth', '--metrics-listen', `127.0.0.1:${port}`],
      exe,
      metricsUrl: `http://127.0.0.1:${port}/metrics`,
      rounds: [],
    };
    subjects.push(metrics);
  }
  const baseline: InterleavedSubject | undefined =
    baselineExe === undefined ? undefined : { label: `baseline ${path.basename(baselineExe)}, --insecure-no-auth`, args: ['--insecure-no-auth'], exe: baselineExe, rounds: [] };
  if (baseline !== undefined) subjects.push(baseline);
  for (const subject of subjects) {
    subject.server = await startServer(subject.args, config, subject.exe, load.clients);
    children.push(subject.server.child);
  }
  const scraper = setInterval(() => {
    for (const subject of subjects) {
      if (subject.metricsUrl !== undefined)
        void fetch(subject.metricsUrl)
          .then((response) => response.text())
          .catch(() => undefined);
    }
  }, 1000);
  const latencies = new Map<InterleavedSubject, number[]>(subjects.map((subject) => [subject, []]));
  try {
    const perRound = Math.max(1, Math.round(load.requestsPerClient / INTERLEAVED_ROUNDS));
    // Warm-up: every server gets its untimed requests before any round.
    for (const subject of subjects) await drive(subject.label, post(subject.server?.url as string), subject.server?.child.pid, { clients: load.clients, requestsPerClient: 1 });
    for (let round = 0; round < INTERLEAVED_ROUNDS; round++) {
      const order = subjects.map((_, index) => subjects[(index + round) % subjects.length] as InterleavedSubject);
      for (const subject of order) {
        const figures = await drive(subject.label, post(subject.server?.url as string), subject.server?.child.pid, { clients: load.clients, requestsPerClient: perRound }, 0, latencies.get(subject));
        subject.rounds.push(figures);
      }
    }
  } finally {
    clearInterval(scraper);
    for (const subject of subjects) if (subject.server !== undefined) await stop(subject.server.child);
  }
  const merged = (subject: InterleavedSubject | undefined): PathFigures | undefined => (subject === undefined ? undefined : mergeRounds(subject.label, subject.rounds, latencies.get(subject) ?? []));
  const rate = (figures: PathFigures): number => figures.searchesPerSecond;
  const cpu = (figures: PathFigures): number | undefined => figures.serverCpuMsPerSearch;
  return {
    noAuth: merged(off) as PathFigures,
    noAuthMetrics: merged(metrics),
    noAuthBaseline: merged(baseline),
    interleaved: {
      rounds: INTERLEAVED_ROUNDS,
      metricsOverOff: pairedRatio(metrics, off, rate),
      offOverBaseline: pairedRatio(off, baseline, rate),
      cpuMetricsOverOff: pairedRatio(metrics, off, cpu),
      cpuOffOverBaseline: pairedRatio(off, baseline, cpu),
    },
  };
}

function startReference(exe: string, mode: string, searchUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(exe, [mode, searchUrl], { env: { PATH: process.env['PATH'] ?? '', BENCH_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve({ url: out.trim(), child });
    });
    child.once('exit', (code) => reject(new Error(`reference server ${mode} exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function searchRequest(id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'deployment policy' } } });
}

/**
 * Runs the benchmark: the provider alone, then `serve --http` without authentication, then
 * with a fresh RS256 JWT on every request (one JWKS fetch, cached).
 *
 * @returns The figures of the three paths and the server's overhead over the provider.
 */
export async function benchServeHttp(options: ServeHttpBenchOptions = {}): Promise<ServeHttpBenchResult> {
  const load = { clients: options.clients ?? CLIENTS, requestsPerClient: options.requestsPerClient ?? REQUESTS_PER_CLIENT };
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-serve-http-'));
  const provider = providerServer();
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
  const keyServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  const children: ChildProcess[] = [];
  try {
    const providerOrigin = await listen(provider);
    const jwksUrl = `${await listen(keyServer)}/jwks.json`;
    const config = path.join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: providerOrigin, tokenEnv: 'BENCH_PROVIDER_TOKEN' } }));

    const providerBody = JSON.stringify({ query: 'deployment policy', limit: 5 });
    const providerFigures = await drive(
      'provider alone (POST /v1/context/search)',
      async () => {
        const response = await fetch(`${providerOrigin}/v1/context/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: providerBody,
        });
        await response.arrayBuffer();
      },
      undefined,
      load,
    );

    const post =
      (url: string, headers: Record<string, string> = {}) =>
      async (): Promise<void> => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
          body: searchRequest(1),
        });
        const text = await response.text();
        if (response.status !== 200 || !text.includes('untrusted_external_context')) throw new Error(`serve --http answered ${response.status}`);
      };

    let references: ServeHttpBenchResult['references'];
    if (options.referenceExe !== undefined) {
      const measureReference = async (mode: string, label: string): Promise<PathFigures> => {
        const reference = await startReference(options.referenceExe as string, mode, `${providerOrigin}/v1/context/search`);
        children.push(reference.child);
        const figures = await drive(label, post(reference.url), reference.child.pid, load);
        await stop(reference.child);
        return figures;
      };
      references = {
        bare: await measureReference('http-bare', 'reference: bare relay, no SDK (one fetch)'),
        sdkNoop: await measureReference('http-sdk-noop', 'reference: SDK Server + transport per request, no-op tool'),
        sdk: await measureReference('http-sdk', 'reference: SDK Server + transport per request, one fetch'),
      };
    }

    const compared = await measureNoAuthInterleaved(config, options.exe, options.baselineExe, options.metrics !== false, load, post, children);
    const noAuth = compared.noAuth;
    const overhead = (figures: PathFigures) => ({ p50: figures.p50Ms - providerFigures.p50Ms, p99: figures.p99Ms - providerFigures.p99Ms });
    const server = options.exe ?? (existsSync(exePath()) ? 'dist/external-context' : 'bun src/main.ts');
    if (options.jwt === false) {
      return { clients: load.clients, server, provider: providerFigures, ...compared, jwt: undefined, references, overheadMs: { noAuth: overhead(noAuth), jwt: undefined } };
    }

    const secured = await startServer(['--resource', RESOURCE, '--issuer', ISSUER, '--jwks-url', jwksUrl], config, options.exe, load.clients);
    children.push(secured.child);
    const token = await new SignJWT({ scope: 'context.read' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(ISSUER).setAudience(RESOURCE).setExpirationTime('1h').sign(privateKey);
    const jwt = await drive('serve --http, RS256 JWT verified per request', post(secured.url, { authorization: `Bearer ${token}` }), secured.child.pid, load);
    await stop(secured.child);

    return {
      clients: load.clients,
      server,
      provider: providerFigures,
      ...compared,
      jwt,
      references,
      overheadMs: { noAuth: overhead(noAuth), jwt: overhead(jwt) },
    };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    provider.close();
    keyServer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(result: ServeHttpBenchResult): void {
  const f = (n: number, digits = 2): string => n.toFixed(digits);
  console.log(`serve --http (${result.server}), ${result.clients} concurrent clients on loopback, ${REQUESTS_PER_CLIENT} searches each after ${WARM_UP_PER_CLIENT} untimed`);
  const references = result.references === undefined ? [] : [result.references.bare, result.references.sdkNoop, result.references.sdk];
  for (const p of [result.provider, ...references, result.noAuth, result.noAuthMetrics, result.noAuthBaseline, result.jwt].filter((figures): figures is PathFigures => figures !== undefined)) {
    const cpu = p.serverCpuMsPerSearch === undefined ? '' : `, server CPU ${f(p.serverCpuMsPerSearch, 3)} ms/search`;
    console.log(`  ${p.path}: ${f(p.searchesPerSecond, 0)} searches/s, p50 ${f(p.p50Ms)} ms, p99 ${f(p.p99Ms)} ms, mean ${f(p.meanMs)} ms${cpu} (${p.requests} requests)`);
  }
  const jwt = result.overheadMs.jwt;
  const implied = littlesLaw(result.clients, result.provider.p50Ms, 3);
  console.log(
    `  Little's law: p50 ≤ provider p50 + 3 ms with ${result.clients} closed-loop clients needs ≥ ${f(implied.searchesPerSecond, 0)} searches/s (≤ ${f(implied.cpuMsPerSearch, 3)} ms CPU per search on one thread)`,
  );
  console.log(
    `  over the provider's own latency: no auth p50 +${f(result.overheadMs.noAuth.p50)} ms, p99 +${f(result.overheadMs.noAuth.p99)} ms${jwt === undefined ? '' : `; JWT p50 +${f(jwt.p50)} ms, p99 +${f(jwt.p99)} ms`}`,
  );
}

if (import.meta.main) {
  const { compileLikeProduct, REFERENCE_PROGRAMS } = await import('./compile-like-product.ts');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-sdk-floor-'));
  try {
    const referenceExe = await compileLikeProduct(REFERENCE_PROGRAMS.sdkFloor, path.join(dir, 'sdk-floor'));
    printTable(await benchServeHttp({ referenceExe }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
