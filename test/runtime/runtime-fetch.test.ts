// runtimeFetch() on Bun: a direct decision goes direct although proxy variables are set, a
// proxy decision reaches the forward proxy whatever NO_PROXY says (config.md §12, §14).
// Bun reads the proxy variables from process.env itself, so these tests set them there.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import process from 'node:process';
import { runtimeFetch } from '../../src/runtime/runtime-fetch.ts';
import { fetchNode } from '../../src/runtime/fetch-node.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';

const PROXY_NAMES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'];
let saved: Record<string, string | undefined>;
let fake: FakeServer;
let proxy: ForwardProxy;
let deadPort: number;

beforeAll(async () => {
  fake = await startFakeServer({ handler: () => ({ status: 200, json: { via: 'upstream' } }) });
  proxy = await startForwardProxy({ upstreams: { 'context.test:8080': fake.origin } });
  const dead = await startFakeServer();
  deadPort = dead.port;
  await dead.close();
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});
beforeEach(() => {
  saved = Object.fromEntries(PROXY_NAMES.map((name) => [name, process.env[name]]));
  fake.reset();
  proxy.requests.length = 0;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const init = (): RequestInit => ({ method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(20000) });

describe('runtimeFetch() on Bun', () => {
  test('a loopback target is reached directly while HTTP_PROXY points at a dead port', async () => {
    process.env['HTTP_PROXY'] = `http://127.0.0.1:${deadPort}`;
    process.env['http_proxy'] = `http://127.0.0.1:${deadPort}`;
    const response = await runtimeFetch(`${fake.origin}/search`, init(), { mode: 'direct' });
    expect(await response.json()).toEqual({ via: 'upstream' });
    expect(fake.requests).toHaveLength(1);
  });

  test('a direct decision never reaches a live proxy named by every proxy variable', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy']) process.env[name] = proxy.url;
    process.env['NO_PROXY'] = 'other.example';
    await (await runtimeFetch(`${fake.origin}/a`, init(), { mode: 'direct' })).text();
    expect(proxy.requests).toEqual([]);
    expect(fake.requests.map((r) => r.path)).toEqual(['/a']);
  });

  test('a proxy decision reaches the proxy in absolute form even when NO_PROXY lists the host', async () => {
    process.env['NO_PROXY'] = 'context.test,*';
    process.env['no_proxy'] = '.test';
    const response = await runtimeFetch('http://context.test:8080/v2/memories/search', init(), { mode: 'proxy', proxyUrl: proxy.url });
    expect(await response.json()).toEqual({ via: 'upstream' });
    expect(proxy.requests.map((r) => `${r.method} ${r.target}`)).toEqual(['POST http://context.test:8080/v2/memories/search']);
    expect(fake.requests).toHaveLength(1);
  });

  test('an https target through the proxy is a CONNECT context.test:443', async () => {
    await expect(runtimeFetch('https://context.test/v3/memories/search/', init(), { mode: 'proxy', proxyUrl: proxy.url })).rejects.toThrow();
    expect(proxy.requests.map((r) => `${r.method} ${r.target}`)).toEqual(['CONNECT context.test:443']);
  });

  test('credentials in the proxy URL become proxy-authorization and never reach the upstream', async () => {
    const proxyUrl = proxy.url.replace('http://', 'http://user:canary-pass@');
    await (await runtimeFetch('http://context.test:8080/x', init(), { mode: 'proxy', proxyUrl })).text();
    expect(proxy.requests[0]?.headers['proxy-authorization']).toBe(`Basic ${btoa('user:canary-pass')}`);
    expect(JSON.stringify(fake.requests[0]?.headers)).not.toContain('canary-pass');
  });

  test('the process environment is restored after each call', async () => {
    process.env['NO_PROXY'] = 'keep.example';
    delete process.env['no_proxy'];
    await (await runtimeFetch(`${fake.origin}/a`, init(), { mode: 'direct' })).text();
    await (await runtimeFetch('http://context.test:8080/b', init(), { mode: 'proxy', proxyUrl: proxy.url })).text();
    expect(process.env['NO_PROXY']).toBe('keep.example');
    expect(process.env['no_proxy']).toBeUndefined();
  });
});

describe('fetchNode()', () => {
  test('refuses a proxy decision (decideProxy never returns one on Node.js)', async () => {
    await expect(fetchNode('http://context.test:8080/', init(), { mode: 'proxy', proxyUrl: proxy.url })).rejects.toThrow();
    expect(proxy.requests).toEqual([]);
  });
});
