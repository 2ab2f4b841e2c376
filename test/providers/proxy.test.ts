// decideProxy() and validateProxyEnvironment(): the config.md §12 decision table.
import { describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { decideProxy, PROXY_ENVIRONMENT_INVALID_MESSAGE, PROXY_UNSUPPORTED_RUNTIME_MESSAGE, validateProxyEnvironment, type ProxyEnvironment } from '../../src/providers/proxy.ts';
import type { ProxyRuntime } from '../../src/runtime/proxy-runtime.ts';
import { thrownBy } from '../support/thrown-error.ts';

const BUN: ProxyRuntime = { name: 'bun', execArgv: [] };
const DENO: ProxyRuntime = { name: 'deno', execArgv: [] };
const NODE: ProxyRuntime = { name: 'node', execArgv: [] };
const P = 'http://proxy.internal:3128';
const PS = 'https://user:canary-pass@secure-proxy.internal:3129';

const decide = (url: string, env: ProxyEnvironment, runtime: ProxyRuntime = BUN): string => {
  const decision = decideProxy(url, env, runtime);
  return decision.mode === 'direct' ? 'direct' : decision.proxyUrl;
};

function configError(run: () => unknown): ConfigError {
  return thrownBy(ConfigError, run);
}

describe('decideProxy() variable selection', () => {
  test('no proxy variables: direct', () => {
    expect(decide('https://memory.example', {})).toBe('direct');
  });

  test('https targets use HTTPS_PROXY, http targets HTTP_PROXY', () => {
    const env = { HTTPS_PROXY: PS, HTTP_PROXY: P };
    expect(decide('https://memory.example/v3/memories/search/', env)).toBe(PS);
    expect(decide('http://context.test:8080/search', env)).toBe(P);
    expect(decide('https://memory.example', { HTTP_PROXY: P })).toBe('direct');
    expect(decide('http://memory.example', { HTTPS_PROXY: PS })).toBe('direct');
  });

  test('the lowercase spelling wins when both are set', () => {
    expect(decide('http://context.test', { HTTP_PROXY: 'http://upper.internal:1', http_proxy: P })).toBe(P);
    expect(decide('https://context.test', { HTTPS_PROXY: 'http://upper.internal:1', https_proxy: PS })).toBe(PS);
  });

  test('an empty value counts as unset, so the other spelling applies', () => {
    expect(decide('http://context.test', { http_proxy: '', HTTP_PROXY: P })).toBe(P);
    expect(decide('http://context.test', { http_proxy: '', HTTP_PROXY: '' })).toBe('direct');
    expect(decide('http://context.test', { HTTP_PROXY: P, no_proxy: '', NO_PROXY: 'context.test' })).toBe('direct');
  });

  test('inherited (prototype) values are never read', () => {
    const env = Object.create({ HTTP_PROXY: P, NO_PROXY: '*' }) as ProxyEnvironment;
    expect(decide('http://context.test', env)).toBe('direct');
    const own = Object.assign(Object.create({ NO_PROXY: '*' }) as Record<string, string>, { HTTP_PROXY: P });
    expect(decide('http://context.test', own)).toBe(P);
  });
});

describe('decideProxy() loopback', () => {
  test.each(['http://localhost:8080', 'http://127.0.0.1:8787', 'http://[::1]:8080', 'https://localhost'])('%s is never proxied, even without NO_PROXY', (url) => {
    const env = { HTTP_PROXY: P, HTTPS_PROXY: PS, http_proxy: P, https_proxy: PS };
    expect(decide(url, env)).toBe('direct');
    expect(decide(url, env, NODE)).toBe('direct');
    expect(decide(url, env, DENO)).toBe('direct');
  });

  test('other loopback spellings are not special', () => {
    expect(decide('http://127.0.0.2:8080', { HTTP_PROXY: P })).toBe(P);
  });
});

describe('decideProxy() NO_PROXY', () => {
  const cases: readonly (readonly [string, string, 'direct' | 'proxy'])[] = [
    ['*', 'http://context.test:8080', 'direct'],
    [' * ', 'http://context.test:8080', 'direct'],
    ['other.example, * ', 'http://context.test:8080', 'direct'],
    ['example.com', 'http://example.com', 'direct'],
    ['example.com', 'http://api.example.com', 'direct'],
    ['example.com', 'http://a.b.example.com', 'direct'],
    ['.example.com', 'http://example.com', 'direct'],
    ['.example.com', 'http://api.example.com', 'direct'],
    ['example.com', 'http://notexample.com', 'proxy'],
    ['example.com', 'http://example.com.evil', 'proxy'],
    ['EXAMPLE.COM', 'http://api.example.com', 'direct'],
    ['  example.com  ,other.test', 'http://other.test', 'direct'],
    ['.test', 'http://context.test:8080', 'direct'],
    ['example.com:8080', 'http://example.com:8080', 'direct'],
    ['example.com:8080', 'http://example.com:9090', 'proxy'],
    ['example.com:80', 'http://example.com', 'direct'],
    ['example.com:443', 'https://example.com', 'direct'],
    ['example.com:443', 'http://example.com', 'proxy'],
    ['192.0.2.10', 'http://192.0.2.10:8080', 'direct'],
    ['192.0.2.10', 'http://192.0.2.100', 'proxy'],
    ['2.10', 'http://192.0.2.10', 'proxy'],
    ['192.0.2.10:8080', 'http://192.0.2.10:8080', 'direct'],
    ['192.0.2.10:8080', 'http://192.0.2.10:8081', 'proxy'],
    ['[2001:db8::1]', 'http://[2001:db8::1]:8080', 'direct'],
    ['[2001:db8::1]:8080', 'http://[2001:db8::1]:8080', 'direct'],
    ['[2001:db8::1]:8080', 'http://[2001:db8::1]:9090', 'proxy'],
    ['[2001:db8:0:0:0:0:0:1]', 'http://[2001:db8::1]', 'direct'],
    ['2001:db8::1', 'http://[2001:db8::1]', 'proxy'],
    ['192.0.2.0/24', 'http://192.0.2.10', 'proxy'],
    ['example.com/path', 'http://example.com', 'proxy'],
    ['', 'http://context.test', 'proxy'],
    [',,', 'http://context.test', 'proxy'],
    ['*.example.com', 'http://api.example.com', 'proxy'],
  ];
  test.each(cases)('NO_PROXY=%j with %s → %s', (noProxy, url, expected) => {
    const decision = decide(url, { HTTP_PROXY: P, HTTPS_PROXY: PS, NO_PROXY: noProxy });
    expect(decision === 'direct' ? 'direct' : 'proxy').toBe(expected);
  });

  test('lowercase no_proxy wins over NO_PROXY', () => {
    expect(decide('http://context.test', { HTTP_PROXY: P, NO_PROXY: 'context.test', no_proxy: 'other.test' })).toBe(P);
    expect(decide('http://context.test', { HTTP_PROXY: P, NO_PROXY: 'other.test', no_proxy: 'context.test' })).toBe('direct');
  });
});

describe('validateProxyEnvironment()', () => {
  test.each([
    ['HTTPS_PROXY', 'not a url'],
    ['https_proxy', 'proxy.internal:3128'],
    ['HTTP_PROXY', 'socks5://proxy.internal:1080'],
    ['http_proxy', 'ftp://proxy.internal'],
  ])('%s=%j gives the proxy message', (name, value) => {
    const error = configError(() => validateProxyEnvironment({ [name]: value }));
    expect(error.message).toBe(PROXY_ENVIRONMENT_INVALID_MESSAGE);
    expect(error.message).toBe('Proxy environment configuration is invalid. Check HTTP_PROXY, HTTPS_PROXY, and NO_PROXY.');
  });

  test('credentials in the proxy URL are allowed; empty values are unset', () => {
    expect(() => validateProxyEnvironment({ HTTPS_PROXY: PS, HTTP_PROXY: '', https_proxy: 'http://u:p@h:1' })).not.toThrow();
  });

  test('the uppercase spelling is validated even when the lowercase one wins', () => {
    expect(() => validateProxyEnvironment({ http_proxy: P, HTTP_PROXY: 'nonsense' })).toThrow(PROXY_ENVIRONMENT_INVALID_MESSAGE);
  });

  test('decideProxy() validates before deciding, even for a loopback target', () => {
    const error = configError(() => decideProxy('http://127.0.0.1:1', { HTTPS_PROXY: 'canary-invalid' }, BUN));
    expect(error.message).toBe(PROXY_ENVIRONMENT_INVALID_MESSAGE);
    expect(error.message).not.toContain('canary');
  });
});

describe('decideProxy() on Node.js', () => {
  test('an applicable proxy is refused with the runtime message', () => {
    const error = configError(() => decideProxy('https://memory.example', { HTTPS_PROXY: PS }, NODE));
    expect(error.message).toBe(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
    expect(error.message).toBe('Proxy environment variables are not supported on this runtime; use the standalone executable or Deno.');
  });

  test('a proxy bypassed by NO_PROXY, or for the other scheme, is not refused', () => {
    expect(decide('https://memory.example', { HTTPS_PROXY: PS, NO_PROXY: 'memory.example' }, NODE)).toBe('direct');
    expect(decide('https://memory.example', { HTTP_PROXY: P }, NODE)).toBe('direct');
  });

  test.each([
    ['NODE_USE_ENV_PROXY=1', { NODE_USE_ENV_PROXY: '1' }, []],
    ['--use-env-proxy in NODE_OPTIONS', { NODE_OPTIONS: '--max-old-space-size=100 --use-env-proxy' }, []],
    ['--use-env-proxy in execArgv', {}, ['--use-env-proxy']],
  ] as const)("Node's environment-proxy mode (%s) is refused, loopback included", (_name, env, execArgv) => {
    const runtime: ProxyRuntime = { name: 'node', execArgv };
    expect(configError(() => decideProxy('http://127.0.0.1:8080', env, runtime)).message).toBe(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
    expect(configError(() => decideProxy('https://memory.example', env, runtime)).message).toBe(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
  });

  test("Node's mode flags mean nothing on Bun and Deno; NODE_USE_ENV_PROXY=0 is off", () => {
    expect(decide('http://127.0.0.1:1', { NODE_USE_ENV_PROXY: '1' }, { name: 'bun', execArgv: ['--use-env-proxy'] })).toBe('direct');
    expect(decide('http://127.0.0.1:1', { NODE_USE_ENV_PROXY: '1' }, DENO)).toBe('direct');
    expect(decide('http://127.0.0.1:1', { NODE_USE_ENV_PROXY: '0' }, NODE)).toBe('direct');
  });
});
