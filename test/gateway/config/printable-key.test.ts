import { expect, test } from 'bun:test';
import { printableKeyOrMark } from '../../../src/gateway/config/printable-key.ts';

test('printableKeyOrMark() keeps printable ASCII up to 64 characters and prints anything else as ?', () => {
  expect(printableKeyOrMark('documents')).toBe('documents');
  expect(printableKeyOrMark('a'.repeat(64))).toBe('a'.repeat(64));
  expect(printableKeyOrMark('a'.repeat(65))).toBe('?');
  expect(printableKeyOrMark('caf\u00e9')).toBe('?');
  expect(printableKeyOrMark('x\ny')).toBe('?');
});
