import { expect, test } from 'bun:test';
import { finalizeTool, type ToolCandidate } from '../../src/gateway/gateway-tool.ts';

const CANDIDATE: ToolCandidate = {
  serverKey: 'documents',
  remoteName: 'search',
  description: 'Search.',
  parameters: { type: 'object', properties: {} },
  policy: { mode: 'inline', readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2 },
};

test('finalizeTool() builds the function definition and a digest that changes with the definition', () => {
  const tool = finalizeTool(CANDIDATE, 'mcp__documents__search');
  expect(tool.definition).toEqual({ type: 'function', function: { name: 'mcp__documents__search', description: 'Search.', parameters: { type: 'object', properties: {} } } });
  expect(tool.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(finalizeTool(CANDIDATE, 'mcp__documents__search').digest).toBe(tool.digest);
  expect(finalizeTool({ ...CANDIDATE, parameters: { type: 'object', properties: { q: {} } } }, 'mcp__documents__search').digest).not.toBe(tool.digest);
  expect(finalizeTool({ ...CANDIDATE, annotations: { readOnlyHint: true } }, 'mcp__documents__search').annotations).toEqual({ readOnlyHint: true });
});
