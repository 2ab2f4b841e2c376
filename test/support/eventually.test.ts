// eventually() (test/support/eventually.ts): waits for a condition, and names it when the
// deadline passes.
import { expect, test } from 'bun:test';
import { EVENTUALLY_DEADLINE_MS, eventually } from './eventually.ts';
import { LIVENESS_MS } from './liveness.ts';

test('eventually() resolves once the predicate holds', async () => {
  let calls = 0;
  await eventually(() => (calls += 1) >= 3, 'the third call');
  expect(calls).toBe(3);
});

test('eventually() rejects after its deadline, naming what it waited for', async () => {
  await expect(eventually(() => false, 'the impossible', 20)).rejects.toThrow('eventually: the impossible did not happen within 20 ms.');
});

test('eventually() defaults to a generous deadline (a hang guard, not a timing target)', () => {
  expect(EVENTUALLY_DEADLINE_MS).toBe(LIVENESS_MS);
});
