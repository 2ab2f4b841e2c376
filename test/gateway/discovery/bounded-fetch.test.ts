// What one hostile remote MCP server can cost the gateway (frontend-mcp.md §3.1): responses are
// capped in bytes and events while they stream, replies to a server's requests are capped in
// flight, and a cancelled call closes its own HTTP request.
import { afterEach, expect, test } from 'bun:test';
import { callRemoteTool } from '../../../src/gateway/result/call-remote-tool.ts';
import { connectServer, type ServerConnection } from '../../../src/gateway/discovery/connect-server.ts';
import { finalizeTool, type GatewayTool } from '../../../src/gateway/gateway-tool.ts';
import { eventually, server } from '../gateway-fixtures.ts';
import { type HostileServer, startHostileServer } from '../hostile-mcp-server.ts';
import { startMcpServer, textResult, type TestServer } from '../mcp-test-server.ts';
import { boundedFetch } from '../../../src/gateway/discovery/bounded-fetch.ts';
import { MAX_REPLIES_IN_FLIGHT } from '../../../src/gateway/discovery/message-gate.ts';
import { type FloodOptions, type FloodServer, startFloodServer } from '../flooding-mcp-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tool(timeoutMs = 8000): GatewayTool {
  return finalizeTool(
    {
      serverKey: 'docs',
      remoteName: 'search',
      description: 'Search.',
      parameters: { type: 'object' },
      policy: { mode: 'inline', readOnly: true, approval: 'none', timeoutMs, maxResultBytes: 4096, maxCallsPerTurn: 2 },
    },
    'mcp__docs__search',
  );
}

async function open(url: string): Promise<ServerConnection> {
  const connection = await connectServer(server('docs', url, {}), { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
  cleanups.push(() => connection.close());
  return connection;
}

async function hostile(...args: Parameters<typeof startHostileServer>): Promise<HostileServer> {
  const started = await startHostileServer(...args);
  cleanups.push(() => started.close());
  return started;
}

test('a never-ending SSE event is cut at the byte cap: the call fails at once, not at its timeout', async () => {
  const remote = await hostile('growing-event');
  const connection = await open(remote.url);
  // tool_failed (the cap) rather than tool_aborted (the 30 s timeout) proves the stream was cut.
  await expect(callRemoteTool(connection, tool(30000), {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
});

test('a 100 MB JSON result is cut at the byte cap: the call fails, the connection is closed', async () => {
  const remote = await hostile('huge-json');
  const connection = await open(remote.url);
  await expect(callRemoteTool(connection, tool(30000), {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
});

test('300 cancelled calls to a stalling server leave at most a handful of its connections open; a healthy server still answers', async () => {
  const stalling = await hostile('stall');
  const healthy: TestServer = startMcpServer({ tools: [{ name: 'search' }], onCall: () => textResult('fine') });
  cleanups.push(() => healthy.close());
  const slow = await open(stalling.url);
  const good = await open(healthy.url);
  for (let batch = 0; batch < 30; batch++) {
    const calls = Array.from({ length: 10 }, () => {
      const caller = new AbortController();
      return { caller, done: callRemoteTool(slow, tool(30000), {}, caller.signal).catch((error: unknown) => error) };
    });
    await stalling.waitForCalls((batch + 1) * 10);
    for (const call of calls) call.caller.abort();
    for (const call of calls) expect(await call.done).toMatchObject({ code: 'frontend_mcp_tool_aborted' });
  }
  expect(stalling.calls()).toBe(300);
  expect(await callRemoteTool(good, tool(), {}, undefined)).toMatchObject({ status: 'ok', text: 'fine' });
  // Settling: the cancelled requests' sockets close asynchronously after the abort.
  await eventually(() => stalling.openConnections() <= 4, 'the stalling server held more than 4 connections');
  expect(stalling.openConnections()).toBeLessThanOrEqual(4);
});

async function flooding(options: FloodOptions): Promise<FloodServer> {
  const started = await startFloodServer(options);
  cleanups.push(() => started.close());
  return started;
}

async function healthyServer(): Promise<ServerConnection> {
  const healthy: TestServer = startMcpServer({ tools: [{ name: 'search' }], onCall: () => textResult('fine') });
  cleanups.push(() => healthy.close());
  return open(healthy.url);
}

test('a ping flood on the GET stream gets at most MAX_REPLIES_IN_FLIGHT reply POSTs, the stream is cut, and a healthy server still answers', async () => {
  const flood = await flooding({ get: { flood: 'pings', events: 200_000 } });
  await open(flood.url);
  const good = await healthyServer();
  const stream = await flood.floodEnded('get');
  expect(stream.cutByClient).toBe(true);
  expect(flood.peakOpenReplies()).toBeLessThanOrEqual(MAX_REPLIES_IN_FLIGHT);
  expect(await callRemoteTool(good, tool(30000), {}, undefined)).toMatchObject({ status: 'ok', text: 'fine' });
});

test('a few pings on the GET stream are still answered, at most MAX_REPLIES_IN_FLIGHT at once', async () => {
  const flood = await flooding({ get: { flood: 'pings', events: 10 } });
  await open(flood.url);
  expect((await flood.floodEnded('get')).cutByClient).toBe(false);
  await eventually(() => flood.replies() > 0, 'no reply to a ping reached the server');
  expect(flood.peakOpenReplies()).toBeLessThanOrEqual(MAX_REPLIES_IN_FLIGHT);
});

test("a ping flood inside a call's event stream fails that call at the event cap with at most MAX_REPLIES_IN_FLIGHT replies held; a healthy server still answers", async () => {
  const flood = await flooding({ call: { flood: 'pings', events: 200_000, thenResult: true } });
  const hostile = await open(flood.url);
  const good = await healthyServer();
  await expect(callRemoteTool(hostile, tool(30000), {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
  expect((await flood.floodEnded('call')).cutByClient).toBe(true);
  expect(flood.peakOpenReplies()).toBeLessThanOrEqual(MAX_REPLIES_IN_FLIGHT);
  expect(await callRemoteTool(good, tool(30000), {}, undefined)).toMatchObject({ status: 'ok', text: 'fine' });
});

test('47,000 tiny events in one call (under the byte cap) are cut at MAX_RESPONSE_EVENTS: the call fails, the server sees its stream closed', async () => {
  const flood = await flooding({ call: { flood: 'notifications', events: 47_000, thenResult: true } });
  const hostile = await open(flood.url);
  await expect(callRemoteTool(hostile, tool(30000), {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
  const stream = await flood.floodEnded('call');
  expect(stream.cutByClient).toBe(true);
  expect(stream.written).toBeLessThan(47_000);
});

test('a never-ending flood of tiny events on the GET stream is cut within its window; a call to the same server still answers', async () => {
  const flood = await flooding({ get: { flood: 'notifications', events: 2_000_000 }, call: { flood: 'notifications', events: 10, thenResult: true } });
  const hostile = await open(flood.url);
  const good = await healthyServer();
  expect((await flood.floodEnded('get')).cutByClient).toBe(true);
  expect(await callRemoteTool(hostile, tool(30000), {}, undefined)).toMatchObject({ status: 'ok', text: 'flooded' });
  expect(await callRemoteTool(good, tool(30000), {}, undefined)).toMatchObject({ status: 'ok', text: 'fine' });
});

test('requests for a capability the gateway never declared get no reply POST; a ping after them does', async () => {
  const flood = await flooding({ get: { flood: 'unsupported-requests', events: 10 } });
  await open(flood.url);
  expect((await flood.floodEnded('get')).cutByClient).toBe(false);
  // The ping is the stream's last event: once its reply arrived, the refusals before it had their chance.
  await eventually(() => flood.replies() > 0, 'no reply to the ping reached the server');
  expect(flood.refusals()).toBe(0);
});

test('a "Method not found" reply is refused without a round trip', async () => {
  const seen: string[] = [];
  const base = async (_url: string | URL, init?: RequestInit): Promise<Response> => {
    seen.push(String(init?.body));
    return new Response(null, { status: 202 });
  };
  const fetch = boundedFetch(base);
  const refused = await fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"Method not found"}}' });
  expect(refused.status).toBe(202);
  expect(seen).toEqual([]);
  await fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":"s2","result":{}}' });
  expect(seen).toHaveLength(1);
});
