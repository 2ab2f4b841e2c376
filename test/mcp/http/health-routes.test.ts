// GET /healthz and GET /readyz on the remote handler, and its metrics (docs/design/remote.md §1.4a,
// §1.12): no token needed, the Host check as for /mcp, readiness from the most recent key-set fetch
// and provider request, and counters that carry outcome ids only; in-process, with the real
// provider against the Generic fake and the real token checker against a closed JWKS port.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { allowedHosts } from '../../../src/mcp/http/allowed-hosts.ts';
import { createJwksFetch } from '../../../src/mcp/http/jwks-fetch.ts';
import { Readiness, READINESS_FAILURE_HOLD_MS } from '../../../src/mcp/http/readiness.ts';
import { createRemoteMcpHandler, type RemoteMcpHandler } from '../../../src/mcp/http/remote-mcp-handler.ts';
import { createRemoteMetrics, type RemoteMetrics } from '../../../src/mcp/http/remote-metrics.ts';
import type { RequestLogEntry } from '../../../src/mcp/http/request-log.ts';
import { createTokenChecker } from '../../../src/mcp/http/token-verifier.ts';
import { startGenericHttpFake } from '../../fakes/generic-http.ts';
import { CANARY } from '../../support/canaries.ts';
import { CANARY_CREDENTIAL } from '../../support/provider-bindings.ts';
import { closedPort, contextSearchTools, HOST_HEADER, ISSUER, LISTEN_HOST, LISTEN_PORT, MCP_HEADERS, RESOURCE, rpc, SCOPE } from './remote-kit.ts';

const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'Alpha.' }] });
afterAll(() => fake.close());
beforeEach(() => fake.reset());

interface Kit {
  readonly handler: RemoteMcpHandler;
  readonly metrics: RemoteMetrics;
  readonly log: RequestLogEntry[];
  readonly clock: { nowMs: number };
}

function kit(options: { readonly jwksUrl?: string } = {}): Kit {
  const log: RequestLogEntry[] = [];
  const clock = { nowMs: 0 };
  const readiness = new Readiness(() => clock.nowMs);
  let handler: RemoteMcpHandler | undefined;
  const metrics = createRemoteMetrics({ inFlight: () => handler?.active ?? 0, tokenCacheEntries: () => 0 });
  const jwksUrl = options.jwksUrl;
  handler = createRemoteMcpHandler({
    tools: contextSearchTools(fake, 30_000),
    allowedHosts: allowedHosts(LISTEN_HOST, LISTEN_PORT, RESOURCE),
    allowedOrigins: new Set(),
    maxConcurrency: 4,
    log: (entry) => log.push(entry),
    metrics,
    readiness,
    auth:
      jwksUrl === undefined
        ? undefined
        : { resource: RESOURCE, issuer: ISSUER, scope: SCOPE, verify: createTokenChecker({ issuer: ISSUER, audience: RESOURCE, jwksUrl, scope: SCOPE, fetch: createJwksFetch({ mode: 'direct' }) }) },
  });
  return { handler, metrics, log, clock };
}

function get(handler: RemoteMcpHandler, path: string, headers: Record<string, string> = HOST_HEADER, method = 'GET'): Promise<Response> {
  return handler.fetch(new Request(`http://${LISTEN_HOST}:${LISTEN_PORT}${path}`, { method, headers }));
}

function search(handler: RemoteMcpHandler, headers: Record<string, string> = {}): Promise<Response> {
  const body = rpc('tools/call', { name: 'context_search', arguments: { query: CANARY.query } });
  return handler.fetch(new Request(`http://${LISTEN_HOST}:${LISTEN_PORT}/mcp`, { method: 'POST', headers: { ...HOST_HEADER, ...MCP_HEADERS, ...headers }, body }));
}

describe('GET /healthz and GET /readyz', () => {
  test('/healthz answers 200 {"status":"ok"} without a token while authentication is on', async () => {
    const { handler, log } = kit({ jwksUrl: `http://127.0.0.1:${await closedPort()}/jwks.json` });
    const response = await get(handler, '/healthz');
    expect([response.status, await response.text(), response.headers.get('content-type')]).toEqual([200, '{"status":"ok"}', 'application/json']);
    expect(log.map((entry) => [entry.status, entry.outcome])).toEqual([[200, 'healthy']]);
  });

  test('a foreign Host is refused as for /mcp (403), another method gets 405 with Allow: GET', async () => {
    const { handler } = kit();
    expect((await get(handler, '/readyz', { host: 'evil.example:8788' })).status).toBe(403);
    expect((await get(handler, '/healthz', {})).status).toBe(400);
    const post = await get(handler, '/readyz', HOST_HEADER, 'POST');
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
  });

  test('/readyz is 503 with provider-<class> after a failed provider request, and ready again after a success or 30000 ms', async () => {
    const { handler, log, clock } = kit();
    expect(await (await get(handler, '/readyz')).text()).toBe('{"status":"ready"}');
    fake.override({ kind: 'reply', status: 500, body: CANARY.body }, { times: 1 });
    expect((await search(handler)).status).toBe(200);
    const notReady = await get(handler, '/readyz');
    const text = await notReady.text();
    expect([notReady.status, text]).toEqual([503, '{"status":"not-ready","reason":"provider-http-status"}']);
    expect(text).not.toContain(CANARY.query);
    expect(log.at(-1)?.outcome).toBe('not-ready');
    clock.nowMs += READINESS_FAILURE_HOLD_MS;
    expect((await get(handler, '/readyz')).status).toBe(200);
    fake.override({ kind: 'reply', status: 500 }, { times: 1 });
    await search(handler);
    expect((await get(handler, '/readyz')).status).toBe(503);
    await search(handler);
    expect((await get(handler, '/readyz')).status).toBe(200);
  });

  test('/readyz is 503 jwks-connection-refused once a token could not be checked for want of the key set', async () => {
    const { handler } = kit({ jwksUrl: `http://127.0.0.1:${await closedPort()}/jwks.json` });
    expect((await get(handler, '/readyz')).status).toBe(200);
    expect((await search(handler, { authorization: 'Bearer a.b.c' })).status).toBe(401);
    const header = 'eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0';
    const payload = btoa(JSON.stringify({ iss: ISSUER, aud: RESOURCE, exp: 4_102_444_800 })).replace(/=+$/, '');
    expect((await search(handler, { authorization: `Bearer ${header}.${payload}.c2ln` })).status).toBe(503);
    expect(await (await get(handler, '/readyz')).text()).toBe('{"status":"not-ready","reason":"jwks-connection-refused"}');
  });
});

describe('createRemoteMetrics() through the handler', () => {
  test('counts outcomes, request and provider durations, with outcome ids only', async () => {
    const { handler, metrics } = kit();
    await search(handler);
    fake.override({ kind: 'reply', status: 503, body: CANARY.body }, { times: 1 });
    await search(handler);
    await get(handler, '/healthz');
    await get(handler, '/nowhere');
    const text = metrics.registry.render();
    expect(text).toContain('external_context_requests_total{outcome="ok"} 1');
    expect(text).toContain('external_context_requests_total{outcome="provider-http-status"} 1');
    expect(text).toContain('external_context_requests_total{outcome="healthy"} 1');
    expect(text).toContain('external_context_requests_total{outcome="not-found"} 1');
    expect(text).toContain('external_context_request_duration_seconds_count 4');
    expect(text).toContain('external_context_provider_duration_seconds_count 2');
    expect(text).toContain('external_context_in_flight_requests 0');
    expect(text).toMatch(/external_context_build_info\{version="[^"]+",commit="[^"]+"\} 1/);
    for (const canary of [CANARY.query, CANARY.body, CANARY_CREDENTIAL, '/nowhere']) expect(text).not.toContain(canary);
  });
});
