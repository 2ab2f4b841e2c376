import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../../src/corpus/index/build-index.ts';
import { MAX_CHUNK_CODE_POINTS } from '../../../src/corpus/index/chunk-text.ts';
import { CorpusError } from '../../../src/corpus/corpus-error.ts';
import { openSqlite } from '../../../src/runtime/sqlite.ts';
import { indexNodeModulesMarkdown, indexSample, nodeModulesMarkdown, type IndexedCorpus } from '../sample-corpus.ts';

const ROOT = join(import.meta.dir, '..', '..', '..');
const corpora: IndexedCorpus[] = [];
afterAll(() => corpora.forEach((corpus) => corpus.remove()));

async function rows(dbPath: string): Promise<Record<string, unknown>[]> {
  const db = await openSqlite(dbPath, { readonly: true });
  try {
    return db.prepare('SELECT id, title, uri, content, updated_at FROM chunks ORDER BY rowid').all();
  } finally {
    db.close();
  }
}

describe('buildIndex()', () => {
  test('indexes Markdown by headings and text by paragraphs with relative ids and RFC 3339 times', async () => {
    const corpus = await indexSample();
    corpora.push(corpus);
    expect(corpus.summary).toMatchObject({ files: 3, skipped: 0 });
    const stored = await rows(corpus.dbPath);
    expect(stored.map((row) => row['id'])).toEqual(['docs/fruit.md#fruit:1', 'docs/fruit.md#apples:1', 'docs/fruit.md#pears:1', 'docs/tools.md#tools:1', 'docs/tools.md#saws:1', 'notes.txt:1']);
    expect(stored[1]).toMatchObject({ title: 'Fruit › Apples', uri: 'docs/fruit.md#apples' });
    for (const row of stored) expect(String(row['updated_at'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('gives the same ids when the same input is indexed again', async () => {
    const first = await indexSample();
    const second = await indexSample();
    corpora.push(first, second);
    // The files were written at different times, so only updated_at may differ.
    const withoutTime = async (dbPath: string) => (await rows(dbPath)).map(({ updated_at: _, ...row }) => row);
    expect(await withoutTime(second.dbPath)).toEqual(await withoutTime(first.dbPath));
  });

  test('skips binary and over-size files with a warning each and indexes the rest', async () => {
    const corpus = await indexSample({
      'a.md': '# A\ntext',
      'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      'big.md': 'x'.repeat(1_048_577),
    });
    corpora.push(corpus);
    expect(corpus.skips).toEqual([
      ['big.md', 'oversize'],
      ['image.png', 'binary'],
      ['latin1.txt', 'binary'],
    ]);
    expect(corpus.summary).toMatchObject({ files: 1, chunks: 1, skipped: 3 });
  });

  test('leaves no temporary file behind and keeps the old index when an input is missing', async () => {
    const corpus = await indexSample();
    corpora.push(corpus);
    const error = await buildIndex(['missing.md'], corpus.dbPath, corpus.dir, { onSkip: () => {}, onProgress: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorpusError);
    expect(readdirSync(corpus.dir).sort()).toEqual(['index.sqlite', 'input']);
    expect((await rows(corpus.dbPath)).length).toBeGreaterThan(0);
  });

  test('refuses an --out that is the input folder (output-is-input) or another folder (output-not-index)', async () => {
    const corpus = await indexSample();
    corpora.push(corpus);
    writeFileSync(join(corpus.dir, 'input', 'x.md'), 'x');
    const events = { onSkip: () => {}, onProgress: () => {} };
    expect(await buildIndex(['input'], join(corpus.dir, 'input'), corpus.dir, events).catch((e: unknown) => e)).toMatchObject({ name: 'CorpusError', kind: 'output-is-input' });
    mkdirSync(join(corpus.dir, 'other'));
    expect(await buildIndex(['input'], join(corpus.dir, 'other'), corpus.dir, events).catch((e: unknown) => e)).toMatchObject({ name: 'CorpusError', kind: 'output-not-index' });
    expect(readdirSync(corpus.dir).sort()).toEqual(['index.sqlite', 'input', 'other']);
  });

  test('indexes the Markdown files of the installed node_modules packages into chunks of at most 1000 code points', async () => {
    const files = nodeModulesMarkdown(ROOT);
    expect(files.length).toBeGreaterThan(50);
    const corpus = await indexNodeModulesMarkdown(ROOT);
    corpora.push(corpus);
    expect(corpus.summary.files + corpus.summary.skipped).toBe(files.length);
    const stored = await rows(corpus.dbPath);
    expect(stored.length).toBeGreaterThan(files.length);
    expect(new Set(stored.map((row) => row['id'])).size).toBe(stored.length);
    for (const row of stored) expect([...String(row['content'])].length).toBeLessThanOrEqual(MAX_CHUNK_CODE_POINTS);
    expect(stored.some((row) => String(row['id']).startsWith('node_modules/valibot/README.md#'))).toBe(true);
    expect(existsSync(corpus.dbPath)).toBe(true);
  });
});

/** Paths that this process's open fds point at (Linux /proc/self/fd). */
function openPaths(): string[] {
  const paths: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      paths.push(readlinkSync(join('/proc/self/fd', fd)));
    } catch {
      // The fd closed while being listed (the listing's own fd, for one).
    }
  }
  return paths;
}

describe.skipIf(process.platform !== 'linux')('buildIndex() and open handles (Linux /proc/self/fd)', () => {
  test('no handle on the index or its temporary file stays open once it returns (Windows renames only closed files)', async () => {
    const corpus = await indexSample();
    corpora.push(corpus);
    const left = openPaths().filter((path) => path.startsWith(corpus.dir));
    expect(left).toEqual([]);
    // And the index it wrote opens, reads and closes again without a leftover handle.
    expect((await rows(corpus.dbPath)).length).toBe(6);
    expect(openPaths().filter((path) => path.startsWith(corpus.dir))).toEqual([]);
  });
});
