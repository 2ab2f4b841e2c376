// createTools(): context_search always comes first; a search-only binding exposes nothing else.
import { describe, expect, test } from 'bun:test';
import { createTools } from '../../src/mcp/tools.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { genericBinding, mem0Binding } from '../support/provider-bindings.ts';
import { TextLog } from './harness.ts';

describe('createTools()', () => {
  test('exposes exactly context_search for a Generic HTTP binding', () => {
    const binding = genericBinding('http://127.0.0.1:9');
    const tools = createTools(binding, createProvider(binding, { env: {} }), new TextLog().stream);
    expect(tools.map((tool) => tool.definition.name)).toEqual(['context_search']);
  });

  test('exposes exactly context_search for a Mem0 binding without writes', () => {
    const binding = mem0Binding('mem0-server-rest-2026-08', 'http://127.0.0.1:9', { userId: 'u' }, { writeEnabled: false });
    const tools = createTools(binding, createProvider(binding, { env: {} }), new TextLog().stream);
    expect(tools.map((tool) => tool.definition.name)).toEqual(['context_search']);
  });
});
