import { expect, test } from 'bun:test';
import { isPlainObject } from '../../src/gateway/plain-object.ts';

test('isPlainObject() accepts JSON objects and null-prototype objects only', () => {
  expect(isPlainObject({})).toBe(true);
  expect(isPlainObject(JSON.parse('{"__proto__":1}'))).toBe(true);
  expect(isPlainObject(Object.create(null))).toBe(true);
  for (const value of [null, [], 'x', 1, new Date(), new Map()]) expect(isPlainObject(value)).toBe(false);
});
