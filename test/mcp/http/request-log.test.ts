// The serve --http operator log (remote.md §1.10, issue 14 item 4): one entry per request with its
// outcome id, against the real handler, a real loopback JWKS and the real provider; expected
// issuer/audience only for their outcomes; never a token, claim, query or result.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { formatRequestLine, formatStartupLine, type RequestLogEntry } from '../../../src/mcp/http/request-log.ts';
import { createJwksFetch, JwksUnavailableError } from '../../../src/mcp/http/jwks-fetch.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../../fakes/generic-http.ts';
import { CANARY, expectNoCanary } from '../../support/canaries.ts';
import { CANARY_CREDENTIAL } from '../../support/provider-bindings.ts';
import { closedPort, createTestHandler, hmacToken, HOST_HEADER, ISSUER, type JwksServer, LISTEN_PORT, mcpPost, RESOURCE, rpc, startJwksServer } from './remote-kit.ts';

const ITEMS = [{ id: 'policy-1', content: `Deploy with care ${CANARY.content}`, title: 'Deployment policy' }];
const CALL = rpc('tools/call', { name: 'context_search', arguments: { query: CANARY.query } });

let fake: GenericHttpFake;
let jwks: JwksServer;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: ITEMS });
  jwks = await startJwksServer();
});
afterAll(async () => {
  await fake.close();
  await jwks.close();
});
beforeEach(() => fake.reset());

function logged(options: { jwksUrl?: string; maxConcurrency?: number; allowedOrigins?: string[]; timeoutMs?: number } = {}) {
  const entries: RequestLogEntry[] = [];
  const handler = createTestHandler({
    fake,
    jwks: { url: options.jwksUrl ?? jwks.url },
    log: (entry) => entries.push(entry),
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return { handler, entries };
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function outcomeOf(request: Request, options: Parameters<typeof logged>[0] = {}): Promise<RequestLogEntry> {
  const { handler, entries } = logged(options);
  const response = await handler.fetch(request);
  await response.text();
  expect(entries).toHaveLength(1);
  const entry = entries[0] as RequestLogEntry;
  expect(entry.status).toBe(response.status);
  expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Number.isInteger(entry.ms) && entry.ms >= 0).toBe(true);
  for (const format of ['json', 'text'] as const) expectNoCanary(formatRequestLine(entry, format) ?? '');
  return entry;
}

describe('request log: one outcome per request', () => {
  test('ok: status 200, provider ms counted, no provider status', async () => {
    const entry = await outcomeOf(mcpPost(CALL, bearer(await jwks.sign())));
    expect(entry).toMatchObject({ status: 200, outcome: 'ok' });
    expect(entry.providerStatus).toBeUndefined();
    expect(entry.providerMs).toBeGreaterThanOrEqual(0);
  });

  test('auth outcomes: missing, malformed, signature, expired, not yet valid, issuer, audience, scope', async () => {
    const cases: [string, Record<string, string>, string, number][] = [
      ['missing', {}, 'auth-missing', 401],
      ['malformed', bearer('not.a.jwt'), 'auth-malformed', 401],
      ['unpublished key', bearer(await jwks.sign({}, { unpublished: true })), 'auth-signature', 401],
      ['HS256', bearer(await hmacToken()), 'auth-signature', 401],
      ['expired', bearer(await jwks.sign({ exp: Math.floor(Date.now() / 1000) - 600 })), 'auth-expired', 401],
      ['not yet valid', bearer(await jwks.sign({ nbf: Math.floor(Date.now() / 1000) + 600 })), 'auth-not-yet-valid', 401],
      ['issuer', bearer(await jwks.sign({ iss: `https://issuer.example.com/${CANARY.credential}` })), 'auth-issuer', 401],
      ['audience', bearer(await jwks.sign({ aud: 'https://other.example.com/mcp' })), 'auth-audience', 401],
      ['scope', bearer(await jwks.sign({ scope: 'other.scope' })), 'auth-scope', 403],
    ];
    for (const [label, headers, outcome, status] of cases) {
      const entry = await outcomeOf(mcpPost(CALL, headers));
      expect({ label, outcome: entry.outcome as string, status: entry.status }).toEqual({ label, outcome, status });
      expect(entry.providerMs).toBe(0);
      // The expected value from the configuration, for exactly these two outcomes; never the token's.
      expect(entry.expectedIssuer).toBe(outcome === 'auth-issuer' ? ISSUER : undefined);
      expect(entry.expectedAudience).toBe(outcome === 'auth-audience' ? RESOURCE : undefined);
    }
    expect(fake.requests).toHaveLength(0);
  });

  test('jwks-<class>: an unreachable key server is jwks-connection-refused, a 404 is jwks-http-status', async () => {
    const refused = await outcomeOf(mcpPost(CALL, bearer(await jwks.sign())), { jwksUrl: `http://127.0.0.1:${await closedPort()}/jwks.json` });
    expect(refused).toMatchObject({ status: 503, outcome: 'jwks-connection-refused' });
    const missing = await outcomeOf(mcpPost(CALL, bearer(await jwks.sign())), { jwksUrl: jwks.url.replace('/jwks.json', '/nothing.json') });
    expect(missing).toMatchObject({ status: 503, outcome: 'jwks-http-status' });
  });

  test('host-refused, origin-refused, not-found, method-not-allowed, too-large, busy, bad-request', async () => {
    expect((await outcomeOf(new Request(`http://127.0.0.1:${LISTEN_PORT}/mcp`, { method: 'POST', headers: { host: 'evil.example' } }))).outcome).toBe('host-refused');
    expect((await outcomeOf(mcpPost(CALL, { origin: 'https://evil.example' }))).outcome).toBe('origin-refused');
    expect((await outcomeOf(new Request(`http://127.0.0.1:${LISTEN_PORT}/other`, { headers: HOST_HEADER }))).outcome).toBe('not-found');
    expect((await outcomeOf(new Request(`http://127.0.0.1:${LISTEN_PORT}/mcp`, { headers: HOST_HEADER }))).outcome).toBe('method-not-allowed');
    expect((await outcomeOf(mcpPost('x'.repeat(70_000), bearer(await jwks.sign())))).outcome).toBe('too-large');
    expect((await outcomeOf(mcpPost('{not json', bearer(await jwks.sign())))).outcome).toBe('bad-request');
    const { handler, entries } = logged({ maxConcurrency: 1 });
    fake.override({ kind: 'stall-before-headers' }, { times: 1 });
    const token = await jwks.sign();
    const first = handler.fetch(mcpPost(CALL, bearer(token)));
    await fake.waitForRequests(1);
    const busy = await handler.fetch(mcpPost(CALL, bearer(token)));
    expect(busy.status).toBe(503);
    expect(entries.map((entry) => entry.outcome)).toEqual(['busy']);
    void first.catch(() => undefined);
  });

  test('provider-<class>: a 503 provider is provider-http-status with its status, a stall provider-timeout', async () => {
    fake.override({ kind: 'reply', status: 503, body: CANARY.body }, { times: 1 });
    const failed = await outcomeOf(mcpPost(CALL, bearer(await jwks.sign())));
    expect(failed).toMatchObject({ status: 200, outcome: 'provider-http-status', providerStatus: 503 });
    fake.override({ kind: 'stall-before-headers' }, { times: 1 });
    const stalled = await outcomeOf(mcpPost(CALL, bearer(await jwks.sign())), { timeoutMs: 200 });
    expect(stalled).toMatchObject({ status: 200, outcome: 'provider-timeout' });
    expect(stalled.providerMs).toBeGreaterThanOrEqual(150);
  });
});

describe('request log formats', () => {
  const entry: RequestLogEntry = { time: '2026-12-01T15:00:00.000Z', status: 401, outcome: 'auth-audience', ms: 4, providerMs: 0, expectedAudience: RESOURCE };

  test('json: one object, keys in order', () => {
    expect(formatRequestLine(entry, 'json')).toBe(`{"time":"2026-12-01T15:00:00.000Z","status":401,"outcome":"auth-audience","ms":4,"providerMs":0,"expectedAudience":"${RESOURCE}"}`);
  });

  test('text: one line; none: nothing', () => {
    expect(formatRequestLine(entry, 'text')).toBe(`2026-12-01T15:00:00.000Z 401 auth-audience 4ms provider=0ms expected-audience=${RESOURCE}`);
    expect(formatRequestLine({ time: entry.time, status: 200, outcome: 'provider-http-status', ms: 4, providerMs: 0, providerStatus: 502 }, 'text')).toBe(
      '2026-12-01T15:00:00.000Z 200 provider-http-status 4ms provider=0ms provider-status=502',
    );
    expect(formatRequestLine(entry, 'none')).toBeUndefined();
  });

  test('startup line: address, resource and auth mode', () => {
    const startup = { time: '2026-12-01T15:00:00.000Z', address: '127.0.0.1:8788', resource: RESOURCE, auth: 'oauth' as const, issuer: ISSUER };
    expect(formatStartupLine(startup, 'json')).toBe(`{"time":"2026-12-01T15:00:00.000Z","event":"listening","address":"127.0.0.1:8788","resource":"${RESOURCE}","auth":"oauth","issuer":"${ISSUER}"}`);
    expect(formatStartupLine({ time: startup.time, address: startup.address, resource: undefined, auth: 'none' }, 'text')).toBe(
      '2026-12-01T15:00:00.000Z listening address=127.0.0.1:8788 resource=none auth=none',
    );
    expect(formatStartupLine(startup, 'none')).toBeUndefined();
  });
});

describe('the JWKS fetch names its failure class', () => {
  test('refused, status, JSON and shape', async () => {
    const fetchJwks = createJwksFetch({ mode: 'direct' });
    const classOf = async (url: string): Promise<string> => {
      try {
        await fetchJwks(url, { headers: {} });
      } catch (error) {
        return error instanceof JwksUnavailableError ? error.failureClass : 'not a JwksUnavailableError';
      }
      return 'fetched';
    };
    expect(await classOf(`http://127.0.0.1:${await closedPort()}/jwks.json`)).toBe('connection-refused');
    expect(await classOf(jwks.url.replace('/jwks.json', '/none'))).toBe('http-status');
    expect(await classOf(jwks.url)).toBe('fetched');
  });
});
