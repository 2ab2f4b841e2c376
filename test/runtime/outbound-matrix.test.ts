// The outbound cases on every runtime, in one process per runtime (issue 26 §3): proxy routing,
// TLS trust, compression, redirects, failure classes and deadlines run against the product's
// outbound code directly (test/runtime/outbound-driver.ts: load the configuration, bind the
// provider, runSearch; the SDK transports' routedFetch; runtimeFetch with a decision), inside a
// driver process on Bun (the executable's runtime, from source), on Node.js and on Deno (the
// shipped bundle's build, with the base permissions). This file owns the loopback servers and
// holds every assertion; the drivers only run the cases. What each runtime reads on its own at
// start-up is the driver's environment: dead proxies in every proxy variable and NO_PROXY
// listing context.test (a runtime that routed by them itself would show), and the CA the
// runtime's own way. The one end-to-end row per runtime through the shipped builds is
// test/e2e/proxy-matrix.test.ts ('outbound-end-to-end'); the executable's full rows stay in
// test/e2e/{proxy-matrix,tls,compressed-body,failure-classes}.test.ts.
// `context.test` is never resolved in DNS: it is only ever sent through the proxy.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startSilentServer } from '../fakes/silent-server.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { startMcpServer, type TestServer } from '../gateway/mcp-test-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { createTestCertificates, opensslTier, type TestCertificates } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { DENO_BASE_PERMISSIONS, ENGINE, RUNTIME_IDS, type RuntimeId } from '../support/launchers.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { removeBuiltDrivers, startOutboundRunner, type OutboundRunner } from '../support/outbound-runner.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import type { OutboundOutcome } from './outbound-driver.ts';
import { failureHint } from '../../src/providers/failure.ts';

const ROUTING = proves('fetch-routing', ['executable', 'node-bundle', 'deno-bundle']);
const TLS = proves('tls-trust', ['executable', 'node-bundle', 'deno-bundle']);
const COMPRESSION = proves('compression', ['executable', 'node-bundle', 'deno-bundle']);
const REDIRECTS = proves('redirects', ['executable', 'node-bundle', 'deno-bundle']);
const FAILURES = proves('failure-classes', ['executable', 'node-bundle', 'deno-bundle']);
const DEADLINES = proves('deadlines', ['executable', 'node-bundle', 'deno-bundle']);
const WARMUP = proves('node-fetch-warmup', ['node-bundle']);

const LINE = 'external-context: context_search failed:';
const REFUSAL = 'Proxy environment variables are not supported on this runtime; use the standalone executable or Deno.';
const UNTRUSTED_LINE = `${LINE} tls-untrusted-certificate`;
const TIMEOUT_LINE = `${LINE} timeout`;
const KEY = CANARY.credential;
const MEMORY = { id: 'mem-1', memory: 'Use the reviewed deployment workflow.', user_id: 'u1' };
const ENVELOPE = { items: [{ id: 'doc-1', content: 'gzip answer' }] };
/** The credentials every case's environment holds (the product reads them from its environment). */
const CREDENTIALS = { MEM0_KEY: KEY, TOKEN: KEY };

const openssl = opensslTier('the outbound matrix (test CA for TLS and https://context.test)');
registerToolGate(openssl);

let certs: TestCertificates;
let mem0: Mem0ServerFake;
let trusted: TlsTerminator;
let untrusted: TlsTerminator;
let mismatched: TlsTerminator;
let proxy: ForwardProxy;
let gatewayProxy: ForwardProxy;
const stalled: Partial<Record<RuntimeId, ForwardProxy>> = {};
let mcp: TestServer;
let mcpTls: TlsTerminator;
let fake: FakeServer;
let resetting: FakeServer;
let upstream: FakeServer;
let silent: { port: number; close(): Promise<void> };
let deadPort: number;
let root: string;
const files: Record<string, string> = {};

/** The drivers: `main` trusts the test CA; the others are the TLS rows' other start-ups. */
const main: Partial<Record<RuntimeId, OutboundRunner>> = {};
/** Started without the CA; on Bun and Deno also with NODE_TLS_REJECT_UNAUTHORIZED=0 (neither reads it). */
const noCa: Partial<Record<RuntimeId, OutboundRunner>> = {};
let nodeInsecure: OutboundRunner;
let denoCert: OutboundRunner;
const allRunners = (): OutboundRunner[] => [...Object.values(main), ...Object.values(noCa), nodeInsecure, denoCert].filter((runner) => runner !== undefined);

/** Every proxy variable at a dead port and NO_PROXY naming context.test: what the runtimes see of their own. */
function runtimeOwnProxyEnv(): Record<string, string> {
  const dead = `http://127.0.0.1:${deadPort}`;
  return { HTTP_PROXY: dead, http_proxy: dead, HTTPS_PROXY: dead, https_proxy: dead, ALL_PROXY: dead, all_proxy: dead, NO_PROXY: 'context.test', no_proxy: 'context.test' };
}

/** How each runtime is told to trust the test CA. */
function trust(id: RuntimeId): Record<string, string> {
  return id === 'deno-bundle' ? { DENO_CERT: certs.caCertPath } : { NODE_EXTRA_CA_CERTS: certs.caCertPath };
}

function mem0Config(origin: string, version: 1 | 2, timeoutMs?: number): Record<string, unknown> {
  const provider = {
    type: 'mem0',
    preset: 'mem0-server-rest-2026-08',
    endpoint: { origin, ...(origin.startsWith('http://127.0.0.1') || origin.startsWith('https:') ? {} : { allowInsecureHttp: true }) },
    credentialEnv: 'MEM0_KEY',
    scope: { userId: 'u1' },
  };
  return version === 1
    ? { version: 1, ...(timeoutMs === undefined ? {} : { timeoutMs }), provider, write: { enabled: true } }
    : { version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: timeoutMs ?? 5000 } };
}

/**
 * A Generic HTTP configuration. `timeoutMs` is 1500 for the server that never answers and
 * 10000 elsewhere: a deadline no other fault comes near, so it never decides their class.
 */
const generic = (baseUrl: string, timeoutMs = 10_000) => ({ version: 1, timeoutMs, provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: 'TOKEN' } });

beforeAll(async () => {
  if (openssl.missing !== undefined) return; // every describe below is skipped, or fails under CI=true
  certs = await createTestCertificates();
  mem0 = await startMem0ServerFake({ apiKey: KEY, memories: [MEMORY] });
  trusted = await startTlsTerminator(certs.trusted, mem0.port);
  untrusted = await startTlsTerminator(certs.untrusted, mem0.port);
  proxy = await startForwardProxy({ upstreams: { 'context.test:8080': mem0.origin }, tunnels: { 'context.test:443': trusted.port } });
  for (const id of RUNTIME_IDS) stalled[id] = await startForwardProxy({ stall: true });
  mcp = startMcpServer({ tools: [{ name: 'search', description: 'Search.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
  mcpTls = await startTlsTerminator(certs.trusted, Number(new URL(mcp.url).port));
  gatewayProxy = await startForwardProxy({ tunnels: { 'context.test:443': mcpTls.port } });
  fake = await startFakeServer();
  resetting = await startFakeServer();
  resetting.override({ kind: 'reset-before-headers' });
  upstream = await startFakeServer({ handler: () => ({ status: 200, json: { items: [] } }) });
  mismatched = await startTlsTerminator(certs.mismatched, upstream.port);
  silent = await startSilentServer();
  const dead = await startFakeServer();
  deadPort = dead.port;
  await dead.close();
  const dir = await makeTempDir('ec-outbound-matrix-');
  root = path.join(dir.path, 'repo');
  mkdirSync(root);
  const configs: Record<string, unknown> = {
    http: mem0Config('http://context.test:8080', 1),
    https: mem0Config('https://context.test', 1),
    // Timeouts a loaded machine meets before the request reaches the proxy (issue 25 §1); the
    // stalled proxy never answers, so each stalled case still ends by its timeout.
    stalledHttp: mem0Config('http://context.test:8080', 1, 5000),
    stalledHttpsV2: mem0Config('https://context.test', 2, 5000),
    loop: mem0Config(mem0.origin, 1),
    otherHost: mem0Config(`http://127.0.0.2:${deadPort}`, 1, 2000),
    trusted: mem0Config(trusted.origin, 1),
    untrusted: mem0Config(untrusted.origin, 1),
    plain: generic(fake.origin),
    refused: generic(`http://127.0.0.1:${deadPort}`),
    reset: generic(resetting.origin),
    stall: generic(`http://127.0.0.1:${silent.port}`, 1500),
    dns: generic('https://external-context-test.invalid'),
    proxyFailure: generic('https://context.test'),
    mismatch: generic(mismatched.origin),
    noTls: generic(`https://localhost:${upstream.port}`),
  };
  for (const [name, config] of Object.entries(configs)) files[name] = await writeConfigFile(config, { dir: dir.path, name: `${name}.json` });
  const base = cleanEnv({ DENO_NO_UPDATE_CHECK: '1', ...runtimeOwnProxyEnv() });
  const started = await Promise.all([
    ...RUNTIME_IDS.map(async (id) => {
      main[id] = await startOutboundRunner(id, { env: { ...base, ...trust(id) }, label: id });
    }),
    ...RUNTIME_IDS.map(async (id) => {
      const insecure = id === 'node-bundle' ? {} : { NODE_TLS_REJECT_UNAUTHORIZED: '0' };
      noCa[id] = await startOutboundRunner(id, { env: { ...base, ...insecure }, label: `${id} without the CA` });
    }),
    (async () => {
      nodeInsecure = await startOutboundRunner('node-bundle', { env: { ...base, NODE_TLS_REJECT_UNAUTHORIZED: '0' }, label: 'node-bundle with NODE_TLS_REJECT_UNAUTHORIZED=0' });
    })(),
    (async () => {
      denoCert = await startOutboundRunner('deno-bundle', { env: base, denoPermissions: [...DENO_BASE_PERMISSIONS, '--cert', certs.caCertPath], label: 'deno run --cert' });
    })(),
  ]);
  expect(started).toHaveLength(2 * RUNTIME_IDS.length + 2);
}, LIVENESS_MS);

afterAll(async () => {
  await Promise.all(allRunners().map((runner) => runner.close()));
  removeBuiltDrivers();
  for (const closable of [proxy, gatewayProxy, ...Object.values(stalled), trusted, untrusted, mismatched, mcpTls, mem0, fake, resetting, upstream, silent]) await closable?.close();
  await mcp?.close();
  await certs?.remove();
  await removeTempDirs();
});

beforeEach(() => {
  if (openssl.missing !== undefined) return;
  mem0.reset();
  fake.reset();
  for (const forward of [proxy, gatewayProxy]) forward.requests.length = 0;
});

const viaProxy = (url: string): Record<string, string> => ({ HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url });
const requestLines = (forward: ForwardProxy): string[] => forward.requests.map((request) => `${request.method} ${request.target}`);
const search = (runner: OutboundRunner, config: string, env: Record<string, string> = {}): Promise<OutboundOutcome> =>
  runner.run({ op: 'search', config: files[config] as string, query: CANARY.query, env: { ...CREDENTIALS, ...env } });
const labelled = (runner: OutboundRunner, outcome: unknown): unknown => ({ runner: runner.label, outcome });
const refused = (runner: OutboundRunner) => labelled(runner, { status: 'config-error', message: REFUSAL });
const failed = (runner: OutboundRunner, line: string | RegExp) =>
  labelled(runner, { status: 'failed', line: typeof line === 'string' ? line : (expect.stringMatching(line) as unknown as string), hint: expect.stringMatching(/\S/) as unknown as string });
const driver = (id: RuntimeId): OutboundRunner => main[id] as OutboundRunner;
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

for (const id of RUNTIME_IDS) {
  const node = id === 'node-bundle';

  describe.skipIf(openssl.missing !== undefined)(`outbound on the ${id}`, () => {
    test(`http://context.test:8080 through the proxy: one absolute-form request line, the credential to the provider only; Node.js refuses ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const outcome = await search(runner, 'http', viaProxy(proxy.url));
      if (node) {
        expect(labelled(runner, outcome)).toEqual(refused(runner));
        expect(proxy.requests).toEqual([]);
        return;
      }
      expect(labelled(runner, outcome)).toEqual(labelled(runner, expect.objectContaining({ status: 'ok' })));
      expect(JSON.stringify(outcome)).toContain(MEMORY.memory);
      expect(requestLines(proxy)).toEqual(['POST http://context.test:8080/search']);
      expect(mem0.requests).toHaveLength(1);
      expect(mem0.requests[0]?.headers['x-api-key']).toBe(KEY);
      expect(proxy.requests[0]?.headers['proxy-authorization']).toBeUndefined();
    });

    test(`https://context.test through the proxy: CONNECT context.test:443 and the tunnelled TLS search succeeds ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const outcome = await search(runner, 'https', viaProxy(proxy.url));
      if (node) {
        expect(labelled(runner, outcome)).toEqual(refused(runner));
        return;
      }
      expect(JSON.stringify(outcome)).toContain(MEMORY.memory);
      expect(requestLines(proxy)).toEqual(['CONNECT context.test:443']);
      expect(mem0.requests).toHaveLength(1);
    });

    test(`a search and a write on one proxied client: one request each through the proxy ${ROUTING(id)}`, async () => {
      if (node) return; // the refusal is the first case's
      const runner = driver(id);
      const found = await search(runner, 'http', viaProxy(proxy.url));
      expect(labelled(runner, found.status)).toEqual(labelled(runner, 'ok'));
      const written = await runner.run({ op: 'remember', config: files['http'] as string, content: 'Deploy on Tuesdays.', env: { ...CREDENTIALS, ...viaProxy(proxy.url) } });
      expect(labelled(runner, written)).toEqual(labelled(runner, { status: 'remembered', result: expect.objectContaining({ status: 'stored' }) }));
      expect(requestLines(proxy)).toEqual(['POST http://context.test:8080/search', 'POST http://context.test:8080/memories']);
    });

    test(`NO_PROXY ".test" in either spelling makes both context.test origins direct (and lifts the Node.js refusal) ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      for (const [url, variable] of [
        ['http://context.test:8080', 'NO_PROXY'],
        ['https://context.test', 'no_proxy'],
        ['http://context.test:8080', 'no_proxy'],
        ['https://context.test', 'NO_PROXY'],
      ] as const) {
        const outcome = await runner.run({ op: 'decide', url, env: { ...viaProxy(proxy.url), [variable]: '.test' } });
        expect(labelled(runner, { url, variable, outcome })).toEqual(labelled(runner, { url, variable, outcome: { status: 'route', mode: 'direct' } }));
      }
    });

    test(`Node's own environment-proxy mode (NODE_USE_ENV_PROXY=1) is refused on Node.js even for a loopback target, and means nothing elsewhere ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const outcome = await runner.run({ op: 'decide', url: mem0.origin, env: { NODE_USE_ENV_PROXY: '1' } });
      expect(labelled(runner, outcome)).toEqual(node ? refused(runner) : labelled(runner, { status: 'route', mode: 'direct' }));
    });

    test(`a NO_PROXY host is fetched directly at run time (an unreachable non-loopback address), an unlisted one through the proxy ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const bypassed = await search(runner, 'otherHost', { ...viaProxy(proxy.url), NO_PROXY: 'example.com, 127.0.0.2' });
      // Fetched directly, so never proxy-failure: whatever the unreachable address answers.
      expect(labelled(runner, bypassed)).toEqual(failed(runner, /^external-context: context_search failed: (connection-refused|timeout|connection-reset)$/));
      expect(proxy.requests).toEqual([]);
      const routed = await search(runner, 'otherHost', { ...viaProxy(proxy.url), NO_PROXY: 'example.com' });
      if (node) {
        expect(labelled(runner, routed)).toEqual(refused(runner));
        expect(proxy.requests).toEqual([]);
        return;
      }
      // The proxy has no upstream for it and answers 502: the request did reach the proxy.
      expect(labelled(runner, routed)).toEqual(failed(runner, `${LINE} http-status 502`));
      expect(requestLines(proxy)).toEqual([`POST http://127.0.0.2:${deadPort}/search`]);
    });

    test(`loopback targets go direct while every proxy variable names a dead port: a search and the SDK transport's routed fetch ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const dead = { ...viaProxy(`http://127.0.0.1:${deadPort}`), ALL_PROXY: `http://127.0.0.1:${deadPort}`, NO_PROXY: '' };
      const found = await search(runner, 'loop', dead);
      expect(labelled(runner, found.status)).toEqual(labelled(runner, 'ok'));
      expect(JSON.stringify(found)).toContain(MEMORY.memory);
      expect(mem0.requests).toHaveLength(1);
      const mcpAnswer = await runner.run({ op: 'routed-fetch', url: mcp.url, body: INITIALIZE, headers: MCP_HEADERS, env: dead });
      expect(labelled(runner, mcpAnswer)).toEqual(labelled(runner, expect.objectContaining({ status: 'answered', code: 200 })));
    });

    test(`the SDK transport's routed fetch to https://context.test/mcp is tunnelled with CONNECT ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const answer = await runner.run({ op: 'routed-fetch', url: 'https://context.test/mcp', body: INITIALIZE, headers: MCP_HEADERS, env: viaProxy(gatewayProxy.url) });
      if (node) {
        expect(labelled(runner, answer)).toEqual(refused(runner));
        expect(gatewayProxy.requests).toEqual([]);
        return;
      }
      expect(labelled(runner, answer)).toEqual(labelled(runner, expect.objectContaining({ status: 'answered', code: 200 })));
      expect(requestLines(gatewayProxy)).toEqual(['CONNECT context.test:443']);
    });

    test(`runtimeFetch with a proxy decision: credentials in the proxy URL become proxy-authorization, never reach the upstream; Node.js refuses the decision ${ROUTING(id)}`, async () => {
      const runner = driver(id);
      const proxyUrl = proxy.url.replace('http://', 'http://user:canary-pass@');
      const answer = await runner.run({ op: 'runtime-fetch', url: 'http://context.test:8080/auth', route: { mode: 'proxy', proxyUrl } });
      if (node) {
        expect(labelled(runner, answer)).toEqual(labelled(runner, { status: 'rejected', failureClass: undefined }));
        expect(proxy.requests).toEqual([]);
        return;
      }
      expect(labelled(runner, answer.status)).toEqual(labelled(runner, 'answered'));
      expect(requestLines(proxy)).toEqual(['POST http://context.test:8080/auth']);
      expect(proxy.requests[0]?.headers['proxy-authorization']).toBe(`Basic ${btoa('user:canary-pass')}`);
      expect(JSON.stringify(mem0.requests[0]?.headers)).not.toContain('canary-pass');
    });

    test(`trusted: the CA given the runtime's way is trusted, one request; with deno run --cert too ${TLS(id)}`, async () => {
      const failuresBefore = trusted.handshakeFailures();
      for (const runner of id === 'deno-bundle' ? [driver(id), denoCert] : [driver(id)]) {
        mem0.reset();
        const outcome = await search(runner, 'trusted');
        expect(labelled(runner, outcome.status)).toEqual(labelled(runner, 'ok'));
        expect(JSON.stringify(outcome)).toContain(MEMORY.memory);
        expect(labelled(runner, mem0.requests.length)).toEqual(labelled(runner, 1));
      }
      expect(trusted.handshakeFailures() - failuresBefore).toBe(0);
    });

    test(`untrusted certificate: the stable class and hint, one connection, nothing reaches the service ${TLS(id)}`, async () => {
      for (const runner of id === 'deno-bundle' ? [driver(id), denoCert] : [driver(id)]) {
        const before = untrusted.connections();
        const outcome = await search(runner, 'untrusted');
        expect(labelled(runner, outcome)).toEqual(failed(runner, UNTRUSTED_LINE));
        // The hint names the CA options of the runtime it runs on (Deno's differ): the one proof of
        // that per bundle, since test/e2e/conformance-failures.test.ts runs on the executable only.
        expect(labelled(runner, outcome.status === 'failed' ? outcome.hint : '')).toEqual(labelled(runner, failureHint('tls-untrusted-certificate', { runtime: ENGINE[id] })));
        expect(labelled(runner, untrusted.connections() - before)).toEqual(labelled(runner, 1));
        expectNoCanary(JSON.stringify(outcome));
      }
      expect(untrusted.secureConnections()).toBe(0);
      expect(mem0.requests).toHaveLength(0);
    });

    test(`a trusted server whose CA the runtime was not given fails closed the same way ${TLS(id)}`, async () => {
      const runner = noCa[id] as OutboundRunner;
      expect(labelled(runner, await search(runner, 'trusted'))).toEqual(failed(runner, UNTRUSTED_LINE));
      expect(mem0.requests).toHaveLength(0);
    });

    // Regression (issue 11): NODE_TLS_REJECT_UNAUTHORIZED=0 made the executable and Node.js accept
    // the untrusted certificate and send the credential (Node.js also printed a warning on the
    // Hook's stderr). Node.js refuses before connecting (tls-failure); Bun and Deno verify.
    test(`NODE_TLS_REJECT_UNAUTHORIZED=0 in the runtime's environment never turns certificate checks off ${TLS(id)}`, async () => {
      const runner = node ? nodeInsecure : (noCa[id] as OutboundRunner);
      expect(labelled(runner, await search(runner, 'untrusted'))).toEqual(failed(runner, node ? `${LINE} tls-failure` : UNTRUSTED_LINE));
      expect(mem0.requests).toHaveLength(0);
    });

    test.each(['gzip', 'br', 'deflate'])(`a corrupt %s body did not complete (Deno may read it as undecoded bytes: invalid-json) ${COMPRESSION(id)}`, async (coding) => {
      const runner = driver(id);
      fake.override({ kind: 'reply', status: 200, body: 'this is not compressed', headers: { 'content-encoding': coding } });
      expect(labelled(runner, await search(runner, 'plain'))).toEqual(failed(runner, /^external-context: context_search failed: (connection-reset|invalid-json)$/));
    });

    test(`a small gzip body that decodes past 1 MiB is response-too-large: its content-length never frames the decoded read ${COMPRESSION(id)}`, async () => {
      const runner = driver(id);
      const bomb = new Uint8Array(gzipSync(JSON.stringify({ items: [{ id: 'doc-1', content: 'x'.repeat(2 * 1_048_576) }] })));
      expect(bomb.byteLength).toBeLessThan(16_384);
      fake.override({ kind: 'reply', status: 200, body: bomb, headers: { 'content-encoding': 'gzip', 'content-length': String(bomb.byteLength) } });
      expect(labelled(runner, await search(runner, 'plain'))).toEqual(failed(runner, `${LINE} response-too-large`));
    });

    test(`a well-formed gzip body is decoded ${COMPRESSION(id)}`, async () => {
      const runner = driver(id);
      fake.override({ kind: 'reply', status: 200, body: new Uint8Array(gzipSync(JSON.stringify(ENVELOPE))), headers: { 'content-encoding': 'gzip' } });
      const outcome = await search(runner, 'plain');
      expect(labelled(runner, outcome.status)).toEqual(labelled(runner, 'ok'));
      expect(outcome.status === 'ok' ? outcome.text : '').toContain('"content":"gzip answer"');
    });

    test(`a 3xx is never followed: one request, a redirect failure with its status ${REDIRECTS(id)}`, async () => {
      const runner = driver(id);
      fake.override({ kind: 'redirect', status: 302, location: `${fake.origin}/elsewhere` });
      expect(labelled(runner, await search(runner, 'plain'))).toEqual(failed(runner, `${LINE} redirect 302`));
      expect(fake.requests.map((request) => request.path)).toEqual(['/v1/context/search']);
    });

    test(`each loopback fault gets its own class and a hint, and no outcome carries the credential or query ${FAILURES(id)}`, async () => {
      const runner = driver(id);
      const proxied = { HTTPS_PROXY: `http://proxy-user:${CANARY.credential}@127.0.0.1:${deadPort}` };
      const cases: [string, string | RegExp, Record<string, string>?][] = [
        ['refused', `${LINE} connection-refused`],
        ['reset', `${LINE} connection-reset`],
        ['dns', `${LINE} dns-failure`],
        ['untrusted', UNTRUSTED_LINE],
        ['mismatch', `${LINE} tls-hostname-mismatch`],
        // Plain HTTP where HTTPS is expected: never a certificate class.
        ['noTls', /^external-context: context_search failed: (tls-failure|connection-reset)$/],
        ['proxyFailure', `${LINE} proxy-failure HTTPS_PROXY`, proxied],
      ];
      const outcomes = await Promise.all(cases.map(([config, , env]) => search(runner, config, env)));
      cases.forEach(([config, line], index) => {
        const outcome = outcomes[index];
        // Node.js refuses an applicable proxy before any request.
        const expected = node && config === 'proxyFailure' ? refused(runner) : failed(runner, line);
        expect({ config, outcome: labelled(runner, outcome) }).toEqual({ config, outcome: expected });
        expectNoCanary(JSON.stringify(outcome));
      });
    });
  });
}

describe.concurrent.skipIf(openssl.missing !== undefined)('deadlines: each runtime waits out its own stalls side by side', () => {
  for (const id of RUNTIME_IDS) {
    test(
      `a server that never answers and (Bun, Deno) a proxy that never answers a request or a CONNECT end in the timeout class ${DEADLINES(id)}`,
      async () => {
        const runner = driver(id);
        const stall = stalled[id] as ForwardProxy;
        const routes = id !== 'node-bundle';
        const [silentOutcome, proxiedHttp, proxiedConnect] = await Promise.all([
          search(runner, 'stall'),
          routes ? search(runner, 'stalledHttp', viaProxy(stall.url)) : undefined,
          routes ? search(runner, 'stalledHttpsV2', viaProxy(stall.url)) : undefined,
        ]);
        expect(labelled(runner, silentOutcome)).toEqual(failed(runner, TIMEOUT_LINE));
        if (!routes) return;
        expect(labelled(runner, proxiedHttp)).toEqual(failed(runner, TIMEOUT_LINE));
        expect(labelled(runner, proxiedConnect)).toEqual(failed(runner, TIMEOUT_LINE));
        expect(requestLines(stall).sort()).toEqual(['CONNECT context.test:443', 'POST http://context.test:8080/search']);
      },
      LIVENESS_MS,
    );
  }
});

// Node.js only (issue 25 §1, nodejs/node#57736): each test starts its own Node.js driver with
// a preload, so what the preload changes stays out of the other cases.
describe('the deadline under Node.js', () => {
  /** Collects garbage every 20 ms inside the driver process. */
  const GC_PRELOAD = 'data:text/javascript,setInterval(()=>globalThis.gc(),20).unref()';
  /** The configured timeout: a distinct value, so the event preload recognises its timer. */
  const DEADLINE_MS = 29_999;
  /**
   * Records, in order, when Node's first `fetch` (the start-up `data:` fetch of
   * prepareRuntimeFetch) starts and settles, when a timer of DEADLINE_MS is armed, and when the
   * provider request is sent, and writes the list to stderr at exit. The claim "the timeout
   * starts when the request is sent" is then an order of events, whatever the machine's speed
   * (issue 25 §1: a 300 ms timeout against 400 ms of start-up failed on a loaded machine).
   */
  const EVENT_LOG = `data:text/javascript,${encodeURIComponent(
    [
      'const events=[];const f=globalThis.fetch;let first=true;',
      "globalThis.fetch=function(...a){if(first){first=false;events.push('start-up fetch starts');return f.apply(this,a).then((r)=>{events.push('start-up fetch settles');return r})}",
      "events.push('provider request sent');return f.apply(this,a)};",
      `const t=globalThis.setTimeout;globalThis.setTimeout=function(fn,ms,...r){if(ms===${DEADLINE_MS})events.push('deadline armed');return t.call(this,fn,ms,...r)};`,
      "process.on('exit',()=>process.stderr.write('EVENTS '+JSON.stringify(events)+String.fromCharCode(10)));",
    ].join(''),
  )}`;

  test(
    `with constant garbage collection a stalled provider still fails both concurrent searches after the timeout (liveness) ${WARMUP('node-bundle')}`,
    async () => {
      const stall = await startFakeServer();
      const runner = await startOutboundRunner('node-bundle', { env: cleanEnv(), runtimeArgs: ['--expose-gc', `--import=${GC_PRELOAD}`], label: 'node-bundle under constant GC' });
      try {
        stall.override({ kind: 'stall-before-headers' });
        const config = await writeConfigFile({ version: 1, timeoutMs: 300, provider: { type: 'generic-http-search-v1', baseUrl: stall.origin, tokenEnv: 'TOKEN' } });
        // A second search while the first is pending keeps other work running during the stall.
        const outcomes = await Promise.all(['stalled one', 'stalled two'].map((query) => runner.run({ op: 'search', config, query, env: CREDENTIALS, callerSignal: true })));
        for (const outcome of outcomes) expect(labelled(runner, outcome)).toEqual(failed(runner, TIMEOUT_LINE));
      } finally {
        expect(await runner.close()).toBe(0);
        await stall.close();
      }
      expect(runner.stderr()).toBe('');
    },
    LIVENESS_MS,
  );

  test(
    `the deadline is armed after the fetch start-up and before the request is sent (providers.md §1.4) ${WARMUP('node-bundle')}`,
    async () => {
      const answering = await startFakeServer({ handler: () => ({ status: 200, json: { items: [{ id: 'doc-1', content: 'Deploys need two approvals.' }] } }) });
      const runner = await startOutboundRunner('node-bundle', { env: cleanEnv(), runtimeArgs: [`--import=${EVENT_LOG}`], label: 'node-bundle with the event log' });
      try {
        const config = await writeConfigFile({ version: 1, timeoutMs: DEADLINE_MS, provider: { type: 'generic-http-search-v1', baseUrl: answering.origin, tokenEnv: 'TOKEN' } });
        const outcome = await runner.run({ op: 'search', config, query: 'approvals', env: CREDENTIALS, callerSignal: true });
        expect(outcome.status === 'ok' ? outcome.text : JSON.stringify(outcome)).toContain('Deploys need two approvals.');
      } finally {
        expect(await runner.close()).toBe(0);
        await answering.close();
      }
      const line = runner
        .stderr()
        .split('\n')
        .find((text) => text.startsWith('EVENTS '));
      expect(JSON.parse(line?.slice('EVENTS '.length) ?? 'null')).toEqual(['start-up fetch starts', 'start-up fetch settles', 'deadline armed', 'provider request sent']);
    },
    LIVENESS_MS,
  );
});

describe.skipIf(openssl.missing !== undefined)('what the runtimes did on their own', () => {
  test('every driver put its own proxy variables back and wrote nothing on stderr (no decompression error, no TLS warning)', async () => {
    const expected = Object.fromEntries(Object.entries(runtimeOwnProxyEnv()).map(([name, value]) => [name, value]));
    for (const runner of allRunners()) {
      expect(labelled(runner, await runner.run({ op: 'proxy-env' }))).toEqual(labelled(runner, { status: 'env', values: expected }));
      expect(labelled(runner, runner.stderr())).toEqual(labelled(runner, ''));
    }
  });
});
