// providers/outbound.ts, the one home of every outbound request, against real loopback servers:
// one request with redirects never followed, the failure class of a request that got no answer,
// the deadline after the warm-up, and the routed fetch of the SDK transports (issue 26 §1).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ProviderError } from '../../src/providers/provider-error.ts';
import { decideRoute, fetchRejection, isRedirect, routedFetch, sendOutbound, transportRejection, withOutboundDeadline, type OutboundRequest } from '../../src/providers/outbound.ts';
import { transportFailureOf } from '../../src/providers/transport-failure.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { CANARY_CREDENTIAL, testSignal } from '../support/provider-bindings.ts';
import { rejectionOf } from '../support/thrown-error.ts';

const DIRECT = { mode: 'direct' } as const;
const BUN = { name: 'bun', execArgv: [] } as const;

let fake: FakeServer;
let proxy: ForwardProxy;
let deadOrigin: string;

beforeAll(async () => {
  fake = await startFakeServer({ handler: () => ({ status: 200, json: { ok: true } }) });
  proxy = await startForwardProxy({ upstreams: { 'context.test:8080': fake.origin } });
  const dead = await startFakeServer();
  deadOrigin = dead.origin;
  await dead.close();
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  proxy.requests.length = 0;
});

function get(overrides: Partial<OutboundRequest> = {}): OutboundRequest {
  return { method: 'GET', url: `${fake.origin}/x`, headers: { authorization: `Bearer ${CANARY_CREDENTIAL}` }, signal: testSignal(), route: DIRECT, ...overrides };
}

describe('sendOutbound()', () => {
  test('sends exactly one request with its headers and body', async () => {
    const response = await sendOutbound(get({ method: 'POST', body: '{"q":1}' }));
    expect(response.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.text).toBe('{"q":1}');
    expect(fake.requests[0]?.headers['authorization']).toBe(`Bearer ${CANARY_CREDENTIAL}`);
  });

  test('never follows a redirect: the 3xx comes back and isRedirect() names it', async () => {
    fake.override({ kind: 'redirect', status: 302, location: `${fake.origin}/elsewhere` });
    const response = await sendOutbound(get());
    expect(isRedirect(response)).toBe(true);
    await response.body?.cancel();
    expect(fake.requests.map((request) => request.path)).toEqual(['/x']);
  });

  test('a refused connection is network with its class, and carries no URL or credential', async () => {
    const error = await rejectionOf(ProviderError, sendOutbound(get({ url: `${deadOrigin}/x` })));
    expect([error.kind, error.failureClass]).toEqual(['network', 'connection-refused']);
    expect(`${error.message} ${JSON.stringify(error)} ${String(error.cause)}`).not.toContain(CANARY_CREDENTIAL);
    expect(`${error.message} ${String(error.cause)}`).not.toContain('127.0.0.1');
  });

  test('a caller cancellation is cancelled, a timeout reason is timeout', async () => {
    fake.override({ kind: 'stall-before-headers' });
    const controller = new AbortController();
    const pending = sendOutbound(get({ signal: controller.signal }));
    await fake.waitForRequests(1);
    controller.abort();
    expect((await rejectionOf(ProviderError, pending)).kind).toBe('cancelled');
    const timedOut = new AbortController();
    timedOut.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect(fetchRejection(new TypeError('aborted'), timedOut.signal, DIRECT).kind).toBe('timeout');
  });
});

describe('transportRejection()', () => {
  test('through a proxy a non-TLS failure is proxy-failure naming the variable, a TLS one keeps its class', () => {
    const route = { mode: 'proxy', proxyUrl: 'http://127.0.0.1:9', variable: 'https_proxy' } as const;
    const refused = transportRejection(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), route);
    expect([refused.failureClass, refused.proxyVariable]).toEqual(['proxy-failure', 'https_proxy']);
    expect(transportRejection(Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), route).failureClass).toBe('tls-untrusted-certificate');
  });
});

describe('withOutboundDeadline()', () => {
  test('the signal handed to the work aborts with a TimeoutError reason once timeoutMs passes', async () => {
    const reason = await withOutboundDeadline({ signal: testSignal(), timeoutMs: 1 }, (signal) => new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))));
    expect((reason as DOMException).name).toBe('TimeoutError');
  });

  test('the caller cancellation reaches the work with its own reason', async () => {
    const controller = new AbortController();
    const pending = withOutboundDeadline({ signal: controller.signal, timeoutMs: 600_000 }, (signal) => {
      controller.abort('mine');
      return Promise.resolve<unknown>(signal.reason);
    });
    expect(await pending).toBe('mine');
  });

  test('without a timeout the caller signal passes through unchanged', async () => {
    const signal = testSignal();
    expect(await withOutboundDeadline({ signal }, (given) => Promise.resolve(given === signal))).toBe(true);
  });
});

describe('routedFetch()', () => {
  test('a rejection goes on unchanged, its class remembered beside it and reported once', async () => {
    const failures: ProviderError[] = [];
    const fetchRouted = routedFetch({}, BUN, (failure) => failures.push(failure));
    const error = await fetchRouted(`${deadOrigin}/mcp`, { signal: testSignal() }).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(transportFailureOf(error)).toBe('connection-refused');
    expect(failures.map((failure) => failure.failureClass)).toEqual(['connection-refused']);
  });

  test('the caller own abort is not classified', async () => {
    fake.override({ kind: 'stall-before-headers' });
    const failures: ProviderError[] = [];
    const controller = new AbortController();
    const pending = routedFetch({}, BUN, (failure) => failures.push(failure))(`${fake.origin}/mcp`, { signal: controller.signal }).catch((rejected: unknown) => rejected);
    await fake.waitForRequests(1);
    controller.abort();
    expect(transportFailureOf(await pending)).toBeUndefined();
    expect(failures).toEqual([]);
  });

  test('each request is routed by its own target: a proxied name through the proxy, loopback direct', async () => {
    const fetchRouted = routedFetch({ HTTP_PROXY: proxy.url }, BUN);
    expect((await fetchRouted('http://context.test:8080/mcp', { signal: testSignal() })).status).toBe(200);
    expect((await fetchRouted(`${fake.origin}/mcp`, { signal: testSignal() })).status).toBe(200);
    expect(proxy.requests.map((request) => request.target)).toEqual(['http://context.test:8080/mcp']);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('decideRoute()', () => {
  test('loopback is never proxied; another host takes the proxy and names the variable', () => {
    expect(decideRoute(`${fake.origin}/x`, { HTTPS_PROXY: proxy.url }, BUN)).toEqual(DIRECT);
    expect(decideRoute('https://context.test/x', { https_proxy: proxy.url }, BUN)).toMatchObject({ mode: 'proxy', variable: 'https_proxy' });
  });
});
