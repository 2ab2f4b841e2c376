// createProvider(): the only switch on provider.type, and the construction-time checks
// (origin policy, basePath, proxy) that surface as startup errors (config.md §6 step 6, §12).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { PROXY_ENVIRONMENT_INVALID_MESSAGE, PROXY_UNSUPPORTED_RUNTIME_MESSAGE } from '../../src/providers/proxy.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { CANARY_CREDENTIAL, genericBinding, mem0Binding, platformBinding, testSignal } from '../support/provider-bindings.ts';
import { thrownBy } from '../support/thrown-error.ts';

const NODE = { name: 'node', execArgv: [] } as const;
const BUN = { name: 'bun', execArgv: [] } as const;

function configError(run: () => unknown): ConfigError {
  return thrownBy(ConfigError, run);
}

describe('createProvider()', () => {
  test('dispatches on provider.type', () => {
    expect(createProvider(genericBinding('https://search.example')).searchUrl).toBe('https://search.example/v1/context/search');
    expect(createProvider(platformBinding('app')).searchUrl).toBe('https://api.mem0.ai/v3/memories/search/');
    const mem0 = createProvider(mem0Binding('mem0-server-rest-2026-08', 'https://m.example', { userId: 'u1' }, { basePath: '/mem0' }));
    expect(mem0.searchUrl).toBe('https://m.example/mem0/search');
    expect(mem0.writeUrl).toBe('https://m.example/mem0/memories');
  });

  test('origin-policy and basePath errors carry their field suffix', () => {
    expect(configError(() => createProvider(genericBinding('http://search.example'))).fieldPath).toBe('provider.baseUrl');
    expect(configError(() => createProvider(mem0Binding('polardb-mysql-2026-08', 'ftp://m.example', { userId: 'u1' }))).message).toBe(
      'Provider URL must use HTTPS or loopback HTTP. Field: provider.endpoint.origin.',
    );
    expect(configError(() => createProvider(mem0Binding('polardb-mysql-2026-08', 'https://m.example', { userId: 'u1' }, { basePath: '/a b' }))).message).toBe(
      'External context Mem0 endpoint basePath is invalid: it must not contain whitespace. Field: provider.endpoint.basePath.',
    );
  });

  test('reports the route without the proxy URL', () => {
    const env = { HTTPS_PROXY: 'http://user:canary-pass@proxy.internal:3128' };
    const proxied = createProvider(genericBinding('https://search.example'), { env, runtime: BUN });
    expect(proxied.proxy).toBe('proxied');
    expect(JSON.stringify(proxied)).not.toContain('canary-pass');
    expect(createProvider(genericBinding('http://127.0.0.1:8787'), { env: { HTTP_PROXY: 'http://127.0.0.1:9' }, runtime: BUN }).proxy).toBe('direct');
    expect(createProvider(platformBinding('app'), { env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'mem0.ai' }, runtime: BUN }).proxy).toBe('direct');
  });

  test('an invalid proxy variable and a proxy on Node.js are construction errors', () => {
    expect(configError(() => createProvider(genericBinding('https://search.example'), { env: { HTTPS_PROXY: 'bogus' } })).message).toBe(PROXY_ENVIRONMENT_INVALID_MESSAGE);
    const refused = configError(() => createProvider(platformBinding('app'), { env: { HTTPS_PROXY: 'http://p:1' }, runtime: NODE }));
    expect(refused.message).toBe(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
    expect(createProvider(genericBinding('http://localhost:8787'), { env: { HTTP_PROXY: 'http://p:1' }, runtime: NODE }).proxy).toBe('direct');
  });
});

describe('createProvider() routing on Bun through a forward proxy', () => {
  let fake: Mem0ServerFake;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    fake = await startMem0ServerFake({ routes: 'polardb', apiKey: CANARY_CREDENTIAL, memories: [{ id: 'm1', memory: 'Via proxy.', user_id: 'u1' }] });
    proxy = await startForwardProxy({ upstreams: { 'context.test:8080': fake.origin } });
  });
  afterAll(async () => {
    await proxy.close();
    await fake.close();
  });

  test('a mem0 origin http://context.test:8080 reaches the proxy in absolute form, one request', async () => {
    const binding = mem0Binding('polardb-mysql-2026-08', 'http://context.test:8080', { userId: 'u1' }, { allowInsecureHttp: true });
    const provider = createProvider(binding, { env: { HTTP_PROXY: proxy.url } });
    expect(provider.proxy).toBe('proxied');
    const items = await provider.search({ query: 'q', limit: 5, signal: testSignal() });
    expect(items).toEqual([{ id: 'm1', content: 'Via proxy.', score: 0.8 }]);
    expect(proxy.requests.map((r) => `${r.method} ${r.target}`)).toEqual(['POST http://context.test:8080/v2/memories/search']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers['authorization']).toBe(`Token ${CANARY_CREDENTIAL}`);
  });
});
