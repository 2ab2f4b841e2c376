import { createHash } from 'node:crypto';
import { expect, test } from 'bun:test';
import { baseToolName, hashedToolName, isPlainToolName } from '../../../src/gateway/discovery/tool-name.ts';

test('baseToolName() builds mcp__<server>__<tool> and isPlainToolName() accepts it up to 64 characters', () => {
  expect(baseToolName('documents', 'search')).toBe('mcp__documents__search');
  expect(isPlainToolName('mcp__documents__search')).toBe(true);
  expect(isPlainToolName(`mcp__d__${'x'.repeat(56)}`)).toBe(true);
  expect(isPlainToolName(`mcp__d__${'x'.repeat(57)}`)).toBe(false);
  expect(isPlainToolName('mcp__d__a.b')).toBe(false);
});

test('hashedToolName() sanitizes, cuts to 55 and appends 8 hex of SHA-256(server NUL tool)', () => {
  const digest = createHash('sha256').update('documents\u0000files/search.v2').digest('hex').slice(0, 8);
  expect(hashedToolName('documents', 'files/search.v2')).toBe(`mcp__documents__files_search_v2_${digest}`);
  const long = hashedToolName('documents', 'x'.repeat(128));
  expect(long).toHaveLength(64);
  expect(long).toMatch(/^[A-Za-z0-9_-]{55}_[0-9a-f]{8}$/);
  expect(hashedToolName('documents', 'x'.repeat(128))).toBe(long);
});
