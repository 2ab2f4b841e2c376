import { describe, expect, test } from 'bun:test';
import { bm25Score } from '../../../src/corpus/serve/bm25-score.ts';

describe('bm25Score()', () => {
  test('maps b < 0 to (-b) / (1 - b)', () => {
    expect(bm25Score(-1)).toBe(0.5);
    expect(bm25Score(-3)).toBe(0.75);
  });

  test('is 0 for b >= 0 and for NaN', () => {
    expect(bm25Score(0)).toBe(0);
    expect(bm25Score(2)).toBe(0);
    expect(bm25Score(Number.NaN)).toBe(0);
  });

  test('grows with relevance and stays below 1 even when the quotient rounds to 1', () => {
    expect(bm25Score(-2)).toBeGreaterThan(bm25Score(-1));
    expect(bm25Score(-1e20)).toBeLessThan(1);
    expect(bm25Score(Number.NEGATIVE_INFINITY)).toBeLessThan(1);
  });
});
