// pickSearchSchema(): which declared search model the probe reports (probe.md §2 step 1).
import { describe, expect, test } from 'bun:test';
import { pickSearchSchema } from '../../src/probe/declared-schema.ts';

const KEY = 'sk-test-credential';
const doc = (schemas: unknown): unknown => ({ openapi: '3.1.0', components: { schemas } });

describe('pickSearchSchema()', () => {
  test('SearchRequest first, fields in document order, additionalProperties raw or unset', () => {
    expect(pickSearchSchema(doc({ SearchRequest: { properties: { query: {}, top_k: {} }, additionalProperties: false } }), KEY)).toEqual({
      served: true,
      name: 'SearchRequest',
      fields: ['query', 'top_k'],
      additionalProperties: false,
    });
    const unset = pickSearchSchema(doc({ SearchRequest: { properties: {} }, SearchMemoryRequest: { properties: { x: {} } } }), KEY);
    expect(unset).toEqual({ served: true, name: 'SearchRequest', fields: [], additionalProperties: undefined });
  });

  test('falls back to SearchMemoryRequest; anything else is not served', () => {
    expect(pickSearchSchema(doc({ SearchMemoryRequest: { properties: { q: {} }, additionalProperties: null } }), KEY)).toEqual({
      served: true,
      name: 'SearchMemoryRequest',
      fields: ['q'],
      additionalProperties: null,
    });
    for (const value of [null, [], 'x', {}, { components: [] }, doc([]), doc({ SearchRequest: [] }), doc({ Other: { properties: {} } })]) {
      expect(pickSearchSchema(value, KEY)).toEqual({ served: false, status: undefined });
    }
  });

  test('keys inherited through the prototype are never read', () => {
    const schemas = Object.create({ SearchRequest: { properties: { leaked: {} } } }) as object;
    expect(pickSearchSchema(doc(schemas), KEY)).toEqual({ served: false, status: undefined });
  });

  test('the credential and control characters are removed from names and from additionalProperties', () => {
    const result = pickSearchSchema(doc({ SearchRequest: { properties: { 'a\u001bb': {}, 'sk-1': {} }, additionalProperties: { 'sk-1': ['sk-1\u202e'] } } }), 'sk-1');
    expect(result).toEqual({ served: true, name: 'SearchRequest', fields: ['ab', '[redacted]'], additionalProperties: { '[redacted]': ['[redacted]'] } });
  });
});
