import { expect, test } from 'bun:test';
import { TurnLedger } from '../../../src/gateway/session/turn-ledger.ts';

test('TurnLedger.begin() aborts the previous turn and advances the sequence', () => {
  const ledger = new TurnLedger();
  const first = ledger.begin('t1', '  hello  ');
  const signal = first.controller.signal;
  expect(first).toMatchObject({ id: 't1', sequence: 1, userText: 'hello' });
  const second = ledger.begin('t2', '');
  expect(signal.aborted).toBe(true);
  expect(second.sequence).toBe(2);
  expect(ledger.current).toBe(second);
});

test('TurnLedger.admit() reports duplicates first, then the window, total and per-tool limits', () => {
  const ledger = new TurnLedger();
  const turn = ledger.begin('t', 'x');
  expect(ledger.admit(turn, 'a', '{}', 1, 0)).toBe('admitted');
  expect(ledger.admit(turn, 'a', '{}', 1, 0)).toBe('duplicate');
  expect(ledger.admit(turn, 'a', '{"x":1}', 1, 0)).toBe('limit');
  for (let index = 0; index < 11; index++) expect(ledger.admit(turn, `t${index}`, '{}', 4, 1000)).toBe('admitted');
  expect(ledger.admit(turn, 'z', '{}', 4, 1000)).toBe('limit');
  const windowed = ledger.begin('w', 'x');
  expect(ledger.admit(windowed, 'a', '{}', 4, 0)).toBe('admitted');
  expect(ledger.admit(windowed, 'a', '{"n":1}', 4, 30000)).toBe('admitted');
  expect(ledger.admit(windowed, 'a', '{"n":2}', 4, 30001)).toBe('limit');
});

test('TurnLedger keeps the budget of a re-begun turn id and abortCurrent() renews the signal', () => {
  const ledger = new TurnLedger();
  const turn = ledger.begin('t', 'x');
  ledger.admit(turn, 'a', '{}', 1, 0);
  ledger.begin('u', 'y');
  const again = ledger.begin('t', 'z');
  expect(ledger.admit(again, 'a', '{"k":1}', 1, 0)).toBe('limit');
  const before = again.controller.signal;
  ledger.abortCurrent();
  expect(before.aborted).toBe(true);
  expect(again.controller.signal.aborted).toBe(false);
});
