import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCorpusIndex, type CorpusIndex } from '../../../src/corpus/serve/corpus-index.ts';
import { CorpusError } from '../../../src/corpus/corpus-error.ts';
import { openSqlite } from '../../../src/runtime/sqlite.ts';
import { indexNodeModulesMarkdown, indexSample, type IndexedCorpus } from '../sample-corpus.ts';

const ROOT = join(import.meta.dir, '..', '..', '..');
let sample: IndexedCorpus;
let real: IndexedCorpus;
let index: CorpusIndex;
let realIndex: CorpusIndex;

beforeAll(async () => {
  sample = await indexSample();
  real = await indexNodeModulesMarkdown(ROOT);
  index = await openCorpusIndex(sample.dbPath, '/');
  realIndex = await openCorpusIndex('index.sqlite', real.dir);
});
afterAll(() => {
  index.close();
  realIndex.close();
  sample.remove();
  real.remove();
});

function expectRanked(items: readonly { score: number }[]): void {
  for (const item of items) {
    expect(item.score).toBeGreaterThanOrEqual(0);
    expect(item.score).toBeLessThan(1);
  }
  for (let i = 1; i < items.length; i++) expect(items[i - 1]!.score).toBeGreaterThanOrEqual(items[i]!.score);
}

describe('openCorpusIndex()', () => {
  test('search() ranks the most relevant chunk first with all six fields', async () => {
    const items = await index.search('apples', 5);
    expect(items[0]).toEqual({
      id: 'docs/fruit.md#apples:1',
      content: 'Apples are crunchy apples. Apples grow on apple trees; apples everywhere.',
      title: 'Fruit › Apples',
      uri: 'docs/fruit.md#apples',
      score: expect.any(Number),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(items.map((item) => item.id)).toEqual(['docs/fruit.md#apples:1', 'docs/fruit.md#pears:1']);
    expectRanked(items);
  });

  test('search() matches word stems: "sawing" finds the Saws section', async () => {
    expect((await index.search('sawing', 5)).map((item) => item.id)).toEqual(['docs/tools.md#saws:1']);
  });

  test('search() returns at most limit items', async () => {
    expect(await index.search('apple pear hammer saw kiwis bananas fruit', 2)).toHaveLength(2);
  });

  test('search() never reads FTS5 syntax and returns [] for a query without a token', async () => {
    for (const query of ['"', 'apples"', 'NEAR(apples pears)', 'title:apples', 'apples*', '^apples', 'a AND OR NOT b', '(', '- -', '{x}:y']) {
      await index.search(query, 5);
    }
    expect((await index.search('title:apples', 5))[0]?.id).toBe('docs/fruit.md#apples:1');
    expect(await index.search('?!*"()', 5)).toEqual([]);
  });

  test('search() over the node_modules Markdown corpus gives scores in [0, 1), best first, for its own headings', async () => {
    for (const query of ['Installation', 'Usage', 'License', 'API reference', 'Getting started with schemas']) {
      const items = await realIndex.search(query, 5);
      expect(items.length).toBeGreaterThan(0);
      expectRanked(items);
    }
  });

  test('close() while a search waits for its turn: the search finishes, later searches are refused', async () => {
    const other = await openCorpusIndex(sample.dbPath, '/');
    const running = other.search('apples', 5);
    other.close();
    expect((await running)[0]?.id).toBe('docs/fruit.md#apples:1');
    await expect(other.search('apples', 5)).rejects.toThrow('The index is closed.');
  });

  test('opens the file read-only', async () => {
    const db = await openSqlite(sample.dbPath, { readonly: true });
    expect(() => db.exec("INSERT INTO corpus_meta VALUES ('x', 'y')")).toThrow();
    db.close();
  });

  test('throws CorpusError index-unreadable for a missing file and for a file corpus index did not make', async () => {
    const missing = await openCorpusIndex(join(sample.dir, 'nope.sqlite'), '/').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CorpusError);
    expect(missing).toMatchObject({ kind: 'index-unreadable' });
    const other = join(sample.dir, 'other.sqlite');
    const db = await openSqlite(other, { readonly: false });
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(await openCorpusIndex(other, '/').catch((e: unknown) => e)).toMatchObject({ kind: 'index-unreadable' });
    writeFileSync(join(sample.dir, 'text.sqlite'), 'not a database');
    expect(await openCorpusIndex(join(sample.dir, 'text.sqlite'), '/').catch((e: unknown) => e)).toMatchObject({ kind: 'index-unreadable' });
  });
});
