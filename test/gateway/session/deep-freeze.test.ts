import { expect, test } from 'bun:test';
import { frozenClone } from '../../../src/gateway/session/deep-freeze.ts';

test('frozenClone() returns a deep copy in which nothing can change', () => {
  const original = { title: 't', labels: ['a'], nested: { n: 1 } };
  const frozen = frozenClone(original);
  original.labels.push('b');
  expect(frozen).toEqual({ title: 't', labels: ['a'], nested: { n: 1 } });
  expect(Object.isFrozen(frozen) && Object.isFrozen(frozen.labels) && Object.isFrozen(frozen.nested)).toBe(true);
  expect(() => {
    'use strict';
    (frozen.nested as { n: number }).n = 2;
  }).toThrow();
});
