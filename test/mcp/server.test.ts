// src/mcp/server.ts in-process: the SDK Client over InMemoryTransport linked to createMcpServer
// (the whole profile-v1.md §8 MCP suite), and serveStdio() on in-memory streams (stdin EOF).
import { describe, expect, test } from 'bun:test';
import { PassThrough } from 'node:stream';
import { createContextSearchTool } from '../../src/mcp/context-search.ts';
import { SERVER_NAME, serveStdio } from '../../src/mcp/server.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { genericBinding } from '../support/provider-bindings.ts';
import { CANARY_CREDENTIAL, IN_PROCESS, TextLog } from './harness.ts';
import { describeContextSearchServer } from './server-contract.ts';

describeContextSearchServer(IN_PROCESS);

describe('SERVER_NAME', () => {
  test('is external-context', () => {
    expect(SERVER_NAME).toBe('external-context');
  });
});

describe('serveStdio()', () => {
  const frame = (message: unknown): string => `${JSON.stringify(message)}\n`;
  const INIT = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  };

  test('resolves when stdin ends, after aborting the in-flight provider request', async () => {
    const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL });
    try {
      fake.override({ kind: 'stall-before-headers' });
      const stderr = new TextLog();
      const tool = createContextSearchTool(createProvider(genericBinding(fake.origin), { env: {} }), 5000, stderr.stream);
      const stdin = new PassThrough();
      const stdout = new TextLog();
      const served = serveStdio([tool], stdin, stdout.stream);
      stdin.write(frame(INIT));
      stdin.write(frame({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'stalled' } } }));
      await fake.waitForRequests(1);
      stdin.end();
      await served;
      await fake.requests[0]?.response.settled;
      expect(fake.requests[0]?.response.clientClosed).toBe(true);
      expect(fake.requests.length).toBe(1);
      // Only the initialize answer reached stdout; the aborted call's answer could not be sent.
      const lines = stdout.text.split('\n').filter((line) => line !== '');
      expect(lines.map((line) => (JSON.parse(line) as { id?: number }).id)).toEqual([1]);
    } finally {
      await fake.close();
    }
  });

  test('resolves when stdin ends with no call in flight', async () => {
    const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL });
    try {
      const tool = createContextSearchTool(createProvider(genericBinding(fake.origin), { env: {} }), 5000, new TextLog().stream);
      const stdin = new PassThrough();
      const stdout = new TextLog();
      const served = serveStdio([tool], stdin, stdout.stream);
      stdin.end(frame(INIT));
      await served;
      expect(fake.requests.length).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
