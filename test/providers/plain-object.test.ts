// isPlainObject(): JSON objects only (providers.md §2, §6).
import { expect, test } from 'bun:test';
import { isPlainObject } from '../../src/providers/plain-object.ts';

test('isPlainObject() accepts JSON objects and rejects arrays, null and primitives', () => {
  expect(isPlainObject({})).toBe(true);
  expect(isPlainObject(JSON.parse('{"results":[]}'))).toBe(true);
  for (const value of [[], null, undefined, 'x', 1, true]) expect(isPlainObject(value)).toBe(false);
});
