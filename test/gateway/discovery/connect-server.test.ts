// connectServer() against a real loopback MCP server: headers, capabilities, notifications.
import { afterEach, expect, test } from 'bun:test';
import { connectServer } from '../../../src/gateway/discovery/connect-server.ts';
import { server } from '../gateway-fixtures.ts';
import { startMcpServer, type TestServer } from '../mcp-test-server.ts';

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

test('connectServer() sends the configured headers on every request and reports listChanged', async () => {
  running = startMcpServer({ tools: [], listChanged: true });
  const config = server('docs', running.url, {}, { transport: { type: 'streamable-http', url: running.url, headers: { 'x-api-key': 'canary-header' } } });
  const connection = await connectServer(config, { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
  expect(connection.listChanged).toBe(true);
  expect(running.headers.length).toBeGreaterThan(0);
  for (const headers of running.headers) expect(headers.get('x-api-key')).toBe('canary-header');
  await connection.close();
  expect(connection.isClosed()).toBe(true);
});

test('connectServer() reports no listChanged when the server does not advertise it', async () => {
  running = startMcpServer({ tools: [] });
  const connection = await connectServer(server('docs', running.url, {}), { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
  expect(connection.listChanged).toBe(false);
  await connection.close();
});

test('connectServer() rejects once the signal aborts', async () => {
  running = startMcpServer({ tools: [] });
  await expect(connectServer(server('docs', running.url, {}), { signal: AbortSignal.abort(new Error('stop')), onToolsChanged: () => {} })).rejects.toThrow();
});
