import { expect, test } from 'bun:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { fetchWithStreamLoss, isStreamLoss } from '../../../src/gateway/discovery/stream-loss.ts';

const sse = (text: string): Response => new Response(text, { headers: { 'content-type': 'text/event-stream' } });

test('fetchWithStreamLoss() appends one synthetic error per request id to an event stream', async () => {
  const wrapped = fetchWithStreamLoss(async () => sse('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n'));
  const body = JSON.stringify([
    { jsonrpc: '2.0', id: 7, method: 'tools/call' },
    { jsonrpc: '2.0', method: 'notifications/x' },
  ]);
  const text = await (await wrapped('http://127.0.0.1/mcp', { method: 'POST', body })).text();
  expect(text.startsWith('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}')).toBe(true);
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));
  expect(events).toHaveLength(2);
  expect(events[1]).toMatchObject({ id: 7, error: { code: -32000 } });
  const data = (events[1] as { error: { data: unknown } }).error.data;
  expect(isStreamLoss(new McpError(-32000, 'x', data))).toBe(true);
});

test('fetchWithStreamLoss() leaves JSON answers, GET streams and notification-only POSTs alone', async () => {
  const wrapped = fetchWithStreamLoss(async (_url, init) => (init?.method === 'GET' ? sse('x') : Response.json({ ok: true })));
  expect(await (await wrapped('http://127.0.0.1/', { method: 'POST', body: '{"id":1,"method":"m"}' })).json()).toEqual({ ok: true });
  expect(await (await wrapped('http://127.0.0.1/', { method: 'GET' })).text()).toBe('x');
  const notifications = fetchWithStreamLoss(async () => sse('y'));
  expect(await (await notifications('http://127.0.0.1/', { method: 'POST', body: '{"method":"notifications/x"}' })).text()).toBe('y');
});

test('isStreamLoss() rejects a server-made error that imitates the shape', () => {
  expect(isStreamLoss(new McpError(-32000, 'Response stream ended.', { marker: 'external-context-stream-lost-guess' }))).toBe(false);
  expect(isStreamLoss(new Error('x'))).toBe(false);
});
