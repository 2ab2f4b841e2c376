import { describe, expect, test } from 'bun:test';
import { lightStem, rerank } from '../../../src/corpus/serve/rerank.ts';

function row(rowid: number, uri: string, content: string, rank: number) {
  return { rowid, uri, title: '', content, rank };
}

describe('rerank()', () => {
  test('a chunk holding more of the query words moves above one with a better bm25 holding fewer', () => {
    const ranked = rerank([row(1, 'a.md', 'stash stash stash', -10), row(2, 'b.md', 'stash the changes away', -7)], ['stash', 'changes', 'away']);
    expect(ranked.map((entry) => entry.rowid)).toEqual([2, 1]);
  });

  test('words standing together win over the same words spread out', () => {
    const spread = `undo ${'filler '.repeat(50)} commit`;
    const ranked = rerank([row(1, 'a.md', spread, -5), row(2, 'b.md', 'undo commit', -5)], ['undo', 'commit']);
    expect(ranked.map((entry) => entry.rowid)).toEqual([2, 1]);
  });

  test("a file's second chunk drops below another file's first, and values stay ordered", () => {
    const ranked = rerank([row(1, 'a.md#x', 'word', -10), row(2, 'a.md#y', 'word', -9), row(3, 'b.md', 'word', -6)], ['word']);
    expect(ranked.map((entry) => entry.rowid)).toEqual([1, 3, 2]);
    for (let index = 1; index < ranked.length; index++) expect(ranked[index - 1]!.rank).toBeLessThanOrEqual(ranked[index]!.rank);
  });
});

describe('lightStem()', () => {
  test('meets the forms of one word', () => {
    expect(new Set(['installs', 'installing', 'installed'].map(lightStem))).toEqual(new Set(['install']));
  });
});
