// The in-flight budget of POSTs without requests (frontend-mcp.md §3.1).
import { expect, test } from 'bun:test';
import { MAX_NOTIFICATIONS_IN_FLIGHT, MAX_REPLIES_IN_FLIGHT, messageGate, messagePostKind } from '../../../src/gateway/discovery/message-gate.ts';

test('messagePostKind() tells replies, refusals and notifications apart', () => {
  expect(messagePostKind([{ method: 'notifications/cancelled' }])).toBe('notification');
  expect(messagePostKind([{ error: { code: -32601 } }])).toBe('refusal');
  expect(messagePostKind([{ error: { code: -32603 } }])).toBe('reply');
  expect(messagePostKind([{}])).toBe('reply');
  expect(messagePostKind([{ error: { code: -32601 } }, { method: 'notifications/cancelled' }])).toBe('reply');
});

test('messageGate() admits MAX_REPLIES_IN_FLIGHT replies, drops the next, and admits again once one is released', () => {
  const gate = messageGate();
  const slots = Array.from({ length: MAX_REPLIES_IN_FLIGHT }, () => gate.admit('reply'));
  expect(slots.every((slot) => slot !== undefined)).toBe(true);
  expect(gate.admit('reply')).toBeUndefined();
  slots[0]?.();
  slots[0]?.();
  expect(gate.admit('reply')).toBeDefined();
  expect(gate.admit('reply')).toBeUndefined();
});

test("messageGate() keeps separate budgets: a reply flood never crowds out the gateway's own notifications", () => {
  const gate = messageGate();
  for (let i = 0; i < MAX_REPLIES_IN_FLIGHT; i++) gate.admit('reply');
  for (let i = 0; i < MAX_NOTIFICATIONS_IN_FLIGHT; i++) expect(gate.admit('notification')).toBeDefined();
  expect(gate.admit('notification')).toBeUndefined();
});

test('messageGate() never admits a refusal', () => {
  expect(messageGate().admit('refusal')).toBeUndefined();
});
