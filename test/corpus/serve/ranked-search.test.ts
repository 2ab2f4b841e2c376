// The format 2 ranking through openCorpusIndex (docs/design/providers.md §8.2): minimum evidence,
// identifiers, file names, and format 1 files still searched the way they were built for.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { buildIndex } from '../../../src/corpus/index/build-index.ts';
import { openCorpusIndex, type CorpusIndex } from '../../../src/corpus/serve/corpus-index.ts';
import { MAX_RANKED_MATCHES } from '../../../src/corpus/serve/ranked-search.ts';
import { indexSample, type IndexedCorpus } from '../sample-corpus.ts';

const FILES = {
  'docs/guide.md': '# Guide\n\n## Bounding\n\nThe renderExternalContext function cuts the items.\n\n## Wibble\n\nA wibble appears here once.',
  'docs/stash-notes.md': '# Notes\n\nShelve work in progress for later.',
  'docs/commit.md': '# Commit\n\nRecord changes. Record record record.',
  'docs/more.md': '# More\n\nRecord the changes to the repository with a message.',
};
let sample: IndexedCorpus;
let index: CorpusIndex;
let previous: CorpusIndex;

beforeAll(async () => {
  sample = await indexSample(FILES);
  index = await openCorpusIndex(sample.dbPath, '/');
  const old = join(sample.dir, 'previous.sqlite');
  await buildIndex(['.'], old, join(sample.dir, 'input'), { onSkip: () => {}, onProgress: () => {} }, {}, 'previous');
  previous = await openCorpusIndex(old, '/');
});
afterAll(() => {
  index.close();
  previous.close();
  sample.remove();
});

describe('the corpus ranking (format 2)', () => {
  test('a nonsense query gets no item, even when one of its words occurs by chance', async () => {
    expect(await index.search('zxqv blorft wibble', 5)).toEqual([]);
    expect(await index.search('the of and how to', 5)).toEqual([]);
    // One unknown word of two still searches.
    expect((await index.search('wibble blorft', 5)).map((item) => item.uri)).toEqual(['docs/guide.md#wibble']);
  });

  test('the parts of a camelCase identifier find it, and so does the identifier', async () => {
    expect((await index.search('render external context', 5))[0]?.uri).toBe('docs/guide.md#bounding');
    expect((await index.search('renderExternalContext', 5))[0]?.uri).toBe('docs/guide.md#bounding');
  });

  test('a word of the file name finds the file', async () => {
    expect((await index.search('stash', 5)).map((item) => item.uri)).toEqual(['docs/stash-notes.md#notes']);
  });

  test('a chunk holding every word ranks above one repeating a single word', async () => {
    expect((await index.search('record changes repository message', 5))[0]?.uri).toBe('docs/more.md#more');
  });

  test('a format 1 index is still searched with OR-joined tokens and plain bm25', async () => {
    expect((await previous.search('zxqv blorft wibble', 5)).map((item) => item.uri)).toEqual(['docs/guide.md#wibble']);
    expect(await previous.search('render external context', 5)).toEqual([]);
  });
});

describe('the corpus ranking bounds its work', () => {
  let big: IndexedCorpus;
  let bigIndex: CorpusIndex;
  beforeAll(async () => {
    // The best chunk for "common" comes first in index order, then MAX_RANKED_MATCHES + 10 more.
    const sections = [
      '## Best\n\ncommon common common common',
      ...Array.from({ length: MAX_RANKED_MATCHES + 10 }, (_, index) => `## S${index}\n\ncommon filler text number ${index}${index === 100 ? ' rare' : ''}`),
    ];
    big = await indexSample({ 'docs/a.md': `# A\n\n${sections.join('\n\n')}` });
    bigIndex = await openCorpusIndex(big.dbPath, '/');
  });
  afterAll(() => {
    bigIndex.close();
    big.remove();
  });

  test('a query of common words ranks only the last MAX_RANKED_MATCHES matches in index order', async () => {
    const items = await bigIndex.search('common', 5);
    expect(items).toHaveLength(5);
    expect(items.map((item) => item.uri)).not.toContain('docs/a.md#best');
  });

  test('a rare word beside a common one is found through the AND pass', async () => {
    expect((await bigIndex.search('common rare', 5))[0]?.content).toContain('number 100 rare');
  });
});
