// findDuplicateKey()/formatFieldPath() (config.md §3 step 4): a key repeated in one object, at
// any depth, compared after unescaping; keys inside strings are not keys.
import { describe, expect, test } from 'bun:test';
import { findDuplicateKey, formatFieldPath } from '../../src/config/duplicate-keys.ts';

describe('findDuplicateKey()', () => {
  test('returns undefined when every object has distinct keys, also for equal keys in different objects', () => {
    for (const text of ['{}', '[]', '1', '"a"', '{"a":1,"b":{"a":1}}', '[{"a":1},{"a":2}]', '{"s":"{\\"a\\":1,\\"a\\":1}"}']) {
      expect(findDuplicateKey(text)).toBeUndefined();
    }
  });

  test('returns the path of the first repeated key, with array indexes, after unescaping', () => {
    expect(findDuplicateKey('{"a":1,"a":2}')).toEqual(['a']);
    expect(findDuplicateKey('{"provider":{"type":"x"},"version":1,"provider":{}}')).toEqual(['provider']);
    expect(findDuplicateKey('{"a":{"b":1,"c":[{"x":1},{"x":1,"y":{"q":1,"\\u0071":3}}]}}')).toEqual(['a', 'c', 1, 'y', 'q']);
    expect(findDuplicateKey('[1,{"k":"\\"k\\"","k":2}]')).toEqual([1, 'k']);
  });

  test('formatFieldPath() joins keys with dots and indexes as numbers, each key through showKey', () => {
    expect(formatFieldPath(['a', 'c', 1, 'y', 'q'], (key) => key)).toBe('a.c.1.y.q');
    expect(formatFieldPath([0, 'k'], (key) => key)).toBe('0.k');
    expect(formatFieldPath(['env', 'bad\u0000key'], (key) => (/^[a-z]+$/.test(key) ? key : '?'))).toBe('env.?');
  });
});
