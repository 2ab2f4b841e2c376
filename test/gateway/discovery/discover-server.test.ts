// discoverServer()/relistServer() against real loopback MCP servers: budget, failures, closing.
import { afterEach, expect, test } from 'bun:test';
import { discoverServer, relistServer } from '../../../src/gateway/discovery/discover-server.ts';
import { FrontendMcpError } from '../../../src/gateway/frontend-mcp-error.ts';
import { readOnlyPolicy, server } from '../gateway-fixtures.ts';
import { startMcpServer, type TestServer } from '../mcp-test-server.ts';

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const noop = { onToolsChanged: () => {} };

test('discoverServer() connects, lists and returns the enabled tools', async () => {
  running = startMcpServer({ tools: [{ name: 'search' }, { name: 'other' }] });
  const found = await discoverServer(server('docs', running.url, { search: readOnlyPolicy() }), noop);
  expect(found.candidates.map((tool) => tool.remoteName)).toEqual(['search']);
  expect(running.received[0]?.['method']).toBe('initialize');
  expect((running.received[0]?.['params'] as { clientInfo: unknown }).clientInfo).toEqual({ name: 'external-context-gateway-docs', version: '0.1.0' });
  await found.connection.close();
  expect(found.connection.isClosed()).toBe(true);
});

test('discoverServer() times out a stalled tools/list with the exact message and cancels it', async () => {
  running = startMcpServer({ tools: [{ name: 'search' }], stallList: true });
  const config = server('slow', running.url, { search: readOnlyPolicy() }, { connectTimeoutMs: 200 });
  const error = await discoverServer(config, noop).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(FrontendMcpError);
  expect((error as Error).message).toBe('Frontend MCP discovery timed out: slow');
});

test('discoverServer() reports a refused connection with a fixed message, no upstream text', async () => {
  running = startMcpServer({ tools: [] });
  const url = running.url;
  await running.close();
  running = undefined;
  const error = await discoverServer(server('gone', url, { search: readOnlyPolicy() }), noop).catch((caught: unknown) => caught);
  expect((error as Error).message).toBe('Frontend MCP connection failed: gone');
});

test('discoverServer() reports a missing enabled tool as the server failure', async () => {
  running = startMcpServer({ tools: [{ name: 'other' }] });
  await expect(discoverServer(server('docs', running.url, { search: readOnlyPolicy() }), noop)).rejects.toThrow('Enabled Frontend MCP tool is missing: docs/search');
});

test('relistServer() reads the changed list over the open connection', async () => {
  running = startMcpServer({ tools: [{ name: 'search' }] });
  const config = server('docs', running.url, { search: readOnlyPolicy(), added: readOnlyPolicy() });
  await expect(discoverServer(config, noop)).rejects.toThrow('Enabled Frontend MCP tool is missing: docs/added');
  const found = await discoverServer(server('docs', running.url, { search: readOnlyPolicy() }), noop);
  running.setTools([{ name: 'search' }, { name: 'added' }]);
  expect((await relistServer(config, found.connection)).map((tool) => tool.remoteName)).toEqual(['search', 'added']);
  await found.connection.close();
});
