import { expect, test } from 'bun:test';
import { displayKey } from '../../../src/gateway/config/display-key.ts';

test('displayKey() keeps printable ASCII up to 64 characters and prints anything else as ?', () => {
  expect(displayKey('documents')).toBe('documents');
  expect(displayKey('a'.repeat(64))).toBe('a'.repeat(64));
  expect(displayKey('a'.repeat(65))).toBe('?');
  expect(displayKey('caf\u00e9')).toBe('?');
  expect(displayKey('x\ny')).toBe('?');
});
