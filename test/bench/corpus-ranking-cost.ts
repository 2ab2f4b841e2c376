// What a corpus query costs at scale for the previous (format 1) and the current (format 2)
// ranking (issue 28 §3): generated corpora (the seeded vocabulary of scaling-corpus.ts, skewed so
// a few words are very common), indexed in-process, then two-word queries and the worst
// common-word queries timed. Figures, never pass/fail.
//   bun test/bench/corpus-ranking-cost.ts [--chunks 100000] [--rankings previous,current]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildIndex } from '../../src/corpus/index/build-index.ts';
import type { CorpusRanking } from '../../src/corpus/corpus-ranking.ts';
import { openCorpusIndex } from '../../src/corpus/serve/corpus-index.ts';
import { percentile } from './stats.ts';

const SYLLABLES = 'ka to ri mu se la no vi de pa ru go fe zi bo ma ne lu ti sa ko re di ga'.split(' ');
const VOCABULARY = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => `${a}${b}${c}`)));
const SECTIONS_PER_FILE = 100;
const QUERIES = 300;

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => VOCABULARY[Math.floor(random() ** 3 * VOCABULARY.length)] as string).join(' ');
}

async function writeCorpus(dir: string, files: number): Promise<void> {
  const random = seeded(files);
  await mkdir(dir, { recursive: true });
  for (let file = 0; file < files; file++) {
    const sections = Array.from({ length: SECTIONS_PER_FILE }, (_, index) => `## ${sentence(random, 3)} id${file}x${index}\n\n${sentence(random, 30)}.\n`);
    await writeFile(path.join(dir, `doc-${String(file).padStart(6, '0')}.md`), `# Document ${file}\n\n${sections.join('\n')}`);
  }
}

async function time(index: { search(query: string, limit: number): Promise<unknown> }, queries: readonly string[]): Promise<{ p50: number; p95: number; max: number }> {
  for (const query of queries.slice(0, 20)) await index.search(query, 5);
  const ms: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await index.search(query, 5);
    ms.push(performance.now() - started);
  }
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: Math.max(...ms) };
}

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '100000' }, rankings: { type: 'string', default: 'previous,current' } } });
const chunks = Number(values.chunks);
const files = Math.max(1, Math.round(chunks / SECTIONS_PER_FILE));
const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-ranking-cost-'));
try {
  const input = path.join(dir, 'input');
  await writeCorpus(input, files);
  const random = seeded(7);
  const twoWord = Array.from({ length: QUERIES }, () => `${VOCABULARY[Math.floor(random() * VOCABULARY.length)]} ${VOCABULARY[Math.floor(random() * VOCABULARY.length)]}`);
  // The most common words of the skewed draw, alone and in pairs: the worst queries.
  const common = Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? VOCABULARY[index % 10] : `${VOCABULARY[index % 10]} ${VOCABULARY[(index + 3) % 10]}`) as string);
  for (const ranking of (values.rankings as string).split(',') as CorpusRanking[]) {
    const db = path.join(dir, `${ranking}.sqlite`);
    const started = performance.now();
    await buildIndex([input], db, dir, { onSkip: () => {}, onProgress: () => {} }, {}, ranking);
    const indexSeconds = (performance.now() - started) / 1000;
    const index = await openCorpusIndex(db, dir);
    const a = await time(index, twoWord);
    const b = await time(index, common);
    index.close();
    await rm(db, { force: true });
    console.log(
      `${ranking.padEnd(8)} ${files * SECTIONS_PER_FILE} chunks (indexed in ${indexSeconds.toFixed(0)} s): two-word p50 ${a.p50.toFixed(2)} ms, p95 ${a.p95.toFixed(2)} ms; ` +
        `common-word p50 ${b.p50.toFixed(2)} ms, p95 ${b.p95.toFixed(2)} ms, worst ${b.max.toFixed(2)} ms`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
