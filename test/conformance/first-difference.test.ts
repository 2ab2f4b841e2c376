// firstDifference(): where two JSON values first differ.
import { describe, expect, test } from 'bun:test';
import { firstDifference } from '../../src/conformance/first-difference.ts';

describe('firstDifference()', () => {
  test('undefined for deep-equal values, whatever the key order', () => {
    expect(firstDifference({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] })).toBeUndefined();
  });

  test('a JSON Pointer to the first difference, keys compared in sorted order', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe('/b');
    expect(firstDifference({ a: 1 }, { a: 1, z: 2 })).toBe('/z');
    expect(firstDifference([1, 2], [1, 2, 3])).toBe('/2');
    expect(firstDifference({ 'a/b': { '~': 1 } }, { 'a/b': { '~': 2 } })).toBe('/a~1b/~0');
    expect(firstDifference({ x: [] }, { x: {} })).toBe('/x');
    expect(firstDifference(0, -0)).toBe('');
  });
});
