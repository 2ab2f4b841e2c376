import { expect, test } from 'bun:test';
import { validateToolPolicy } from '../../../src/gateway/config/validate-tool-policy.ts';

test('validateToolPolicy() applies defaults to an enabled read-only tool', () => {
  expect(validateToolPolicy('s', 'search', { enabled: true, readOnly: true })).toEqual({
    enabled: true, readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2,
  });
});

test('validateToolPolicy() treats a disabled policy without readOnly as writable and disabled', () => {
  expect(validateToolPolicy('s', 't', {})).toMatchObject({ enabled: false, readOnly: false, approval: 'none' });
});

test('validateToolPolicy() checks readOnly before approval, and approval before limits', () => {
  expect(() => validateToolPolicy('s', 't', { enabled: true, approval: 'bad', timeoutMs: 1 })).toThrow('Enabled Frontend MCP tools must explicitly declare readOnly.');
  expect(() => validateToolPolicy('s', 't', { enabled: true, readOnly: true, approval: 'bad', timeoutMs: 1 })).toThrow('Frontend MCP tool approval must be');
});
