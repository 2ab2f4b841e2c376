// Benchmark of the reference corpus service (figures, never pass/fail): index throughput over
// real corpora from node_modules, and query latency over 1,000 queries drawn from the corpus's
// own headings, both in-process and over loopback HTTP. Run: `bun test/bench/corpus.ts`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex, type BuildIndexSummary } from '../../src/corpus/index/build-index.ts';
import { openCorpusIndex } from '../../src/corpus/serve/corpus-index.ts';
import { SEARCH_PATH } from '../../src/corpus/serve/search-handler.ts';
import { startCorpusService } from '../../src/corpus/serve/start-corpus-service.ts';
import { openSqlite } from '../../src/runtime/sqlite.ts';
import { nodeModulesMarkdown } from '../corpus/sample-corpus.ts';

const ROOT = join(import.meta.dir, '..', '..');
const QUERY_COUNT = 1000;
// One untimed pass over all queries first, so JIT warm-up and SQLite's cold page cache (one
// per connection) stay out of the figures: they are steady-state latencies.
const WARM_UP_QUERIES = QUERY_COUNT;
const TOKEN = 'bench-token';

/** Throughput of one `corpus index` run. */
export interface IndexFigures {
  readonly corpus: string;
  readonly files: number;
  readonly chunks: number;
  readonly mib: number;
  readonly seconds: number;
  readonly filesPerSecond: number;
  readonly mibPerSecond: number;
}

/** Latency percentiles in ms. */
export interface LatencyFigures {
  readonly path: string;
  readonly queries: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

/** Everything the benchmark measures. */
export interface CorpusBenchResult {
  readonly index: IndexFigures[];
  readonly latency: LatencyFigures[];
}

async function timeIndex(corpus: string, paths: string[], out: string, cwd = ROOT): Promise<IndexFigures> {
  const started = performance.now();
  const summary: BuildIndexSummary = await buildIndex(paths, out, cwd, { onSkip: () => {}, onProgress: () => {} });
  const seconds = (performance.now() - started) / 1000;
  const mib = summary.bytes / 1_048_576;
  return { corpus, files: summary.files, chunks: summary.chunks, mib, seconds, filesPerSecond: summary.files / seconds, mibPerSecond: mib / seconds };
}

// Headings from the index itself (the last title segment), drawn with a fixed seed.
async function headingQueries(dbPath: string): Promise<string[]> {
  const db = await openSqlite(dbPath, { readonly: true });
  // Chunks under a heading have an anchored uri; the others carry the file name as title.
  const titles = db.prepare("SELECT DISTINCT title FROM chunks WHERE uri LIKE '%#%'").all();
  db.close();
  const headings = titles.map((row) => String(row['title']).split(' › ').pop() ?? '').filter((heading) => /[\p{L}\p{N}]/u.test(heading));
  let seed = 42;
  const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: QUERY_COUNT }, () => headings[Math.floor(random() * headings.length)] as string);
}

function percentiles(path: string, samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
  return { path, queries: samples.length, p50Ms: at(0.5), p99Ms: at(0.99), meanMs: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function timeQueries(dbPath: string, queries: string[]): Promise<LatencyFigures[]> {
  const index = await openCorpusIndex(dbPath, ROOT);
  for (const query of queries.slice(0, WARM_UP_QUERIES)) await index.search(query, 5);
  // Collect the indexing runs' garbage now rather than inside the timed loop.
  Bun.gc(true);
  const direct: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await index.search(query, 5);
    direct.push(performance.now() - started);
  }
  index.close();
  const service = await startCorpusService({ dbPath, cwd: ROOT, token: TOKEN, address: { hostname: '127.0.0.1', port: 0 } });
  const http: number[] = [];
  const post = async (query: string): Promise<void> => {
    const response = await fetch(`${service.url}${SEARCH_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, limit: 5 }),
    });
    if (response.status !== 200) throw new Error(`benchmark search answered ${response.status}`);
    await response.arrayBuffer();
  };
  try {
    for (const query of queries.slice(0, WARM_UP_QUERIES)) await post(query);
    for (const query of queries) {
      const started = performance.now();
      await post(query);
      http.push(performance.now() - started);
    }
  } finally {
    await service.close();
  }
  return [percentiles('in-process search', direct), percentiles('HTTP POST /v1/context/search (loopback)', http)];
}

/** Hard-links `source` into `parent`/node_modules (same file system as the temporary folder) and returns `parent`. */
function linkedCopy(source: string, parent: string): string {
  mkdirSync(parent);
  const copy = spawnSync('cp', ['-al', source, join(parent, 'node_modules')], { stdio: 'ignore' });
  if (copy.status !== 0) throw new Error(`cp -al ${source} failed (exit ${copy.status}); the whole-tree index needs the temporary folder on the same file system`);
  return parent;
}

/** Runs the corpus benchmark in a temporary folder and returns the figures. */
export async function benchCorpus(): Promise<CorpusBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-corpus-'));
  try {
    const markdownDb = join(dir, 'markdown.sqlite');
    const treeDb = join(dir, 'tree.sqlite');
    const index = [
      await timeIndex('node_modules Markdown files', nodeModulesMarkdown(ROOT), markdownDb),
      // The repository's .gitignore leaves node_modules/ out of an index (corpus.md), so the whole
      // tree is indexed from a hard-linked copy outside the repository (no file data is copied).
      await timeIndex('whole node_modules tree', ['node_modules'], treeDb, linkedCopy(join(ROOT, 'node_modules'), join(dir, 'tree'))),
    ];
    const latency = await timeQueries(markdownDb, await headingQueries(markdownDb));
    return { index, latency };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(result: CorpusBenchResult): void {
  const fixed = (n: number, digits = 1): string => n.toFixed(digits);
  console.log('corpus index throughput');
  for (const f of result.index) {
    console.log(`  ${f.corpus}: ${f.files} files, ${fixed(f.mib, 2)} MiB, ${f.chunks} chunks in ${fixed(f.seconds, 2)} s → ${fixed(f.filesPerSecond, 0)} files/s, ${fixed(f.mibPerSecond, 2)} MiB/s`);
  }
  console.log(`corpus query latency (${QUERY_COUNT} queries from the corpus's own headings, limit 5, after one untimed warm-up pass)`);
  for (const l of result.latency) console.log(`  ${l.path}: p50 ${fixed(l.p50Ms, 3)} ms, p99 ${fixed(l.p99Ms, 3)} ms, mean ${fixed(l.meanMs, 3)} ms`);
}

if (import.meta.main) printTable(await benchCorpus());
