// listRemoteTools() against real Streamable HTTP MCP servers: pagination and its limits.
import { afterEach, expect, test } from 'bun:test';
import { connectServer, type ServerConnection } from '../../../src/gateway/discovery/connect-server.ts';
import { listRemoteTools } from '../../../src/gateway/discovery/list-remote-tools.ts';
import { server } from '../gateway-fixtures.ts';
import { startMcpServer, type TestServer, type TestTool } from '../mcp-test-server.ts';

let running: TestServer | undefined;
let connection: ServerConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await running?.close();
  connection = undefined;
  running = undefined;
});

const tools = (count: number): TestTool[] => Array.from({ length: count }, (_, index) => ({ name: `t${index}`, inputSchema: { type: 'object' } }));

async function list(options: Parameters<typeof startMcpServer>[0]): Promise<string[]> {
  running = startMcpServer(options);
  const signal = AbortSignal.timeout(8000);
  connection = await connectServer(server('docs', running.url, {}), { signal, onToolsChanged: () => {} });
  return (await listRemoteTools(connection.client, 'docs', signal)).map((tool) => tool.name);
}

test('listRemoteTools() follows three pages of tools/list', async () => {
  expect(await list({ tools: tools(7), pageSize: 3 })).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
  expect(running?.received.filter((message) => message['method'] === 'tools/list')).toHaveLength(3);
});

test('listRemoteTools() accepts 1000 tools over 20 pages and fails a 21st page', async () => {
  expect(await list({ tools: tools(1000), pageSize: 50 })).toHaveLength(1000);
  await connection?.close();
  await running?.close();
  await expect(list({ tools: tools(21), pageSize: 1 })).rejects.toThrow('Frontend MCP tool list exceeds the limit: docs');
});

test('listRemoteTools() fails closed on a 1001-tool list', async () => {
  await expect(list({ tools: tools(1001) })).rejects.toThrow('Frontend MCP tool list exceeds the limit: docs');
});

test('listRemoteTools() fails on two remote tools with one name', async () => {
  await expect(list({ tools: [{ name: 'dup' }, { name: 'dup' }] })).rejects.toThrow('Duplicate Frontend MCP tool name: dup');
});

test('listRemoteTools() fails closed on a repeated cursor', async () => {
  await expect(list({ tools: tools(3), pageSize: 1, fixedCursor: '1' })).rejects.toThrow('Frontend MCP tool list exceeds the limit: docs');
});
