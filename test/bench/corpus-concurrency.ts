// Does one expensive query delay the others in `corpus serve` (issue 28 §3)? The executable serves
// a generated 100k-chunk index; simple one-match queries are timed alone, then while a client keeps
// sending the most common words. Figures, never pass/fail.
//   bun test/bench/corpus-concurrency.ts [--chunks 100000] [--exe <path>]  (--exe: another build, to compare)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildIndex } from '../../src/corpus/index/build-index.ts';
import { exePath } from '../support/paths.ts';
import { percentile } from './stats.ts';

const SYLLABLES = 'ka to ri mu se la no vi de pa ru go fe zi bo ma ne lu ti sa ko re di ga'.split(' ');
const VOCABULARY = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => `${a}${b}${c}`)));
const TOKEN = 'bench-token-0123456789';
const SIMPLE = 300;

let state = 11;
const random = (): number => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const sentence = (words: number): string => Array.from({ length: words }, () => VOCABULARY[Math.floor(random() ** 3 * VOCABULARY.length)]).join(' ');

async function ask(url: string, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/context/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, limit: 5 }),
  });
  await response.arrayBuffer();
  return performance.now() - started;
}

async function simpleRun(url: string, files: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SIMPLE; i++) times.push(await ask(url, `id${Math.floor(random() * files)}x${Math.floor(random() * 100)}`));
  return times;
}

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '100000' }, exe: { type: 'string', default: exePath() } } });
const files = Math.max(1, Math.round(Number(values.chunks) / 100));
const dir = await mkdtemp(path.join(tmpdir(), 'ec-bench-corpus-concurrency-'));
const child = { proc: undefined as ReturnType<typeof Bun.spawn> | undefined };
try {
  await mkdir(path.join(dir, 'in'));
  for (let f = 0; f < files; f++)
    await writeFile(path.join(dir, 'in', `d${f}.md`), `# D${f}\n\n${Array.from({ length: 100 }, (_, i) => `## ${sentence(3)} id${f}x${i}\n\n${sentence(30)}.\n`).join('\n')}`);
  await buildIndex([path.join(dir, 'in')], path.join(dir, 'i.sqlite'), dir, { onSkip: () => {}, onProgress: () => {} });
  child.proc = Bun.spawn([values.exe, 'corpus', 'serve', '--db', path.join(dir, 'i.sqlite'), '--token-env', 'T', '--listen', '127.0.0.1:0'], { env: { T: TOKEN }, stdout: 'pipe', stderr: 'ignore' });
  const reader = child.proc.stdout as ReadableStream<Uint8Array>;
  const url = new TextDecoder().decode((await reader.getReader().read()).value).trim();
  await simpleRun(url, files); // warm-up
  const quiet = await simpleRun(url, files);
  let running = true;
  const worst: number[] = [];
  const heavy = (async () => {
    for (let i = 0; running; i++) worst.push(await ask(url, `${VOCABULARY[i % 5]} ${VOCABULARY[(i + 2) % 5]}`));
  })();
  const busy = await simpleRun(url, files);
  running = false;
  await heavy;
  const line = (name: string, ms: number[]): string => `${name}: p50 ${percentile(ms, 0.5).toFixed(2)} ms, p99 ${percentile(ms, 0.99).toFixed(2)} ms`;
  console.log(`${files * 100} chunks, corpus serve (HTTP round trips), ${path.basename(values.exe)}`);
  console.log(`  ${line('simple queries alone', quiet)}`);
  console.log(`  ${line('simple queries beside common-word queries', busy)}  (×${(percentile(busy, 0.99) / percentile(quiet, 0.99)).toFixed(1)} p99)`);
  console.log(`  ${line('the common-word queries', worst)}`);
} finally {
  child.proc?.kill();
  await rm(dir, { recursive: true, force: true });
}
