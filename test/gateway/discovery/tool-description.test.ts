import { expect, test } from 'bun:test';
import { toolDescription } from '../../../src/gateway/discovery/tool-description.ts';

test('toolDescription() prefers the configured description', () => {
  expect(toolDescription('Configured.', 'Remote.', 's/t', true)).toBe('Configured.');
});

test('toolDescription() collapses whitespace of the remote one and cuts it to 1200 code points', () => {
  expect(toolDescription(undefined, '  Find\n\tthings   now ', 's/t', true)).toBe('Find things now');
  expect(Array.from(toolDescription(undefined, '😀'.repeat(1300), 's/t', true))).toHaveLength(1200);
});

test('toolDescription() falls back to a text that says whether the tool writes', () => {
  expect(toolDescription(undefined, '   ', 'documents/search', true)).toBe('User-enabled read-only MCP tool documents/search.');
  expect(toolDescription(undefined, 5, 'documents/create_issue', false)).toBe(
    'User-enabled MCP tool documents/create_issue; it changes an external system and requires user approval.',
  );
});
