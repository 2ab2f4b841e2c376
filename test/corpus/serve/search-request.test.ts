import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { SearchRequestSchema } from '../../../src/corpus/serve/search-request.ts';

const valid = (body: unknown): boolean => v.safeParse(SearchRequestSchema, body).success;

describe('SearchRequestSchema', () => {
  test('accepts a query of 1 and of 2000 code points (astral ones count once) with a limit of 1 to 5', () => {
    expect(valid({ query: 'x', limit: 1 })).toBe(true);
    expect(valid({ query: '😀'.repeat(2000), limit: 5 })).toBe(true);
  });

  test('rejects 2001 code points, an empty or whitespace-only query and a non-string query', () => {
    expect(valid({ query: 'x'.repeat(2001), limit: 1 })).toBe(false);
    expect(valid({ query: '', limit: 1 })).toBe(false);
    expect(valid({ query: ' \t\n', limit: 1 })).toBe(false);
    expect(valid({ query: 1, limit: 1 })).toBe(false);
  });

  test('rejects limit 0, 6, 2.5, "3" and a missing limit', () => {
    for (const limit of [0, 6, 2.5, '3', undefined]) expect(valid({ query: 'x', limit })).toBe(false);
  });

  test('rejects extra fields, including __proto__ from JSON, and non-objects', () => {
    expect(valid({ query: 'x', limit: 1, filter: {} })).toBe(false);
    expect(valid(JSON.parse('{"query":"x","limit":1,"__proto__":{}}'))).toBe(false);
    expect(valid([])).toBe(false);
    expect(valid(null)).toBe(false);
  });
});
