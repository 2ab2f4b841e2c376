import { expect, test } from 'bun:test';
import { CallIdMemory } from '../../../src/gateway/session/call-id-memory.ts';

test('CallIdMemory.seen() reports repeats among the last 500 ids and forgets older ones', () => {
  const memory = new CallIdMemory();
  expect(memory.seen('c0')).toBe(false);
  expect(memory.seen('c0')).toBe(true);
  for (let index = 1; index <= 500; index++) memory.seen(`c${index}`);
  expect(memory.seen('c0')).toBe(false);
  expect(memory.seen('c500')).toBe(true);
});
