import { expect, test } from 'bun:test';
import { buildToolCandidates, normalizeInputSchema, toolDescription } from '../../../src/gateway/discovery/build-tool-candidates.ts';
import { readOnlyPolicy, server, writablePolicy } from '../gateway-fixtures.ts';

const URL = 'https://mcp.example.com/mcp';

test('buildToolCandidates() exposes only enabled policies, in configuration order, configured description first', () => {
  const config = server('documents', URL, {
    write: writablePolicy(),
    search: readOnlyPolicy({ description: 'Configured search.' }),
    off: readOnlyPolicy({ enabled: false }),
  });
  const remote = [
    { name: 'search', description: 'Remote search.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    { name: 'write', description: 'Remote\n write.', inputSchema: { properties: {} } },
    { name: 'off' },
    { name: 'hidden' },
  ];
  const candidates = buildToolCandidates(config, remote);
  expect(candidates.map((tool) => [tool.remoteName, tool.description])).toEqual([
    ['write', 'Remote write.'],
    ['search', 'Configured search.'],
  ]);
  expect(candidates[0]?.parameters).toEqual({ type: 'object', properties: {} });
  expect(candidates[1]?.policy).toEqual({ mode: 'inline', readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2 });
});

test('buildToolCandidates() fails when an enabled tool is missing remotely', () => {
  expect(() => buildToolCandidates(server('documents', URL, { search: readOnlyPolicy() }), [{ name: 'other' }])).toThrow('Enabled Frontend MCP tool is missing: documents/search');
});

test('buildToolCandidates() fails when annotations contradict readOnly, and lets them tighten otherwise', () => {
  const config = server('documents', URL, { search: readOnlyPolicy() });
  const message = 'Frontend MCP tool annotations contradict readOnly: documents/search';
  expect(() => buildToolCandidates(config, [{ name: 'search', annotations: { readOnlyHint: false } }])).toThrow(message);
  expect(() => buildToolCandidates(config, [{ name: 'search', annotations: { destructiveHint: true } }])).toThrow(message);
  expect(buildToolCandidates(config, [{ name: 'search', annotations: { readOnlyHint: true } }])[0]?.annotations).toEqual({ readOnlyHint: true });
  const writable = server('documents', URL, { create: writablePolicy() });
  expect(buildToolCandidates(writable, [{ name: 'create', annotations: { readOnlyHint: true } }])).toHaveLength(1);
});

test('buildToolCandidates() fails on a schema that is not an object or too large', () => {
  const config = server('documents', URL, { search: readOnlyPolicy() });
  expect(() => buildToolCandidates(config, [{ name: 'search', inputSchema: { type: 'string' } }])).toThrow('Frontend MCP tool input schema must describe an object.');
  expect(() => buildToolCandidates(config, [{ name: 'search', inputSchema: { type: 'object', d: 'x'.repeat(17000) } }])).toThrow('Frontend MCP tool input schema exceeds the limit.');
});

test('toolDescription() prefers the configured description', () => {
  expect(toolDescription('Configured.', 'Remote.', 's/t', true)).toBe('Configured.');
});

test('toolDescription() collapses whitespace of the remote one and cuts it to 1200 code points', () => {
  expect(toolDescription(undefined, '  Find\n\tthings   now ', 's/t', true)).toBe('Find things now');
  expect(Array.from(toolDescription(undefined, '😀'.repeat(1300), 's/t', true))).toHaveLength(1200);
});

test('toolDescription() falls back to a text that says whether the tool writes', () => {
  expect(toolDescription(undefined, '   ', 'documents/search', true)).toBe('User-enabled read-only MCP tool documents/search.');
  expect(toolDescription(undefined, 5, 'documents/create_issue', false)).toBe('User-enabled MCP tool documents/create_issue; it changes an external system and requires user approval.');
});

test('normalizeInputSchema() replaces a non-object or an array with an empty object schema', () => {
  for (const schema of [undefined, null, 'x', [], 3]) expect(normalizeInputSchema(schema)).toEqual({ type: 'object', properties: {} });
});

test('normalizeInputSchema() adds a missing type and deep-clones the schema', () => {
  const schema = { properties: { q: { type: 'string' } }, $ref: '#/x' };
  const result = normalizeInputSchema(schema);
  expect(result).toEqual({ type: 'object', properties: { q: { type: 'string' } }, $ref: '#/x' });
  (result['properties'] as Record<string, unknown>)['q'] = 0;
  expect(schema.properties.q).toEqual({ type: 'string' });
});

test('normalizeInputSchema() rejects another type and schemas over 16384 bytes', () => {
  expect(() => normalizeInputSchema({ type: 'array' })).toThrow('Frontend MCP tool input schema must describe an object.');
  const big = { type: 'object', description: '界'.repeat(5500) };
  expect(() => normalizeInputSchema(big)).toThrow('Frontend MCP tool input schema exceeds the limit.');
  const fits = { type: 'object', d: 'x'.repeat(16384 - 30) };
  expect(JSON.stringify(fits).length).toBeLessThanOrEqual(16384);
  expect(normalizeInputSchema(fits)).toEqual(fits);
});
