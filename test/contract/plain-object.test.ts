// isPlainRecord(): the object check every contract validator starts from.
import { describe, expect, test } from 'bun:test';
import { isPlainRecord } from '../../src/contract/plain-object.ts';

describe('isPlainRecord()', () => {
  test('accepts objects, including those without a prototype', () => {
    expect(isPlainRecord({})).toBe(true);
    expect(isPlainRecord({ query: 'x' })).toBe(true);
    expect(isPlainRecord(Object.create(null))).toBe(true);
  });

  test('rejects null, arrays and primitives (the non-object tools/call arguments)', () => {
    for (const value of [null, undefined, [], ['query'], 42, 'policy', true]) expect(isPlainRecord(value)).toBe(false);
  });
});
