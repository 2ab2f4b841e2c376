// "How cost grows" (issue 18, item 5; figures with their expected complexity, never timed unit
// tests): the reference corpus service's query latency over generated corpora of growing size
// and its index throughput and peak RSS on a large generated input; `serve --http` at growing
// client counts; the stdio server's heap after GC and RSS over many calls; gateway discovery over many tools.
// Everything runs on loopback, in a temporary folder that is removed afterwards, with fixed
// seeds and bounded loops. Run one part alone: `bun test/bench/scaling.ts [corpus|http|stdio|gateway]`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openCorpusIndex } from '../../src/corpus/serve/corpus-index.ts';
import { startMcpServer, type TestServer } from '../gateway/mcp-test-server.ts';
import { type BenchFixture, startBenchFixture } from './bench-fixture.ts';
import { benchServeHttp, type PathFigures } from './serve-http.ts';
import { percentile } from './stats.ts';
import { readPeakRssKiB } from './peak-rss.ts';
import { measureStdioMemory } from '../memory/stdio-memory.ts';
import { exePath } from '../support/paths.ts';

/** Sizes used unless the caller passes others (`npm run bench -- --scale-chunks …`). */
export const DEFAULT_SCALING = {
  corpusChunks: [10_000, 100_000, 1_000_000],
  indexMiB: 1024,
  httpClients: [1, 8, 32, 128],
  stdioCalls: 100_000,
  gatewayServers: 8,
  gatewayToolsPerServer: 100,
} as const;

/** What to measure; every list and count is bounded by the caller. */
export interface ScalingOptions {
  readonly corpusChunks: readonly number[];
  readonly indexMiB: number;
  readonly httpClients: readonly number[];
  readonly stdioCalls: number;
  readonly gatewayServers: number;
  readonly gatewayToolsPerServer: number;
  readonly log: (line: string) => void;
}

/** A growth check: the measured ratio against the bound its complexity allows. */
export interface GrowthCheck {
  readonly expectation: string;
  readonly measured: string;
  readonly met: boolean;
}

export interface CorpusQueryFigures {
  readonly chunks: number;
  readonly queries: number;
  /** Two words of the generated vocabulary: the matches grow with the corpus. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** One token unique to one chunk: one match at any size. */
  readonly uniqueP50Ms: number;
  readonly uniqueP99Ms: number;
}

export interface CorpusScaling {
  readonly query: readonly CorpusQueryFigures[];
  readonly index: { readonly inputMiB: number; readonly files: number; readonly seconds: number; readonly mibPerSecond: number; readonly peakRssMiB: number | undefined };
  readonly checks: readonly GrowthCheck[];
}

export interface HttpScaling {
  readonly points: readonly { readonly clients: number; readonly provider: PathFigures; readonly noAuth: PathFigures }[];
  readonly checks: readonly GrowthCheck[];
}

export interface StdioScaling {
  readonly calls: number;
  /** Peak RSS (VmHWM) after each tenth of the calls, in MiB. */
  readonly peakRssMiB: readonly number[];
  /** Current RSS (VmRSS) after each tenth of the calls, in MiB. */
  readonly rssMiB: readonly number[];
  /** Heap after the server's latest full GC at each tenth, in MiB (NaN before the first). */
  readonly heapMiB: readonly number[];
  readonly checks: readonly GrowthCheck[];
}

export interface GatewayScaling {
  readonly points: readonly { readonly servers: number; readonly toolsPerServer: number; readonly medianMs: number }[];
  readonly checks: readonly GrowthCheck[];
}

// --- generated corpus ------------------------------------------------------------------------

/** Syllables of the generated vocabulary: 24³ = 13,824 distinct three-syllable words. */
const SYLLABLES = 'ka to ri mu se la no vi de pa ru go fe zi bo ma ne lu ti sa ko re di ga'.split(' ');
const VOCABULARY = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => `${a}${b}${c}`)));

/** A seeded linear congruential generator (the same sequence on every run). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/**
 * `words` words drawn with a skew towards the start of the vocabulary (rank ∝ r³), so a few
 * words are common and most are rare, as in natural text.
 */
function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(random() ** 3 * VOCABULARY.length)] as string).join(' ');
}

/** A query of two words drawn uniformly (mostly rare ones, as real queries name specific things). */
function queryText(random: () => number): string {
  return `${VOCABULARY[Math.floor(random() * VOCABULARY.length)]} ${VOCABULARY[Math.floor(random() * VOCABULARY.length)]}`;
}

/** Sections per generated file: each `## heading` section becomes one chunk (≤ 1000 code points). */
const SECTIONS_PER_FILE = 100;

/**
 * Writes `files` Markdown files of SECTIONS_PER_FILE short sections each (one chunk each).
 *
 * @returns The folder written.
 */
async function writeCorpus(dir: string, files: number, seed: number, wordsPerSection: number): Promise<string> {
  const random = seeded(seed);
  await mkdir(dir, { recursive: true });
  for (let file = 0; file < files; file++) {
    // Each heading carries one token found nowhere else (`id<file>x<section>`): a query for it
    // has exactly one match at any corpus size.
    const sections = Array.from({ length: SECTIONS_PER_FILE }, (_, index) => `## ${sentence(random, 3)} id${file}x${index}\n\n${sentence(random, wordsPerSection)}.\n`);
    await writeFile(path.join(dir, `doc-${String(file).padStart(6, '0')}.md`), `# Document ${file}\n\n${sections.join('\n')}`);
  }
  return dir;
}

/**
 * Runs `external-context corpus index` as a child; returns seconds and its peak RSS, read from
 * /proc every 20 ms (VmHWM only grows, so the last reading before the exit is the peak up to
 * then). Bun's resourceUsage().maxRSS is not used: it reported the largest of all children.
 */
async function indexWithExecutable(input: string, out: string): Promise<{ seconds: number; peakRssMiB: number | undefined }> {
  const started = performance.now();
  const child = Bun.spawn([exePath(), 'corpus', 'index', input, '--out', out], { stdout: 'ignore', stderr: 'pipe', cwd: path.dirname(input) });
  let peakKiB: number | undefined;
  const poll = setInterval(() => {
    peakKiB = readPeakRssKiB(child.pid) ?? peakKiB;
  }, 20);
  const code = await child.exited;
  clearInterval(poll);
  if (code !== 0) throw new Error(`corpus index exited with ${code}: ${(await new Response(child.stderr).text()).slice(0, 200)}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMiB: peakKiB === undefined ? undefined : peakKiB / 1024 };
}

function timeQueries(index: { search(query: string, limit: number): unknown }, list: readonly string[]): number[] {
  for (const query of list) index.search(query, 5); // warm-up: page cache and JIT
  Bun.gc(true);
  return list.map((query) => {
    const started = performance.now();
    index.search(query, 5);
    return performance.now() - started;
  });
}

async function queryLatency(dbPath: string, files: number, queries: number): Promise<CorpusQueryFigures> {
  const index = await openCorpusIndex(dbPath, path.dirname(dbPath));
  const random = seeded(7);
  const words = Array.from({ length: queries }, () => queryText(random));
  const unique = Array.from({ length: queries }, () => `id${Math.floor(random() * files)}x${Math.floor(random() * SECTIONS_PER_FILE)}`);
  try {
    const natural = timeQueries(index, words);
    const selective = timeQueries(index, unique);
    return {
      chunks: files * SECTIONS_PER_FILE,
      queries,
      p50Ms: percentile(natural, 0.5),
      p99Ms: percentile(natural, 0.99),
      uniqueP50Ms: percentile(selective, 0.5),
      uniqueP99Ms: percentile(selective, 0.99),
    };
  } finally {
    index.close();
  }
}

/**
 * Query latency at each corpus size (generated, SECTIONS_PER_FILE chunks per file) and index
 * throughput and peak RSS on `indexMiB` of generated input.
 */
export async function scaleCorpus(options: ScalingOptions): Promise<CorpusScaling> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-scale-corpus-'));
  try {
    const query: CorpusQueryFigures[] = [];
    for (const chunks of options.corpusChunks) {
      const files = Math.max(1, Math.round(chunks / SECTIONS_PER_FILE));
      options.log(`corpus: generating ${files * SECTIONS_PER_FILE} chunks`);
      const input = await writeCorpus(path.join(dir, `corpus-${chunks}`), files, chunks, 30);
      const db = path.join(dir, `corpus-${chunks}.sqlite`);
      await indexWithExecutable(input, db);
      query.push(await queryLatency(db, files, 1000));
      await rm(input, { recursive: true, force: true });
      await rm(db, { force: true });
    }
    // Sections of 150 words (≈ 1.2 KB, split into two chunks at 1000 code points).
    const wordsPerSection = 150;
    const bytesPerFile = SECTIONS_PER_FILE * (wordsPerSection * 7 + 30);
    const indexAt = async (mib: number): Promise<{ inputMiB: number; files: number; seconds: number; peakRssMiB: number | undefined }> => {
      const files = Math.max(1, Math.round((mib * 1_048_576) / bytesPerFile));
      options.log(`corpus: generating ${mib} MiB of input (${files} files) and indexing it`);
      const input = await writeCorpus(path.join(dir, `large-${mib}`), files, 99, wordsPerSection);
      const out = path.join(dir, `large-${mib}.sqlite`);
      const indexed = await indexWithExecutable(input, out);
      await rm(input, { recursive: true, force: true });
      await rm(out, { force: true });
      return { inputMiB: (files * bytesPerFile) / 1_048_576, files, ...indexed };
    };
    const smallIndex = await indexAt(Math.max(1, Math.round(options.indexMiB / 8)));
    const bigIndex = await indexAt(options.indexMiB);
    const first = query[0];
    const last = query[query.length - 1];
    const checks: GrowthCheck[] = [];
    if (first !== undefined && last !== undefined && last.chunks > first.chunks) {
      // FTS5 finds a term in a b-tree, so a query with one match is O(log n); a query's cost
      // is O(log n + matches), and the matches of ordinary words grow linearly with the corpus.
      const sizeRatio = last.chunks / first.chunks;
      const logBound = 2 * (Math.log(last.chunks) / Math.log(first.chunks));
      const uniqueGrew = last.uniqueP50Ms / first.uniqueP50Ms;
      const grew = last.p50Ms / first.p50Ms;
      checks.push(
        {
          expectation: `one-match query p50 logarithmic: ×${sizeRatio.toFixed(0)} chunks → at most ×${logBound.toFixed(1)} (2 × log ratio, for noise)`,
          measured: `×${uniqueGrew.toFixed(2)} (${first.uniqueP50Ms.toFixed(3)} → ${last.uniqueP50Ms.toFixed(3)} ms)`,
          met: uniqueGrew <= logBound,
        },
        {
          expectation: `two-word query p50 at most linear in the matches: ×${sizeRatio.toFixed(0)} chunks → at most ×${(1.5 * sizeRatio).toFixed(1)}`,
          measured: `×${grew.toFixed(2)} (${first.p50Ms.toFixed(3)} → ${last.p50Ms.toFixed(3)} ms)`,
          met: grew <= 1.5 * sizeRatio,
        },
      );
    }
    if (smallIndex.peakRssMiB !== undefined && bigIndex.peakRssMiB !== undefined) {
      // Files are read one at a time (each ≤ 1 MiB) and written in transactions: memory is
      // bounded by the batch, not the input; SQLite's page cache is bounded too.
      checks.push({
        expectation: `index peak RSS does not grow with the input: ×${(bigIndex.inputMiB / smallIndex.inputMiB).toFixed(0)} input → at most ×1.5 peak RSS`,
        measured: `${smallIndex.peakRssMiB.toFixed(0)} MiB for ${smallIndex.inputMiB.toFixed(0)} MiB → ${bigIndex.peakRssMiB.toFixed(0)} MiB for ${bigIndex.inputMiB.toFixed(0)} MiB`,
        met: bigIndex.peakRssMiB <= 1.5 * smallIndex.peakRssMiB,
      });
    }
    checks.push({
      expectation: 'index time linear in the input: MiB/s at the large input ≥ 0.5× MiB/s at the small one',
      measured: `${(smallIndex.inputMiB / smallIndex.seconds).toFixed(2)} → ${(bigIndex.inputMiB / bigIndex.seconds).toFixed(2)} MiB/s`,
      met: bigIndex.inputMiB / bigIndex.seconds >= 0.5 * (smallIndex.inputMiB / smallIndex.seconds),
    });
    const { inputMiB, files, seconds, peakRssMiB } = bigIndex;
    return { query, index: { inputMiB, files, seconds, mibPerSecond: inputMiB / seconds, peakRssMiB }, checks };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// --- serve --http ------------------------------------------------------------------------------

/** `serve --http` (no auth) and the provider alone at each client count. */
export async function scaleServeHttp(options: ScalingOptions): Promise<HttpScaling> {
  const points: { clients: number; provider: PathFigures; noAuth: PathFigures }[] = [];
  for (const clients of options.httpClients) {
    options.log(`serve --http: ${clients} clients`);
    // A bounded number of searches per point: 8,000 in all, at least 50 per client.
    const result = await benchServeHttp({ clients, requestsPerClient: Math.max(50, Math.round(8000 / clients)), jwt: false });
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
  return { points, checks };
}

// --- stdio server ------------------------------------------------------------------------------

/**
 * Memory of one stdio server (the compiled executable) over `stdioCalls` sequential calls, read
 * after each tenth: RSS, peak RSS, and the heap after the server's latest full collection (JSC's
 * own log, test/memory/stdio-memory.ts). Growth is judged on the heap: RSS follows the
 * collector's sizing and lags what is live (it rose and fell again over 100,000 calls).
 */
export async function scaleStdio(options: ScalingOptions, fixture?: BenchFixture): Promise<StdioScaling> {
  const own = fixture ?? (await startBenchFixture());
  try {
    const step = Math.max(1, Math.floor(options.stdioCalls / 10));
    const checkpoints = Array.from({ length: 10 }, (_, index) => Math.min(options.stdioCalls, (index + 1) * step));
    const samples = await measureStdioMemory('exe', checkpoints, own, (line) => options.log(`stdio: ${line}`));
    const checks: GrowthCheck[] = [];
    const half = samples[Math.floor(samples.length / 2) - 1];
    const last = samples[samples.length - 1];
    if (half?.heapMiB !== undefined && last?.heapMiB !== undefined) {
      // The heap grows to its working size during the first calls; after that nothing may be
      // kept per call, so the live heap after a full collection stays where it was.
      checks.push({
        expectation: 'heap flat over calls (nothing kept per call): heap after a full GC at the end ≤ half-way + 1 MiB',
        measured: `${half.heapMiB.toFixed(2)} MiB at half-way → ${last.heapMiB.toFixed(2)} MiB at the end (RSS ${half.rssMiB?.toFixed(1) ?? 'n/a'} → ${last.rssMiB?.toFixed(1) ?? 'n/a'} MiB)`,
        met: last.heapMiB <= half.heapMiB + 1,
      });
    } else {
      checks.push({ expectation: 'heap flat over calls: needs a full GC before half-way and before the end', measured: 'no full collection in the log', met: false });
    }
    return {
      calls: options.stdioCalls,
      peakRssMiB: samples.map((sample) => sample.peakRssMiB ?? Number.NaN),
      rssMiB: samples.map((sample) => sample.rssMiB ?? Number.NaN),
      heapMiB: samples.map((sample) => sample.heapMiB ?? Number.NaN),
      checks,
    };
  } finally {
    if (fixture === undefined) await own.close();
  }
}

// --- gateway -----------------------------------------------------------------------------------

function gatewayTools(server: number, count: number): { name: string; description: string; inputSchema: object; annotations: object }[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${server}_${index}`,
    description: `Looks up record ${index} of server ${server}.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
    annotations: { readOnlyHint: true },
  }));
}

/** Wall-clock time of `gateway discover --json` against `servers` loopback servers, median of `runs`. */
async function timeDiscover(dir: string, servers: readonly TestServer[], toolsPerServer: number, runs: number): Promise<number> {
  // The configuration allows at most 32 tool policies per server: the first 32 are enabled.
  const enabled = Math.min(32, toolsPerServer);
  const config = {
    version: 1,
    servers: Object.fromEntries(
      servers.map((server, s) => [
        `s${s}`,
        {
          enabled: true,
          url: server.url,
          tools: Object.fromEntries(Array.from({ length: enabled }, (_, t) => [`tool_${s}_${t}`, { enabled: true, readOnly: true }])),
        },
      ]),
    ),
  };
  const file = path.join(dir, `gateway-${servers.length}x${toolsPerServer}.json`);
  await writeFile(file, JSON.stringify(config), { mode: 0o600 });
  const samples: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const child = Bun.spawn([exePath(), 'gateway', 'discover', '--config', file, '--json'], { stdout: 'pipe', stderr: 'ignore', env: { PATH: process.env['PATH'] ?? '' } });
    const out = await new Response(child.stdout).text();
    const code = await child.exited;
    if (code !== 0) throw new Error(`gateway discover exited with ${code}: ${out.slice(0, 200)}`);
    if (run > 0) samples.push(performance.now() - started); // run 0 warms the page cache
  }
  return percentile(samples, 0.5);
}

/** Discovery time for 1 server × 1 tool, 1 × N, and S × N (S at most 8: the configuration's limit). */
export async function scaleGateway(options: ScalingOptions): Promise<GatewayScaling> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-scale-gateway-'));
  const servers: TestServer[] = [];
  try {
    const count = Math.min(8, options.gatewayServers);
    for (let s = 0; s < count; s++) servers.push(startMcpServer({ tools: gatewayTools(s, options.gatewayToolsPerServer) }));
    const small = startMcpServer({ tools: gatewayTools(0, 1) });
    servers.push(small);
    const points = [
      { servers: 1, toolsPerServer: 1, medianMs: await timeDiscover(dir, [small], 1, 5) },
      { servers: 1, toolsPerServer: options.gatewayToolsPerServer, medianMs: await timeDiscover(dir, servers.slice(0, 1), options.gatewayToolsPerServer, 5) },
      { servers: count, toolsPerServer: options.gatewayToolsPerServer, medianMs: await timeDiscover(dir, servers.slice(0, count), options.gatewayToolsPerServer, 5) },
    ];
    const [one, wide, all] = points as [(typeof points)[0], (typeof points)[0], (typeof points)[0]];
    return {
      points,
      checks: [
        {
          // Sequential discovery would take ×count; on 2 cores that also run the test
          // servers, concurrency shows as well under half of that.
          expectation: `servers are discovered concurrently: ${count} servers take under ${count / 2}× one server's time (sequential: ${count}×)`,
          measured: `${wide.medianMs.toFixed(0)} → ${all.medianMs.toFixed(0)} ms (×${(all.medianMs / wide.medianMs).toFixed(2)})`,
          met: all.medianMs < (count / 2) * wide.medianMs,
        },
        {
          expectation: `tools cost linear and small: ${options.gatewayToolsPerServer} tools add at most 100% to a 1-tool discovery`,
          measured: `${one.medianMs.toFixed(0)} → ${wide.medianMs.toFixed(0)} ms (×${(wide.medianMs / one.medianMs).toFixed(2)})`,
          met: wide.medianMs <= 2 * one.medianMs,
        },
      ],
    };
  } finally {
    for (const server of servers) await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// --- printing ------------------------------------------------------------------------------------

function printChecks(checks: readonly GrowthCheck[]): void {
  for (const check of checks) console.log(`  ${check.met ? 'PASS' : 'MISS'}  ${check.expectation}; measured ${check.measured}`);
}

/** Prints the "How cost grows" section. */
export function printScaling(parts: { corpus?: CorpusScaling | undefined; http?: HttpScaling | undefined; stdio?: StdioScaling | undefined; gateway?: GatewayScaling | undefined }): void {
  console.log('\nHow cost grows');
  if (parts.corpus !== undefined) {
    const { corpus } = parts;
    console.log('  Reference corpus service (generated Markdown, one chunk per section, in-process query, limit 5):');
    for (const q of corpus.query) {
      console.log(
        `    ${String(q.chunks).padStart(9)} chunks: two-word query p50 ${q.p50Ms.toFixed(3)} ms, p99 ${q.p99Ms.toFixed(3)} ms; one-match query p50 ${q.uniqueP50Ms.toFixed(3)} ms, p99 ${q.uniqueP99Ms.toFixed(3)} ms (${q.queries} each)`,
      );
    }
    const i = corpus.index;
    console.log(`    index ${i.inputMiB.toFixed(0)} MiB (${i.files} files): ${i.seconds.toFixed(1)} s → ${i.mibPerSecond.toFixed(2)} MiB/s, peak RSS ${i.peakRssMiB === undefined ? 'n/a' : `${i.peakRssMiB.toFixed(0)} MiB`}`);
    printChecks(corpus.checks);
  }
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
    console.log(`  stdio server, ${parts.stdio.calls} sequential context_search calls, per tenth:`);
    console.log(`    heap after full GC ${tenths(parts.stdio.heapMiB)} MiB`);
    console.log(`    RSS ${tenths(parts.stdio.rssMiB)} MiB; peak RSS ${tenths(parts.stdio.peakRssMiB)} MiB`);
    printChecks(parts.stdio.checks);
  }
  if (parts.gateway !== undefined) {
    console.log('  gateway discover --json (loopback Streamable HTTP servers; the configuration allows at most 8 servers and 32 tool policies each):');
    for (const p of parts.gateway.points) console.log(`    ${p.servers} server(s) × ${p.toolsPerServer} listed tool(s): median ${p.medianMs.toFixed(0)} ms`);
    printChecks(parts.gateway.checks);
  }
}

if (import.meta.main) {
  const part = process.argv[2];
  const options: ScalingOptions = { ...DEFAULT_SCALING, log: (line) => process.stderr.write(`[scaling] ${line}\n`) };
  if (part === 'corpus') printScaling({ corpus: await scaleCorpus({ ...options, corpusChunks: [10_000, 30_000], indexMiB: 32 }) });
  else if (part === 'http') printScaling({ http: await scaleServeHttp(options) });
  else if (part === 'stdio') printScaling({ stdio: await scaleStdio({ ...options, stdioCalls: 5000 }) });
  else if (part === 'gateway') printScaling({ gateway: await scaleGateway(options) });
  else console.log('usage: bun test/bench/scaling.ts corpus|http|stdio|gateway (small sizes; npm run bench runs the full ones)');
}
