// isPlainObject(): the one "is this a JSON object" test of src/ (config, contract, providers, hooks,
// gateway, probe, conformance).
import { expect, test } from 'bun:test';
import { isPlainObject } from '../../src/util/plain-object.ts';

test('isPlainObject() accepts JSON objects and null-prototype objects only', () => {
  expect(isPlainObject({})).toBe(true);
  expect(isPlainObject(JSON.parse('{"__proto__":1}'))).toBe(true);
  expect(isPlainObject(Object.create(null))).toBe(true);
  expect(isPlainObject(JSON.parse('{"__proto__":{}}'))).toBe(true);
  for (const value of [null, [], 'x', 1, new Date(), new Map(), Object.create({})]) expect(isPlainObject(value)).toBe(false);
});

test('isPlainObject() accepts tool arguments and parsed provider answers, including objects without a prototype', () => {
  expect(isPlainObject({ query: 'x' })).toBe(true);
  expect(isPlainObject(JSON.parse('{"results":[]}'))).toBe(true);
  expect(isPlainObject(Object.create(null))).toBe(true);
});

test('isPlainObject() rejects null, undefined, arrays and primitives (the non-object tools/call arguments)', () => {
  for (const value of [null, undefined, [], ['query'], 42, 'policy', true, 'x', 1]) expect(isPlainObject(value)).toBe(false);
});
