// Transport faults against every adapter, search and write (issue 11, "Faults"): each fault is
// played by a real loopback server, costs exactly one provider request, and ends in the stable
// error of providers.md §1.2/§1.3 for searches and in `unknown`/`failed` of §6.1 for writes.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import type { PresetId, ScopeKey } from '../../src/config/presets.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { PROVIDER_ERROR_MESSAGES, ProviderError, type ProviderErrorKind } from '../../src/providers/provider-error.ts';
import type { BoundProvider, RememberResult } from '../../src/providers/types.ts';
import { searchOperatorLine } from '../../src/search/run-search.ts';
import { startFakeServer, timeoutAfterRequests, type FakeServer } from '../fakes/fake-server.ts';
import type { FakeOverride } from '../fakes/overrides.ts';
import { createTestCertificates, opensslTier, type TestCertificates } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { expectNoCanary, CANARY } from '../support/canaries.ts';
import { genericBinding, mem0Binding, platformBinding } from '../support/provider-bindings.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

/** Provider timeout of the stall and drip cases, in ms: short so the suite stays fast. */
const SHORT_TIMEOUT_MS = 150;
/** Hang guard of every other case (never reached; not a timing assertion). */
const GUARD_MS = LIVENESS_MS;

const SCOPES: Readonly<Record<PresetId, Readonly<Partial<Record<ScopeKey, string>>>>> = {
  'mem0-platform-v3': { appId: 'repository-memory' },
  'mem0-server-rest-2026-08': { userId: 'u1', agentId: 'qwen-code' },
  'polardb-mysql-2026-08': { userId: 'u1', agentId: 'qwen-code' },
};
const PRESETS: readonly PresetId[] = ['mem0-platform-v3', 'mem0-server-rest-2026-08', 'polardb-mysql-2026-08'];

/** One adapter bound to an origin: label, the provider, and whether it writes. */
interface Adapter {
  readonly label: string;
  readonly provider: BoundProvider;
}

function adapters(origin: string): Adapter[] {
  const list: Adapter[] = [{ label: 'generic-http-search-v1', provider: createProvider(genericBinding(origin, CANARY.credential)) }];
  for (const preset of PRESETS) {
    list.push({
      label: `mem0 ${preset}`,
      provider: createProvider(mem0Binding(preset, origin, SCOPES[preset], { writeEnabled: true, credential: CANARY.credential })),
    });
  }
  list.push({
    label: 'mem0-platform-v3 (legacy type)',
    provider: createProvider(platformBinding('repository-memory', { credential: CANARY.credential }), { platformOriginForTests: origin }),
  });
  return list;
}

const writers = (origin: string): Adapter[] => adapters(origin).filter((adapter) => adapter.provider.remember !== undefined);

/** What a fault must produce. */
interface Expected {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly write: RememberResult;
}

/** A fault played by the fake for every request. */
interface FakeFault {
  readonly name: string;
  readonly override: FakeOverride;
  /** Whether the case needs the short provider timeout. */
  readonly short?: boolean;
  readonly expected: Expected;
}

const HTML_PAGE = `<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>${CANARY.body}</h1></body></html>`;

const FAKE_FAULTS: readonly FakeFault[] = [
  {
    name: 'reset mid-body',
    override: { kind: 'reset-mid-body', partial: `{"items":[{"id":"1","content":"${CANARY.body}"` },
    expected: { kind: 'network', write: { status: 'unknown', cause: 'connection-reset' } },
  },
  {
    name: 'headers then stall',
    override: { kind: 'stall-after-headers', partial: '{"items":[' },
    short: true,
    expected: { kind: 'timeout', write: { status: 'unknown', cause: 'timeout' } },
  },
  {
    name: 'no headers at all (stall before headers)',
    override: { kind: 'stall-before-headers' },
    short: true,
    expected: { kind: 'timeout', write: { status: 'unknown', cause: 'timeout' } },
  },
  {
    name: 'endless body',
    override: { kind: 'endless', chunkBytes: 512 * 1024 },
    expected: { kind: 'oversize', write: { status: 'unknown', cause: 'response-too-large' } },
  },
  {
    name: 'slow drip past the timeout',
    override: { kind: 'chunked', chunks: ['{"items":[', ...Array.from({ length: 200 }, () => ' ')], gapMs: 25 },
    short: true,
    expected: { kind: 'timeout', write: { status: 'unknown', cause: 'timeout' } },
  },
  {
    name: 'gzip bomb (16 MiB of zeros in about 16 KiB on the wire)',
    override: { kind: 'reply', status: 200, body: new Uint8Array(gzipSync(new Uint8Array(16 * 1024 * 1024))), headers: { 'content-encoding': 'gzip' } },
    expected: { kind: 'oversize', write: { status: 'unknown', cause: 'response-too-large' } },
  },
  {
    name: 'corrupt gzip body',
    override: { kind: 'reply', status: 200, body: `not gzip ${CANARY.body}`, headers: { 'content-encoding': 'gzip' } },
    expected: { kind: 'network', write: { status: 'unknown', cause: 'connection-reset' } },
  },
  {
    name: '302 with Location',
    override: { kind: 'redirect', status: 302, body: CANARY.body },
    expected: { kind: 'redirect', status: 302, write: { status: 'unknown', cause: 'redirect 302' } },
  },
  {
    name: '307 with Location',
    override: { kind: 'redirect', status: 307 },
    expected: { kind: 'redirect', status: 307, write: { status: 'unknown', cause: 'redirect 307' } },
  },
  {
    name: '204 with no body',
    override: { kind: 'empty-204' },
    expected: { kind: 'invalid-json', write: { status: 'unknown', cause: 'invalid-json' } },
  },
  {
    name: '200 with an empty body',
    override: { kind: 'reply', status: 200, body: '' },
    expected: { kind: 'invalid-json', write: { status: 'unknown', cause: 'invalid-json' } },
  },
  {
    name: 'HTML error page with 502',
    override: { kind: 'reply', status: 502, body: HTML_PAGE, headers: { 'content-type': 'text/html' } },
    expected: { kind: 'http-status', status: 502, write: { status: 'unknown', cause: 'http-status 502' } },
  },
  {
    name: 'HTML error page with 404',
    override: { kind: 'reply', status: 404, body: HTML_PAGE, headers: { 'content-type': 'text/html' } },
    expected: { kind: 'http-status', status: 404, write: { status: 'failed', cause: 'http-status 404' } },
  },
  {
    name: 'HTML page with 200',
    override: { kind: 'reply', status: 200, body: HTML_PAGE, headers: { 'content-type': 'text/html' } },
    expected: { kind: 'invalid-json', write: { status: 'unknown', cause: 'invalid-json' } },
  },
  {
    name: '429 with Retry-After',
    override: { kind: 'reply', status: 429, json: { detail: CANARY.body }, headers: { 'retry-after': '0' } },
    expected: { kind: 'http-status', status: 429, write: { status: 'unknown', cause: 'http-status 429' } },
  },
];

const openssl = opensslTier('fault: TLS handshake failure');
registerToolGate(openssl);

let fake: FakeServer;
/** Where redirects point: it must never see a request. */
let elsewhere: FakeServer;
let deadOrigin: string;

beforeAll(async () => {
  fake = await startFakeServer();
  elsewhere = await startFakeServer({ handler: () => ({ status: 200, json: { items: [], results: [] } }) });
  const dead = await startFakeServer();
  deadOrigin = dead.origin;
  await dead.close();
});
afterAll(async () => {
  await fake.close();
  await elsewhere.close();
  await removeTempDirs();
});
beforeEach(() => {
  fake.reset();
  elsewhere.reset();
});

async function searchError(provider: BoundProvider, signal: AbortSignal): Promise<ProviderError> {
  try {
    await provider.search({ query: CANARY.query, limit: 5, signal });
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw new Error(`not a ProviderError: ${String(error)}`);
  }
  throw new Error('the search succeeded');
}

function expectStableSearchError(error: ProviderError, expected: Expected): void {
  expect(error.kind).toBe(expected.kind);
  expect(error.status).toBe(expected.status);
  expect(Object.values(PROVIDER_ERROR_MESSAGES)).toContain(error.message);
  const line = searchOperatorLine(error);
  // The search line names the same failure class as the write's cause (providers.md §1.6).
  const cause = expected.write.status === 'failed' || expected.write.status === 'unknown' ? expected.write.cause : '';
  expect(line).toBe(`external-context: context_search failed: ${cause}`);
  expectNoCanary(`${error.message}\n${line}\n${String(error.cause ?? '')}`);
}

function playEverywhere(fault: FakeFault): void {
  const override: FakeOverride = fault.override.kind === 'redirect' ? { ...fault.override, location: `${elsewhere.origin}/v1/context/search` } : fault.override;
  fake.override(override);
}

describe.each(FAKE_FAULTS.map((fault) => [fault.name, fault] as const))('fault: %s', (_name, fault) => {
  // The short timeout starts once the fake holds the request, so it never fires before it.
  const signal = (): AbortSignal => (fault.short === true ? timeoutAfterRequests(fake, fake.requests.length + 1, SHORT_TIMEOUT_MS) : AbortSignal.timeout(GUARD_MS));

  test('search: the stable error, exactly one request, nothing followed', async () => {
    for (const adapter of adapters(fake.origin)) {
      fake.reset();
      playEverywhere(fault);
      const error = await searchError(adapter.provider, signal());
      expectStableSearchError(error, fault.expected);
      expect({ adapter: adapter.label, requests: fake.requests.length }).toEqual({ adapter: adapter.label, requests: 1 });
    }
    expect(elsewhere.requests).toHaveLength(0);
  });

  test('write: the specified outcome, exactly one request, never retried', async () => {
    for (const adapter of writers(fake.origin)) {
      fake.reset();
      playEverywhere(fault);
      const remember = adapter.provider.remember;
      if (remember === undefined) throw new Error('no writer');
      const result = await remember({ content: CANARY.content, signal: signal() });
      expect({ adapter: adapter.label, result }).toEqual({ adapter: adapter.label, result: fault.expected.write });
      expect({ adapter: adapter.label, requests: fake.requests.length }).toEqual({ adapter: adapter.label, requests: 1 });
      expectNoCanary(JSON.stringify(result));
    }
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('fault: 429 with Retry-After is not retried later either', () => {
  test('one request, and still one after the Retry-After delay has passed', async () => {
    fake.override({ kind: 'reply', status: 429, json: {}, headers: { 'retry-after': '1' } });
    const [search, write] = writers(fake.origin);
    if (search === undefined || write?.provider.remember === undefined) throw new Error('no adapters');
    expectStableSearchError(await searchError(search.provider, AbortSignal.timeout(GUARD_MS)), {
      kind: 'http-status',
      status: 429,
      write: { status: 'unknown', cause: 'http-status 429' },
    });
    expect(await write.provider.remember({ content: CANARY.content, signal: AbortSignal.timeout(GUARD_MS) })).toEqual({
      status: 'unknown',
      cause: 'http-status 429',
    });
    await Bun.sleep(1200);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('fault: connection refused', () => {
  test('search: did not complete', async () => {
    for (const adapter of adapters(deadOrigin)) {
      expectStableSearchError(await searchError(adapter.provider, AbortSignal.timeout(GUARD_MS)), {
        kind: 'network',
        write: { status: 'unknown', cause: 'connection-refused' },
      });
    }
  });

  test('write: unknown', async () => {
    for (const adapter of writers(deadOrigin)) {
      const result = await adapter.provider.remember?.({ content: CANARY.content, signal: AbortSignal.timeout(GUARD_MS) });
      expect({ adapter: adapter.label, result }).toEqual({ adapter: adapter.label, result: { status: 'unknown', cause: 'connection-refused' } });
    }
  });
});

describe.skipIf(openssl.missing !== undefined)('fault: TLS handshake failure (needs the openssl command)', () => {
  let certs: TestCertificates;
  let untrusted: TlsTerminator;
  let plainAsTls: FakeServer;

  beforeAll(async () => {
    certs = await createTestCertificates();
    untrusted = await startTlsTerminator(certs.untrusted, fake.port);
    plainAsTls = await startFakeServer({ handler: () => ({ status: 200, json: { items: [], results: [] } }) });
  });
  afterAll(async () => {
    await untrusted.close();
    await plainAsTls.close();
    await certs.remove();
  });

  test('an untrusted certificate: search did not complete, one connection, no request reaches the service', async () => {
    for (const adapter of adapters(untrusted.origin)) {
      const before = untrusted.connections();
      expectStableSearchError(await searchError(adapter.provider, AbortSignal.timeout(GUARD_MS)), {
        kind: 'network',
        write: { status: 'unknown', cause: 'tls-untrusted-certificate' },
      });
      expect({ adapter: adapter.label, connections: untrusted.connections() - before }).toEqual({ adapter: adapter.label, connections: 1 });
    }
    expect(untrusted.secureConnections()).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  test('an untrusted certificate: write unknown, one connection', async () => {
    for (const adapter of writers(untrusted.origin)) {
      const before = untrusted.connections();
      const result = await adapter.provider.remember?.({ content: CANARY.content, signal: AbortSignal.timeout(GUARD_MS) });
      expect({ adapter: adapter.label, result }).toEqual({ adapter: adapter.label, result: { status: 'unknown', cause: 'tls-untrusted-certificate' } });
      expect(untrusted.connections() - before).toBe(1);
    }
    expect(fake.requests).toHaveLength(0);
  });

  test('a server that speaks no TLS: search did not complete, write unknown', async () => {
    const origin = `https://localhost:${plainAsTls.port}`;
    const [generic] = adapters(origin);
    if (generic === undefined) throw new Error('no adapter');
    expectStableSearchError(await searchError(generic.provider, AbortSignal.timeout(GUARD_MS)), {
      kind: 'network',
      write: { status: 'unknown', cause: 'tls-failure' },
    });
    for (const adapter of writers(origin)) {
      const result = await adapter.provider.remember?.({ content: CANARY.content, signal: AbortSignal.timeout(GUARD_MS) });
      expect(result).toEqual({ status: 'unknown', cause: 'tls-failure' });
    }
    // The TLS ClientHello is not an HTTP request: the service never records one.
    expect(plainAsTls.requests).toHaveLength(0);
  });
});
