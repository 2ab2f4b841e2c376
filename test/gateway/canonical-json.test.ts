import { expect, test } from 'bun:test';
import { canonicalJson, canonicalSha256 } from '../../src/gateway/canonical-json.ts';

test('canonicalJson() sorts keys recursively so reordered objects are equal', () => {
  const a = { b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' }, '10': 0, '2': 0 };
  const b = { '2': 0, a: { c: 'x', d: [1, { y: 2, z: 1 }] }, '10': 0, b: 1 };
  expect(canonicalJson(a)).toBe('{"10":0,"2":0,"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  expect(canonicalJson(b)).toBe(canonicalJson(a));
  expect(canonicalSha256(a)).toBe(canonicalSha256(b));
  expect(canonicalSha256(a)).toMatch(/^[0-9a-f]{64}$/);
});

test('canonicalJson() drops undefined members like JSON.stringify and keeps array holes as null', () => {
  expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  expect(canonicalJson('<x>')).toBe('"<x>"');
  expect(canonicalJson(null)).toBe('null');
});
