import { describe, expect, test } from 'bun:test';
import { MAX_QUERY_WORDS, queryWords, wordExpression } from '../../../src/corpus/serve/query-terms.ts';

describe('queryWords()', () => {
  test('keeps each word once in query order, without stop words', () => {
    expect(queryWords('How do I undo the last Commit, commit?').map((word) => word.key)).toEqual(['undo', 'last', 'commit']);
  });

  test('a query of stop words or punctuation has no word', () => {
    expect(queryWords('the of and how to')).toEqual([]);
    expect(queryWords('"()*:^')).toEqual([]);
  });

  test('keeps at most MAX_QUERY_WORDS words', () => {
    expect(queryWords(Array.from({ length: 40 }, (_, index) => `w${index}`).join(' '))).toHaveLength(MAX_QUERY_WORDS);
  });
});

describe('wordExpression()', () => {
  test('quotes a word, and a camelCase word also as the phrase of its parts', () => {
    const [plain, camel] = queryWords('stash renderExternalContext');
    expect(wordExpression(plain!)).toBe('"stash"');
    expect(wordExpression(camel!)).toBe('("renderExternalContext" OR "render External Context")');
  });
});
