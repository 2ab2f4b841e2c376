// startRemoteServer(): a real loopback socket, the Host allow-list with the bound port, the
// listen failure, and the graceful shutdown of remote.md §1.9 (grace, then abort).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ListenFailedError, type RemoteServer, startRemoteServer } from '../../../src/mcp/http/start-remote-server.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../../fakes/generic-http.ts';
import { CANARY_CREDENTIAL } from '../../support/provider-bindings.ts';
import { contextSearchTools, MCP_HEADERS, rpc } from './remote-kit.ts';

let fake: GenericHttpFake;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'alpha' }] });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

function start(port = 0, listenHost = '127.0.0.1'): Promise<RemoteServer> {
  return startRemoteServer({
    tools: contextSearchTools(fake, 30_000),
    listenHost,
    port,
    resource: undefined,
    allowedOrigins: new Set(),
    maxConcurrency: 4,
    auth: undefined,
  });
}

const call = (url: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: rpc('tools/call', { name: 'context_search', arguments: { query: 'q' } }) });

describe('startRemoteServer()', () => {
  test('binds a free port, reports the /mcp URL and answers Host names with the bound port', async () => {
    const server = await start();
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
      expect((await call(server.url)).status).toBe(200);
      expect((await call(`http://localhost:${server.port}/mcp`)).status).toBe(200);
      expect((await call(server.url, { host: 'rebind.example.com' })).status).toBe(403);
    } finally {
      await server.shutdown();
    }
  });

  test('a port in use gives ListenFailedError', async () => {
    const first = await start();
    try {
      await expect(start(first.port)).rejects.toBeInstanceOf(ListenFailedError);
    } finally {
      await first.shutdown();
    }
  });

  test('shutdown lets a request in progress finish within the grace period', async () => {
    fake.override({ kind: 'passthrough', delayMs: 200 }, { times: 1 });
    const server = await start();
    const pending = call(server.url);
    await fake.waitForRequests(1);
    await server.shutdown(5000);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('alpha');
    expect(fake.requests[0]?.response.completed).toBe(true);
  });

  test('after the grace period the rest is aborted, with its provider request', async () => {
    fake.override({ kind: 'stall-before-headers' }, { times: 1 });
    const server = await start();
    const pending = call(server.url).then(
      (response) => response.json(),
      () => 'connection closed',
    );
    await fake.waitForRequests(1);
    await server.shutdown(100);
    await fake.requests[0]?.response.settled;
    expect(fake.requests[0]?.response.clientClosed).toBe(true);
    const answer = await pending;
    if (answer !== 'connection closed') expect(JSON.stringify(answer)).toContain('External context search failed.');
    expect(server.shutdown()).toBe(server.shutdown());
  });
});
