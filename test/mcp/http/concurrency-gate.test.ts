// ConcurrencyGate: the --max-concurrency count of remote.md §1.5 step 4.
import { describe, expect, test } from 'bun:test';
import { ConcurrencyGate } from '../../../src/mcp/http/concurrency-gate.ts';

describe('ConcurrencyGate', () => {
  test('admits up to the limit, refuses beyond it, and admits again after leave()', () => {
    const gate = new ConcurrencyGate(2);
    expect([gate.tryEnter(), gate.tryEnter(), gate.tryEnter()]).toEqual([true, true, false]);
    expect(gate.active).toBe(2);
    gate.leave();
    expect(gate.tryEnter()).toBe(true);
  });

  test('whenIdle() resolves at once when idle, else when the last request leaves', async () => {
    const gate = new ConcurrencyGate(1);
    await gate.whenIdle();
    gate.tryEnter();
    let idle = false;
    const waiting = gate.whenIdle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    gate.leave();
    await waiting;
    expect(idle).toBe(true);
  });

  test('refuses a limit that is not a positive integer', () => {
    expect(() => new ConcurrencyGate(0)).toThrow(RangeError);
    expect(() => new ConcurrencyGate(1.5)).toThrow(RangeError);
  });
});
