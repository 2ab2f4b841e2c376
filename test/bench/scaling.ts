// "How cost grows" (issue 18, item 5; figures with their expected complexity, never timed unit
// tests): the reference corpus service's query latency over generated corpora of growing size
// and its index throughput and peak RSS on a large generated input (scaling-corpus.ts);
// `serve --http` at growing client counts; the stdio server's memory over many calls; gateway
// discovery over many servers and tools (scaling-gateway.ts). Each part states its expected
// complexity and checks it as a ratio between sizes (growth-check.ts). Everything runs on
// loopback, in temporary folders that are removed afterwards, with fixed seeds and bounded
// loops; never in `npm test`. `npm run bench -- --only-scaling [--scaling-parts corpus,stdio]`
// runs the full sizes; `bun test/bench/scaling.ts [corpus|http|stdio|gateway]` one part at the
// quick sizes.
import { type BenchFixture, startBenchFixture } from './bench-fixture.ts';
import { type GrowthCheck, printChecks, type ScalingOptions } from './growth-check.ts';
import { type CorpusScaling, printCorpusScaling, scaleCorpus } from './scaling-corpus.ts';
import { type GatewayScaling, printGatewayScaling, scaleGateway } from './scaling-gateway.ts';
import { benchServeHttp, type PathFigures } from './serve-http.ts';
import { measureStdioMemory, type MemorySample } from '../memory/stdio-memory.ts';

export type { GrowthCheck, ScalingOptions } from './growth-check.ts';
export type { CorpusScaling } from './scaling-corpus.ts';
export type { GatewayScaling } from './scaling-gateway.ts';

/** The issue's sizes: what `npm run bench` runs unless --quick-scaling. */
export const DEFAULT_SCALING = {
  corpusChunks: [10_000, 100_000, 1_000_000],
  indexMiB: 1024,
  httpClients: [1, 8, 32, 128],
  stdioCalls: 100_000,
  gatewayServers: 10,
  gatewayToolsPerServer: 100,
} as const;

/** `--quick-scaling`: the same parts at sizes that run in a minute or two. */
export const QUICK_SCALING = {
  corpusChunks: [10_000, 30_000],
  indexMiB: 32,
  httpClients: [1, 8, 32, 128],
  stdioCalls: 10_000,
  gatewayServers: 10,
  gatewayToolsPerServer: 100,
} as const;

/** The parts of "how cost grows", in the order they run. */
export const SCALING_PARTS = ['corpus', 'http', 'stdio', 'gateway'] as const;
export type ScalingPart = (typeof SCALING_PARTS)[number];

/**
 * Reads `--scaling-parts` (a comma-separated list of SCALING_PARTS).
 *
 * @returns The parts named, in run order; all of them when `value` is undefined.
 * @throws {RangeError} When a name is not a part, or the list names none.
 */
export function parseScalingParts(value: string | undefined): ScalingPart[] {
  if (value === undefined) return [...SCALING_PARTS];
  const named = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = named.filter((name) => !(SCALING_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0 || named.length === 0) throw new RangeError(`--scaling-parts takes a comma-separated list of ${SCALING_PARTS.join(', ')}; got "${value}".`);
  return SCALING_PARTS.filter((part) => named.includes(part));
}

export interface HttpScaling {
  readonly points: readonly { readonly clients: number; readonly provider: PathFigures; readonly noAuth: PathFigures }[];
  readonly checks: readonly GrowthCheck[];
}

export interface StdioScaling {
  readonly calls: number;
  /** Checkpoints: the call count of each sample below (each tenth of the calls). */
  readonly checkpoints: readonly number[];
  /** The executable as shipped (no GC options): peak RSS (VmHWM) and RSS (VmRSS) at each checkpoint, MiB. */
  readonly peakRssMiB: readonly number[];
  readonly rssMiB: readonly number[];
  /**
   * A second server with JSC's GC log and full collections only (stdio-memory.ts): heap after
   * its latest full GC at each checkpoint, MiB (NaN before the first), and its RSS.
   */
  readonly heapMiB: readonly number[];
  readonly heapRunRssMiB: readonly number[];
  readonly checks: readonly GrowthCheck[];
}

// --- serve --http ------------------------------------------------------------------------------

/** `serve --http` (no auth) and the provider alone at each client count. */
export async function scaleServeHttp(options: ScalingOptions): Promise<HttpScaling> {
  const points: { clients: number; provider: PathFigures; noAuth: PathFigures }[] = [];
  for (const clients of options.httpClients) {
    options.log(`serve --http: ${clients} clients`);
    // A bounded number of searches per point: 8,000 in all, at least 50 per client.
    const result = await benchServeHttp({ clients, requestsPerClient: Math.max(50, Math.round(8000 / clients)), jwt: false, metrics: false });
    points.push({ clients, provider: result.provider, noAuth: result.noAuth });
  }
  const checks: GrowthCheck[] = [];
  const cpu = points.map((point) => point.noAuth.serverCpuMsPerSearch).filter((value): value is number => value !== undefined);
  if (cpu.length >= 2) {
    const spread = Math.max(...cpu) / Math.min(...cpu);
    checks.push({
      expectation: 'server CPU per search is constant in the client count (each request is independent): max/min ≤ 1.5',
      measured: `${cpu.map((value) => value.toFixed(3)).join(' / ')} ms → ×${spread.toFixed(2)}`,
      met: spread <= 1.5,
    });
  }
  const best = points.reduce<(typeof points)[number] | undefined>((top, point) => (top === undefined || point.noAuth.searchesPerSecond > top.noAuth.searchesPerSecond ? point : top), undefined);
  const most = points[points.length - 1];
  if (best !== undefined && most !== undefined && points.length >= 2) {
    // Past saturation (2 cores) more clients only queue: throughput stays at its best, and
    // latency grows linearly with the clients (Little's law), not faster.
    checks.push({
      expectation: `throughput O(1) past saturation: ${most.clients} clients keep ≥ 0.7× the best of all counts (${best.clients} clients), no collapse under overload`,
      measured: `${best.noAuth.searchesPerSecond.toFixed(0)} → ${most.noAuth.searchesPerSecond.toFixed(0)} searches/s (×${(most.noAuth.searchesPerSecond / best.noAuth.searchesPerSecond).toFixed(2)})`,
      met: most.noAuth.searchesPerSecond >= 0.7 * best.noAuth.searchesPerSecond,
    });
  }
  return { points, checks };
}

// --- stdio server ------------------------------------------------------------------------------

/** Checks that the second half of the calls added nothing: heap after GC, and peak RSS as shipped. */
function stdioChecks(shipped: readonly MemorySample[], logged: readonly MemorySample[]): GrowthCheck[] {
  const checks: GrowthCheck[] = [];
  const middle = Math.floor(shipped.length / 2) - 1;
  const [half, last] = [logged[middle], logged[logged.length - 1]];
  if (half?.heapMiB !== undefined && last?.heapMiB !== undefined) {
    // The heap grows to its working size during the first calls; after that nothing may be
    // kept per call, so the live heap after a full collection stays where it was: O(1) in calls.
    checks.push({
      expectation: `heap O(1) in calls (nothing kept per call): heap after a full GC at ${last.calls} calls ≤ at ${half.calls} + 1 MiB (${Math.round(1_048_576 / (last.calls - half.calls))} bytes a call)`,
      measured: `${half.heapMiB.toFixed(2)} → ${last.heapMiB.toFixed(2)} MiB`,
      met: last.heapMiB <= half.heapMiB + 1,
    });
  } else {
    checks.push({ expectation: 'heap O(1) in calls: needs a full GC before half-way and before the end', measured: 'no full collection in the log', met: false });
  }
  const [shippedHalf, shippedLast] = [shipped[middle], shipped[shipped.length - 1]];
  if (shippedHalf?.peakRssMiB !== undefined && shippedLast?.peakRssMiB !== undefined) {
    // Peak RSS follows the collector's sizing: it may rise while the heap finds its size, but
    // over the second half it stays within noise (10%) of where it was.
    checks.push({
      expectation: `peak RSS as shipped O(1) in calls: at ${shippedLast.calls} calls ≤ 1.1 × at ${shippedHalf.calls}`,
      measured: `${shippedHalf.peakRssMiB.toFixed(1)} → ${shippedLast.peakRssMiB.toFixed(1)} MiB (×${(shippedLast.peakRssMiB / shippedHalf.peakRssMiB).toFixed(3)})`,
      met: shippedLast.peakRssMiB <= 1.1 * shippedHalf.peakRssMiB,
    });
  }
  return checks;
}

/**
 * Memory of the stdio server (the compiled executable) over `stdioCalls` sequential calls, read
 * after each tenth, in two runs: as shipped (RSS and peak RSS), and with JSC's GC log and full
 * collections only, for the heap after the latest full GC (test/memory/stdio-memory.ts). RSS
 * follows the collector's sizing and lags what is live; the heap shows what each call keeps.
 */
export async function scaleStdio(options: ScalingOptions, fixture?: BenchFixture): Promise<StdioScaling> {
  const own = fixture ?? (await startBenchFixture());
  try {
    const step = Math.max(1, Math.floor(options.stdioCalls / 10));
    const checkpoints = Array.from({ length: 10 }, (_, index) => Math.min(options.stdioCalls, (index + 1) * step));
    const shipped = await measureStdioMemory('exe', checkpoints, own, (line) => options.log(`stdio as shipped: ${line}`), { asShipped: true });
    const logged = await measureStdioMemory('exe', checkpoints, own, (line) => options.log(`stdio with GC log: ${line}`));
    const mib = (samples: readonly MemorySample[], key: 'peakRssMiB' | 'rssMiB' | 'heapMiB'): number[] => samples.map((sample) => sample[key] ?? Number.NaN);
    return {
      calls: options.stdioCalls,
      checkpoints,
      peakRssMiB: mib(shipped, 'peakRssMiB'),
      rssMiB: mib(shipped, 'rssMiB'),
      heapMiB: mib(logged, 'heapMiB'),
      heapRunRssMiB: mib(logged, 'rssMiB'),
      checks: stdioChecks(shipped, logged),
    };
  } finally {
    if (fixture === undefined) await own.close();
  }
}

// --- all parts ---------------------------------------------------------------------------------

/** Every part's figures; a part not run or failed is absent. */
export interface ScalingResults {
  readonly corpus?: CorpusScaling | undefined;
  readonly http?: HttpScaling | undefined;
  readonly stdio?: StdioScaling | undefined;
  readonly gateway?: GatewayScaling | undefined;
  /** Wall-clock seconds each part took, generation and clean-up included. */
  readonly seconds: Partial<Record<ScalingPart, number>>;
}

/**
 * Runs the parts named, one after another.
 *
 * @param guard Runs one part; a failure is logged and leaves that part out (run.ts's `extra`).
 * @param fixture The bench's provider fixture for the stdio part (else it starts its own).
 */
export async function runScaling(
  parts: readonly ScalingPart[],
  options: ScalingOptions,
  guard: <T>(label: string, measure: () => Promise<T>) => Promise<T | undefined>,
  fixture?: BenchFixture,
): Promise<ScalingResults> {
  const seconds: Partial<Record<ScalingPart, number>> = {};
  const timed = async <T>(part: ScalingPart, label: string, measure: () => Promise<T>): Promise<T | undefined> => {
    if (!parts.includes(part)) return undefined;
    const started = performance.now();
    const result = await guard(`how cost grows: ${label}`, measure);
    seconds[part] = Math.round((performance.now() - started) / 100) / 10;
    return result;
  };
  const corpus = await timed('corpus', 'corpus service', () => scaleCorpus(options));
  const http = await timed('http', 'serve --http', () => scaleServeHttp(options));
  const stdio = await timed('stdio', 'stdio server memory', () => scaleStdio(options, fixture));
  const gateway = await timed('gateway', 'gateway discovery', () => scaleGateway(options));
  return { corpus, http, stdio, gateway, seconds };
}

// --- printing ------------------------------------------------------------------------------------

/** Prints the "How cost grows" section. */
export function printScaling(parts: Omit<ScalingResults, 'seconds'> & { readonly seconds?: ScalingResults['seconds'] }): void {
  const took = Object.entries(parts.seconds ?? {}).map(([part, seconds]) => `${part} ${seconds} s`);
  console.log(`\nHow cost grows${took.length === 0 ? '' : ` (run time: ${took.join(', ')})`}`);
  if (parts.corpus !== undefined) printCorpusScaling(parts.corpus);
  if (parts.http !== undefined) {
    console.log('  serve --http, no auth, loopback provider:');
    for (const p of parts.http.points) {
      const cpu = p.noAuth.serverCpuMsPerSearch === undefined ? '' : `, server CPU ${p.noAuth.serverCpuMsPerSearch.toFixed(3)} ms/search`;
      console.log(
        `    ${String(p.clients).padStart(3)} clients: ${p.noAuth.searchesPerSecond.toFixed(0)} searches/s, p50 ${p.noAuth.p50Ms.toFixed(2)} ms, p99 ${p.noAuth.p99Ms.toFixed(2)} ms${cpu}` +
          ` (provider alone ${p.provider.searchesPerSecond.toFixed(0)}/s, p50 ${p.provider.p50Ms.toFixed(2)} ms)`,
      );
    }
    printChecks(parts.http.checks);
  }
  if (parts.stdio !== undefined) {
    const tenths = (values: readonly number[]): string => values.map((v) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1))).join(', ');
    console.log(`  stdio server, ${parts.stdio.calls} sequential context_search calls, at each tenth (MiB):`);
    console.log(`    as shipped: peak RSS ${tenths(parts.stdio.peakRssMiB)}`);
    console.log(`                RSS ${tenths(parts.stdio.rssMiB)}`);
    console.log(`    GC log, full collections only: heap after the latest full GC ${tenths(parts.stdio.heapMiB)}`);
    console.log(`                RSS ${tenths(parts.stdio.heapRunRssMiB)}`);
    printChecks(parts.stdio.checks);
  }
  if (parts.gateway !== undefined) printGatewayScaling(parts.gateway);
}

if (import.meta.main) {
  const part = process.argv[2];
  const options: ScalingOptions = { ...QUICK_SCALING, log: (line) => process.stderr.write(`[scaling] ${line}\n`) };
  if (part === 'corpus') printScaling({ corpus: await scaleCorpus(options) });
  else if (part === 'http') printScaling({ http: await scaleServeHttp(options) });
  else if (part === 'stdio') printScaling({ stdio: await scaleStdio({ ...options, stdioCalls: 5000 }) });
  else if (part === 'gateway') printScaling({ gateway: await scaleGateway(options) });
  else console.log('usage: bun test/bench/scaling.ts corpus|http|stdio|gateway (quick sizes; npm run bench -- --only-scaling runs the full ones)');
}
