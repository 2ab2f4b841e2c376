import { expect, test } from 'bun:test';
import { drainableFetch } from '../../../src/gateway/discovery/notification-drain.ts';

test('drainableFetch().drain() waits for in-flight notification POSTs only', async () => {
  const releases: Array<() => void> = [];
  const base = (_url: string | URL, _init?: RequestInit): Promise<Response> => new Promise((resolve) => releases.push(() => resolve(new Response(null, { status: 202 }))));
  const tracked = drainableFetch(base);
  void tracked.fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{"id":1,"method":"tools/call"}' });
  void tracked.fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}' });
  let drained = false;
  const drain = tracked.drain().then(() => (drained = true));
  await Promise.resolve();
  expect(drained).toBe(false);
  releases[1]?.();
  await drain;
  expect(drained).toBe(true);
  releases[0]?.();
});

test('drainableFetch().drain() resolves at once with nothing in flight', async () => {
  await drainableFetch(async () => new Response(null)).drain();
});
