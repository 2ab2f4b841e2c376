import { expect, test } from 'bun:test';
import { policyInteger } from '../../../src/gateway/config/policy-integer.ts';

test('policyInteger() returns the default when absent and accepts both bounds', () => {
  expect(policyInteger(undefined, 1, 4, 2)).toBe(2);
  expect(policyInteger(1, 1, 4, 2)).toBe(1);
  expect(policyInteger(4, 1, 4, 2)).toBe(4);
});

test('policyInteger() never coerces strings, booleans, fractions or null', () => {
  for (const value of ['3', true, 2.5, null, Number.NaN, 5, 0]) {
    expect(() => policyInteger(value, 1, 4, 2)).toThrow('Frontend MCP policy value must be 1-4.');
  }
});
