import { describe, expect, test } from 'bun:test';
import { buildFtsQuery } from '../../../src/corpus/serve/fts-query.ts';

describe('buildFtsQuery()', () => {
  test('quotes each run of letters and digits and joins them with OR', () => {
    expect(buildFtsQuery('How do I install v2?')).toBe('"How" OR "do" OR "I" OR "install" OR "v2"');
  });

  test('never passes FTS5 syntax through: operators become plain quoted words', () => {
    expect(buildFtsQuery('title:"a" AND NOT b* NEAR(c d) ^e -f +g')).toBe('"title" OR "a" OR "AND" OR "NOT" OR "b" OR "NEAR" OR "c" OR "d" OR "e" OR "f" OR "g"');
  });

  test('keeps a token once whatever its letter case, and handles non-Latin scripts', () => {
    expect(buildFtsQuery('Zoë zoë ZOË 東京 ٣')).toBe('"Zoë" OR "東京" OR "٣"');
  });

  test('returns undefined for a query without a token', () => {
    expect(buildFtsQuery('"*()^:-+ ... ""')).toBeUndefined();
  });
});
