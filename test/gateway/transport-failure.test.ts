// A Frontend MCP server that cannot be reached logs its failure class beside the fixed error
// (frontend-mcp.md §11, providers.md §1.6; issue 14 item 1): a real closed loopback port and a real
// unresolvable .invalid name through the gateway's own fetch.
import { afterEach, describe, expect, test } from 'bun:test';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { FrontendMcpGateway } from '../../src/gateway/frontend-mcp-gateway.ts';
import { noteTransportFailure, transportFailureOf } from '../../src/providers/transport-failure.ts';
import { config, readOnlyPolicy, recordingLogger, server } from './gateway-fixtures.ts';

const gateways: FrontendMcpGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('gateway connection failures carry their failure class', () => {
  test('a closed port → connection-refused; an unresolvable name → dns-failure', async () => {
    const { events, logger } = recordingLogger();
    const gateway = new FrontendMcpGateway(
      config(server('closed', `http://127.0.0.1:${await closedPort()}/mcp`, { search: readOnlyPolicy() }), server('nowhere', 'https://frontend-mcp-test.invalid/mcp', { search: readOnlyPolicy() })),
      { logger, env: {} },
    );
    gateways.push(gateway);
    await gateway.discover();
    const failed = events.filter((event) => event.event === 'frontend_mcp.connection_failed');
    expect(failed.map((event) => [event.server, 'class' in event ? event.class : undefined])).toEqual([
      ['closed', 'connection-refused'],
      ['nowhere', 'dns-failure'],
    ]);
  });

  test('the class is found through wrapping causes, and only for remembered errors', () => {
    const rejection = new TypeError('fetch failed');
    noteTransportFailure(rejection, 'connection-reset');
    expect(transportFailureOf(new Error('outer', { cause: new Error('middle', { cause: rejection }) }))).toBe('connection-reset');
    expect(transportFailureOf(new Error('unrelated'))).toBeUndefined();
    expect(transportFailureOf(undefined)).toBeUndefined();
  });
});
