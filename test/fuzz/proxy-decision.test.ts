// Proxy decision fuzzing (issue 11, "One proxy behaviour on every runtime"; config.md §12):
// `decideProxy` against an independent reading of the rules for random targets, proxy
// variables (both spellings, empty values, invalid URLs) and NO_PROXY lists (hosts, domain
// suffixes, leading dots, ports, IP literals, bracketed IPv6, `*`, CIDR, odd case and spacing),
// on Bun, Deno and Node.js (with and without Node's own environment-proxy mode).
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ConfigError } from '../../src/config/config-error.ts';
import { decideProxy, PROXY_ENVIRONMENT_INVALID_MESSAGE, PROXY_UNSUPPORTED_RUNTIME_MESSAGE } from '../../src/providers/proxy.ts';
import type { ProxyDecision } from '../../src/runtime/fetch-types.ts';
import type { RuntimeName } from '../../src/runtime/runtime.ts';

/** Fuzz run counts (reported in the issue's closing note). */
export const PROXY_FUZZ_RUNS = { decisions: 2000 } as const;

const TARGET_HOSTS = ['localhost', '127.0.0.1', '[::1]', 'context.test', 'api.context.test', 'search.example', 'a.search.example', 'example', '192.0.2.1', '[2001:db8::1]', 'notcontext.test'];
const ENTRY_HOSTS = ['context.test', 'test', 'search.example', 'example', 'a.search.example', '192.0.2.1', '192.0.2', '[2001:db8::1]', 'localhost', '127.0.0.1', 'other.example', 'xt.test'];
const PROXIES = ['http://proxy.example:3128', 'https://proxy.example', 'http://u:p@127.0.0.1:9', 'socks5://proxy.example:1080', 'proxy.example:3128', 'not a url', 'HTTP://PROXY.EXAMPLE'];
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

type Outcome = { readonly mode: 'direct' } | { readonly mode: 'proxy'; readonly proxyUrl: string } | { readonly error: string };

/** Case-randomized text, so matching must be case-insensitive. */
const anyCase = (value: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: value.length, maxLength: value.length }).map((flags) => [...value].map((char, index) => (flags[index] ? char.toUpperCase() : char)).join(''));

/** One NO_PROXY entry as written (spacing, dot, case, port) and what it means. */
const entry = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ host: fc.constantFrom(...ENTRY_HOSTS), dot: fc.boolean(), port: fc.constantFrom(undefined, '80', '443', '8080', '08080'), pad: fc.constantFrom('', ' ', '  \t') }),
  },
  { weight: 1, arbitrary: fc.record({ raw: fc.constantFrom('*', '', '10.0.0.0/8', '192.0.2.0/24', 'context.test/', '::1', '2001:db8::1') }) },
);

function writeEntry(value: { host: string; dot: boolean; port: string | undefined; pad: string } | { raw: string }): fc.Arbitrary<string> {
  if ('raw' in value) return fc.constant(value.raw);
  const dot = value.dot && !value.host.startsWith('[') && !/^\d/.test(value.host) ? '.' : '';
  return anyCase(value.host).map((host) => `${value.pad}${dot}${host}${value.port === undefined ? '' : `:${value.port}`}${value.pad}`);
}

const noProxyList = fc.array(entry.chain(writeEntry), { maxLength: 4 }).map((entries) => entries.join(','));
const proxyValue = fc.oneof(fc.constant(undefined), fc.constant(''), fc.constantFrom(...PROXIES));

/** An independent reading of config.md §12 for one target. */
function oracle(target: URL, env: Record<string, string | undefined>, runtime: RuntimeName, nodeEnvProxy: boolean): Outcome {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) return { error: PROXY_ENVIRONMENT_INVALID_MESSAGE };
  }
  if (runtime === 'node' && nodeEnvProxy) return { error: PROXY_UNSUPPORTED_RUNTIME_MESSAGE };
  if (LOOPBACK.has(target.hostname)) return { mode: 'direct' };
  const pick = (upper: string): string | undefined => [env[upper.toLowerCase()], env[upper]].find((value) => value !== undefined && value !== '');
  const proxyUrl = pick(target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  if (proxyUrl === undefined) return { mode: 'direct' };
  const noProxy = pick('NO_PROXY');
  const targetPort = target.port === '' ? (target.protocol === 'https:' ? '443' : '80') : target.port;
  const isIp = (host: string): boolean => host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  for (const raw of (noProxy ?? '').split(',')) {
    const written = raw.trim();
    if (written === '*') return { mode: 'direct' };
    if (written === '' || written.includes('/')) continue;
    const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d+))?$/.exec(written);
    if (match === null) continue;
    const host = (match[1] as string).toLowerCase().replace(/^\./, '');
    if (match[2] !== undefined && String(Number(match[2])) !== targetPort) continue;
    if (host === target.hostname) return { mode: 'direct' };
    // Only whole dotted quads are IP literals: "192.0.2" is a (never matching) name here.
    if (!isIp(host) && !isIp(target.hostname) && target.hostname.endsWith(`.${host}`)) return { mode: 'direct' };
  }
  return runtime === 'node' ? { error: PROXY_UNSUPPORTED_RUNTIME_MESSAGE } : { mode: 'proxy', proxyUrl };
}

function actual(target: string, env: Record<string, string | undefined>, runtime: RuntimeName, execArgv: string[]): Outcome {
  try {
    const decision: ProxyDecision = decideProxy(target, env, { name: runtime, execArgv });
    return decision.mode === 'direct' ? { mode: 'direct' } : { mode: 'proxy', proxyUrl: decision.proxyUrl };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { error: error.message };
  }
}

describe('proxy decision fuzzing', () => {
  test(`decideProxy agrees with an independent reading of config.md §12 (${PROXY_FUZZ_RUNS.decisions} runs)`, () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.record({
          scheme: fc.constantFrom('http', 'https'),
          host: fc.constantFrom(...TARGET_HOSTS),
          port: fc.constantFrom('', ':80', ':443', ':8080'),
          runtime: fc.constantFrom<RuntimeName>('bun', 'deno', 'node'),
          HTTP_PROXY: proxyValue,
          http_proxy: proxyValue,
          HTTPS_PROXY: proxyValue,
          https_proxy: proxyValue,
          NO_PROXY: fc.option(noProxyList, { nil: undefined }),
          no_proxy: fc.option(noProxyList, { nil: undefined }),
          nodeMode: fc.constantFrom('off', 'off', 'off', 'env', 'argv', 'options'),
        }),
        ({ scheme, host, port, runtime, nodeMode, ...variables }) => {
          const target = `${scheme}://${host}${port}/v1/context/search`;
          const env: Record<string, string | undefined> = { ...variables };
          if (nodeMode === 'env') env['NODE_USE_ENV_PROXY'] = '1';
          if (nodeMode === 'options') env['NODE_OPTIONS'] = '--max-old-space-size=100 --use-env-proxy';
          const execArgv = nodeMode === 'argv' ? ['--use-env-proxy'] : [];
          const expected = oracle(new URL(target), env, runtime, nodeMode !== 'off');
          expect({ target, env, runtime, nodeMode, outcome: actual(target, env, runtime, execArgv) }).toEqual({ target, env, runtime, nodeMode, outcome: expected });
          const key = 'error' in expected ? expected.error : expected.mode;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        },
      ),
      { numRuns: PROXY_FUZZ_RUNS.decisions },
    );
    // Not vacuous: direct, proxied and both errors all occurred.
    expect(seen.size).toBe(4);
  });
});
