// The Host check against a real loopback socket (remote.md §1.5 step 1): malformed and foreign
// Host values sent as raw bytes over node:net are 403 host_not_allowed, a missing one an empty
// 400, never an empty 500 from a URL parse that ran before the check. Every runtime, as a
// process: test/e2e/raw-http.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { type RemoteServer, startRemoteServer } from '../../../src/mcp/http/start-remote-server.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../../fakes/generic-http.ts';
import { CANARY_CREDENTIAL } from '../../support/provider-bindings.ts';
import { contextSearchTools } from './remote-kit.ts';

let fake: GenericHttpFake;
let server: RemoteServer;
beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'alpha' }] });
  server = await startRemoteServer({
    listenHost: '127.0.0.1',
    port: 0,
    tools: contextSearchTools(fake, 30_000),
    allowedOrigins: new Set(),
    maxConcurrency: 4,
    auth: undefined,
    resource: undefined,
  });
});
afterAll(async () => {
  await server.shutdown();
  await fake.close();
});

/** Sends one raw HTTP/1.1 request and returns the status code and body. */
function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
      const split = data.indexOf('\r\n\r\n');
      resolve({ status, body: split === -1 ? '' : data.slice(split + 4) });
    });
    socket.write(`${head}\r\nconnection: close\r\n\r\n`);
  });
}

const post = (hostLine: string | undefined): string => `POST /mcp HTTP/1.1\r\n${hostLine === undefined ? '' : `${hostLine}\r\n`}content-type: application/json\r\ncontent-length: 0`;

describe('a real socket', () => {
  test('malformed Host headers are 403 host_not_allowed', async () => {
    const port = server.port;
    const hosts = [`evil@127.0.0.1:${port}`, `127.0.0.1:${port}/x`, '[::1', `127.0.0.1:${port}#x`, `127.0.0.1:${port}?x`, '', '127.0.0.1:99999', 'a b', 'evil.example'];
    for (const host of hosts) {
      const answer = await rawRequest(port, post(`host: ${host}`));
      expect({ host, ...answer }).toEqual({ host, status: 403, body: '{"error":"host_not_allowed"}' });
    }
  });

  test('a request without Host is an empty 400 (as Deno answers a repeated Host before any handler)', async () => {
    const answer = await rawRequest(server.port, post(undefined).replace('HTTP/1.1', 'HTTP/1.0'));
    expect(answer).toEqual({ status: 400, body: '' });
  });
});
