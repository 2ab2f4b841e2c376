// How the reference corpus service grows (issue 18 item 5): query latency over generated corpora
// of growing size (10k, 100k, 1M chunks), index throughput and peak RSS at two input sizes (an
// eighth of the input, then all of it: 1 GiB). Input is generated one file at a time from a seeded
// vocabulary into a temporary folder, indexed by the compiled executable, then deleted.
import { Database } from 'bun:sqlite';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openCorpusIndex } from '../../src/corpus/serve/corpus-index.ts';
import { buildFtsQuery } from '../../src/corpus/serve/fts-query.ts';
import { type GrowthCheck, printChecks, type ScalingOptions } from './growth-check.ts';
import { readPeakRssKiB } from './peak-rss.ts';
import { percentile } from './stats.ts';
import { exePath } from '../support/paths.ts';

export interface CorpusQueryFigures {
  readonly chunks: number;
  /** Generated Markdown, MiB, and what `corpus index` took to index it (seconds, peak RSS, index file MiB). */
  readonly inputMiB: number;
  readonly indexSeconds: number;
  readonly indexPeakRssMiB: number | undefined;
  readonly indexMiB: number;
  readonly queries: number;
  /** Two words of the generated vocabulary: the matches grow with the corpus. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Chunks a two-word query matches: median and 99th percentile over the queries. */
  readonly matchesP50: number;
  readonly matchesP99: number;
  /** One token unique to one chunk: one match at any size. */
  readonly uniqueP50Ms: number;
  readonly uniqueP99Ms: number;
}

export interface IndexFigures {
  /** Bytes of Markdown written, in MiB. */
  readonly inputMiB: number;
  readonly files: number;
  /** Seconds to generate the input (not part of the product's figures). */
  readonly generateSeconds: number;
  /** Seconds of `corpus index`, process start to exit. */
  readonly seconds: number;
  readonly mibPerSecond: number;
  /** Peak RSS of the `corpus index` process (VmHWM), undefined where /proc is unavailable. */
  readonly peakRssMiB: number | undefined;
  /** Size of the index file written. */
  readonly indexMiB: number;
}

export interface CorpusScaling {
  readonly query: readonly CorpusQueryFigures[];
  /** The large input (options.indexMiB). */
  readonly index: IndexFigures;
  /** An eighth of it, the reference for the flat-throughput and flat-RSS checks. */
  readonly smallIndex: IndexFigures;
  readonly checks: readonly GrowthCheck[];
}

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
/** Queries per corpus size and kind. */
const QUERIES = 1000;

/**
 * Writes `files` Markdown files of SECTIONS_PER_FILE sections each, one file in memory at a time
 * (about 25 KB at 30 words a section, 110 KB at 150), so generating 1 GiB holds no more than that.
 *
 * @returns Bytes written and the seconds it took.
 */
async function writeCorpus(dir: string, files: number, seed: number, wordsPerSection: number): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const random = seeded(seed);
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  for (let file = 0; file < files; file++) {
    // Each heading carries one token found nowhere else (`id<file>x<section>`): a query for it
    // has exactly one match at any corpus size.
    const sections = Array.from({ length: SECTIONS_PER_FILE }, (_, index) => `## ${sentence(random, 3)} id${file}x${index}\n\n${sentence(random, wordsPerSection)}.\n`);
    const text = Buffer.from(`# Document ${file}\n\n${sections.join('\n')}`, 'utf8');
    await writeFile(path.join(dir, `doc-${String(file).padStart(6, '0')}.md`), text);
    bytes += text.byteLength;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

/**
 * Runs `external-context corpus index` as a child; returns seconds and its peak RSS, read from
 * /proc every 20 ms (VmHWM only grows, so the last reading before the exit is the peak up to
 * then). Bun's resourceUsage().maxRSS is not used: it reported the largest of all children.
 */
async function indexWithExecutable(input: string, out: string): Promise<{ seconds: number; peakRssMiB: number | undefined; indexMiB: number }> {
  const started = performance.now();
  const child = Bun.spawn([exePath(), 'corpus', 'index', input, '--out', out], { stdout: 'ignore', stderr: 'pipe', cwd: path.dirname(input) });
  let peakKiB: number | undefined;
  const poll = setInterval(() => {
    peakKiB = readPeakRssKiB(child.pid) ?? peakKiB;
  }, 20);
  const code = await child.exited;
  clearInterval(poll);
  if (code !== 0) throw new Error(`corpus index exited with ${code}: ${(await new Response(child.stderr).text()).slice(0, 200)}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMiB: peakKiB === undefined ? undefined : peakKiB / 1024, indexMiB: Bun.file(out).size / 1_048_576 };
}

async function timeQueries(index: { search(query: string, limit: number): Promise<unknown> }, list: readonly string[]): Promise<number[]> {
  for (const query of list) await index.search(query, 5); // warm-up: page cache and JIT
  Bun.gc(true);
  const ms: number[] = [];
  for (const query of list) {
    const started = performance.now();
    await index.search(query, 5);
    ms.push(performance.now() - started);
  }
  return ms;
}

/** Chunks each query matches, counted apart from the timed searches. */
function countMatches(dbPath: string, queries: readonly string[]): number[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const count = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM chunks WHERE chunks MATCH ?');
    return queries.map((query) => count.get(buildFtsQuery(query) as string)?.n ?? 0);
  } finally {
    db.close();
  }
}

async function queryLatency(dbPath: string, files: number): Promise<Omit<CorpusQueryFigures, 'inputMiB' | 'indexSeconds' | 'indexPeakRssMiB' | 'indexMiB'>> {
  const index = await openCorpusIndex(dbPath, path.dirname(dbPath));
  const random = seeded(7);
  const words = Array.from({ length: QUERIES }, () => queryText(random));
  const unique = Array.from({ length: QUERIES }, () => `id${Math.floor(random() * files)}x${Math.floor(random() * SECTIONS_PER_FILE)}`);
  let natural: number[];
  let selective: number[];
  try {
    natural = await timeQueries(index, words);
    selective = await timeQueries(index, unique);
  } finally {
    index.close();
  }
  const matches = countMatches(dbPath, words);
  return {
    chunks: files * SECTIONS_PER_FILE,
    queries: QUERIES,
    p50Ms: percentile(natural, 0.5),
    p99Ms: percentile(natural, 0.99),
    matchesP50: percentile(matches, 0.5),
    matchesP99: percentile(matches, 0.99),
    uniqueP50Ms: percentile(selective, 0.5),
    uniqueP99Ms: percentile(selective, 0.99),
  };
}

/** Sections of 150 words (≈ 1.1 KB, split into two chunks at 1000 code points). */
const INDEX_WORDS_PER_SECTION = 150;
/** Bytes of one generated file at INDEX_WORDS_PER_SECTION, for choosing the file count. */
const INDEX_BYTES_PER_FILE = SECTIONS_PER_FILE * (INDEX_WORDS_PER_SECTION * 7 + 30);

async function indexAt(dir: string, mib: number, log: (line: string) => void): Promise<IndexFigures> {
  const files = Math.max(1, Math.round((mib * 1_048_576) / INDEX_BYTES_PER_FILE));
  const input = path.join(dir, `large-${mib}`);
  const out = path.join(dir, `large-${mib}.sqlite`);
  try {
    log(`corpus: generating ${mib} MiB of input (${files} files)`);
    const generated = await writeCorpus(input, files, 99, INDEX_WORDS_PER_SECTION);
    log(`corpus: generated ${(generated.bytes / 1_048_576).toFixed(0)} MiB in ${generated.seconds.toFixed(1)} s; indexing it`);
    const indexed = await indexWithExecutable(input, out);
    const inputMiB = generated.bytes / 1_048_576;
    return { inputMiB, files, generateSeconds: generated.seconds, ...indexed, mibPerSecond: inputMiB / indexed.seconds };
  } finally {
    await rm(input, { recursive: true, force: true });
    await rm(out, { force: true });
  }
}

function queryChecks(first: CorpusQueryFigures, last: CorpusQueryFigures): GrowthCheck[] {
  // FTS5 finds a term in a b-tree, so a query with one match is O(log n). bm25 ranks every
  // matching chunk before the limit applies, looking up each one's column sizes in a b-tree:
  // a query costs O(log n + m·log n) for m matches (counting the matches alone took 0.3 ms of
  // a 13 ms p50 at 1M chunks), and the matches of ordinary words grow linearly with the corpus.
  const sizeRatio = last.chunks / first.chunks;
  const logRatio = Math.log(last.chunks) / Math.log(first.chunks);
  const uniqueGrew = last.uniqueP50Ms / first.uniqueP50Ms;
  const grew = last.p50Ms / first.p50Ms;
  const matchesGrew = last.matchesP50 / Math.max(1, first.matchesP50);
  return [
    {
      expectation: `one-match query p50 O(log n): ×${sizeRatio.toFixed(0)} chunks → at most ×${(2 * logRatio).toFixed(1)} (2 × the log ratio, for noise; linear would be ×${sizeRatio.toFixed(0)})`,
      measured: `×${uniqueGrew.toFixed(2)} (${first.uniqueP50Ms.toFixed(3)} → ${last.uniqueP50Ms.toFixed(3)} ms)`,
      met: uniqueGrew <= 2 * logRatio,
    },
    {
      expectation: `two-word query p50 O(m·log n) for m matches: at most ×(matches ratio × log ratio) = ×${(Math.max(1, matchesGrew) * logRatio).toFixed(0)} (m·n would be ×${(matchesGrew * sizeRatio).toFixed(0)})`,
      measured: `×${grew.toFixed(2)} (${first.p50Ms.toFixed(3)} → ${last.p50Ms.toFixed(3)} ms) for ×${matchesGrew.toFixed(1)} matches (p50 ${first.matchesP50} → ${last.matchesP50})`,
      met: grew <= Math.max(1, matchesGrew) * logRatio,
    },
  ];
}

function indexChecks(small: IndexFigures, big: IndexFigures): GrowthCheck[] {
  const checks: GrowthCheck[] = [];
  if (small.peakRssMiB !== undefined && big.peakRssMiB !== undefined) {
    // Files are read one at a time (each ≤ 1 MiB); FTS5 flushes its pending terms at a fixed
    // size and SQLite's page cache is bounded: memory is bounded by those, not by the input.
    checks.push({
      expectation: `index peak RSS O(1) in the input: ×${(big.inputMiB / small.inputMiB).toFixed(0)} input → at most ×1.5 peak RSS`,
      measured: `${small.peakRssMiB.toFixed(0)} MiB for ${small.inputMiB.toFixed(0)} MiB → ${big.peakRssMiB.toFixed(0)} MiB for ${big.inputMiB.toFixed(0)} MiB (×${(big.peakRssMiB / small.peakRssMiB).toFixed(2)})`,
      met: big.peakRssMiB <= 1.5 * small.peakRssMiB,
    });
  }
  // Segment merges make FTS5 indexing O(n log n) at worst: over ×8 input that is well inside ×0.5.
  checks.push({
    expectation: `index time linear in the input: MiB/s at ×${(big.inputMiB / small.inputMiB).toFixed(0)} input ≥ 0.5× MiB/s at the small one`,
    measured: `${small.mibPerSecond.toFixed(2)} → ${big.mibPerSecond.toFixed(2)} MiB/s (×${(big.mibPerSecond / small.mibPerSecond).toFixed(2)})`,
    met: big.mibPerSecond >= 0.5 * small.mibPerSecond,
  });
  return checks;
}

/**
 * Query latency at each corpus size (generated, SECTIONS_PER_FILE chunks per file) and index
 * throughput and peak RSS on an eighth of `indexMiB` and on all of it.
 */
export async function scaleCorpus(options: ScalingOptions): Promise<CorpusScaling> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-scale-corpus-'));
  try {
    const query: CorpusQueryFigures[] = [];
    for (const chunks of options.corpusChunks) {
      const files = Math.max(1, Math.round(chunks / SECTIONS_PER_FILE));
      const input = path.join(dir, `corpus-${chunks}`);
      const db = path.join(dir, `corpus-${chunks}.sqlite`);
      options.log(`corpus: generating ${files * SECTIONS_PER_FILE} chunks`);
      const generated = await writeCorpus(input, files, chunks, 30);
      options.log(`corpus: generated ${(generated.bytes / 1_048_576).toFixed(0)} MiB in ${generated.seconds.toFixed(1)} s; indexing it`);
      const indexed = await indexWithExecutable(input, db);
      await rm(input, { recursive: true, force: true });
      options.log(`corpus: indexed in ${indexed.seconds.toFixed(1)} s (${indexed.indexMiB.toFixed(0)} MiB); ${QUERIES} queries of each kind`);
      const latency = await queryLatency(db, files);
      query.push({ ...latency, inputMiB: generated.bytes / 1_048_576, indexSeconds: indexed.seconds, indexPeakRssMiB: indexed.peakRssMiB, indexMiB: indexed.indexMiB });
      await rm(db, { force: true });
    }
    const smallIndex = await indexAt(dir, Math.max(1, Math.round(options.indexMiB / 8)), options.log);
    const index = await indexAt(dir, options.indexMiB, options.log);
    const first = query[0];
    const last = query[query.length - 1];
    const checks = [...(first !== undefined && last !== undefined && last.chunks > first.chunks ? queryChecks(first, last) : []), ...indexChecks(smallIndex, index)];
    return { query, index, smallIndex, checks };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Prints the corpus lines of "How cost grows". */
export function printCorpusScaling(corpus: CorpusScaling): void {
  console.log('  Reference corpus service (generated Markdown, one chunk per section, in-process query, limit 5):');
  for (const q of corpus.query) {
    console.log(
      `    ${String(q.chunks).padStart(9)} chunks: two-word query p50 ${q.p50Ms.toFixed(3)} ms, p99 ${q.p99Ms.toFixed(3)} ms (matches p50 ${q.matchesP50}, p99 ${q.matchesP99}); ` +
        `one-match query p50 ${q.uniqueP50Ms.toFixed(3)} ms, p99 ${q.uniqueP99Ms.toFixed(3)} ms (${q.queries} each)`,
    );
    const rss = q.indexPeakRssMiB === undefined ? 'n/a' : `${q.indexPeakRssMiB.toFixed(0)} MiB`;
    console.log(`               indexed ${q.inputMiB.toFixed(0)} MiB in ${q.indexSeconds.toFixed(1)} s, peak RSS ${rss}, index file ${q.indexMiB.toFixed(0)} MiB`);
  }
  for (const i of [corpus.smallIndex, corpus.index]) {
    const rss = i.peakRssMiB === undefined ? 'n/a' : `${i.peakRssMiB.toFixed(0)} MiB`;
    console.log(`    index ${i.inputMiB.toFixed(0)} MiB (${i.files} files): ${i.seconds.toFixed(1)} s → ${i.mibPerSecond.toFixed(2)} MiB/s, peak RSS ${rss}, index file ${i.indexMiB.toFixed(0)} MiB`);
  }
  printChecks(corpus.checks);
}
