// callRemoteTool() over a real connection: outcomes the gateway maps (frontend-mcp.md §6, §7).
import { afterEach, expect, test } from 'bun:test';
import { callRemoteTool, SessionLostError } from '../../../src/gateway/result/call-remote-tool.ts';
import { connectServer, type ServerConnection } from '../../../src/gateway/discovery/connect-server.ts';
import { finalizeTool, type GatewayTool } from '../../../src/gateway/gateway-tool.ts';
import { UNTRUSTED_NOTICE } from '../../../src/gateway/result/bound-result.ts';
import { server } from '../gateway-fixtures.ts';
import { startMcpServer, textResult, type TestServer } from '../mcp-test-server.ts';
import { startRawMcpServer } from '../raw-mcp-server.ts';

let running: TestServer | undefined;
let connection: ServerConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await running?.close();
  connection = undefined;
  running = undefined;
});

function tool(maxResultBytes = 32768): GatewayTool {
  return finalizeTool(
    {
      serverKey: 'docs',
      remoteName: 'search',
      description: 'Search.',
      parameters: { type: 'object' },
      policy: { mode: 'inline', readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes, maxCallsPerTurn: 2 },
    },
    'mcp__docs__search',
  );
}

async function connect(onCall: Parameters<typeof startMcpServer>[0]['onCall']): Promise<ServerConnection> {
  running = startMcpServer({ tools: [{ name: 'search' }], onCall });
  connection = await connectServer(server('docs', running.url, {}), { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
  return connection;
}

test('callRemoteTool() counts non-text blocks as omitted and keeps text blocks joined by newlines', async () => {
  const open = await connect(() => ({
    content: [
      { type: 'text', text: 'one' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///x', name: 'x' },
      { type: 'text', text: 'two' },
    ],
  }));
  expect(await callRemoteTool(open, tool(), {}, undefined)).toMatchObject({ status: 'ok', text: 'one\ntwo', omitted_content_blocks: 2 });
});

test('callRemoteTool() throws SessionLostError on HTTP 404 without resending the call', async () => {
  const open = await connect(() => textResult('x'));
  running?.dropSessions();
  await expect(callRemoteTool(open, tool(), {}, undefined)).rejects.toBeInstanceOf(SessionLostError);
  expect(running?.calls).toHaveLength(0);
});

test('callRemoteTool() reports a closed connection as a transport failure, not a server error', async () => {
  const open = await connect(() => textResult('x'));
  await open.close();
  await expect(callRemoteTool(open, tool(), {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
});

test('callRemoteTool() never lets a large error text exceed the budget', async () => {
  const open = await connect(() => textResult('e'.repeat(100000), { isError: true }));
  const result = await callRemoteTool(open, tool(1024), {}, undefined);
  expect(result).toMatchObject({ status: 'error', error_code: 'frontend_mcp_tool_failed' });
  expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(1024);
});

test('callRemoteTool() drops structuredContent too deeply nested to serialize and still answers an envelope', async () => {
  // JSON.stringify throws RangeError on this depth (Bun: ~50,000 levels; Node: ~5,000); JSON.parse does not.
  const depth = 200_000;
  const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const raw = startRawMcpServer('search', `{"content":[{"type":"text","text":"kept"}],"structuredContent":${deep}}`);
  try {
    connection = await connectServer(server('docs', raw.url, {}), { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
    const envelope = await callRemoteTool(connection, tool(), {}, undefined);
    expect(envelope).toEqual({ status: 'ok', notice: UNTRUSTED_NOTICE, text: 'kept' });
  } finally {
    await connection?.close();
    connection = undefined;
    await raw.close();
  }
});
