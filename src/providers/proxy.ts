// The one per-target proxy decision (docs/design/config.md §12): HTTP(S)_PROXY and NO_PROXY, lowercase
// spelling first, loopback never proxied, and the Node.js refusal. Pure: env comes in.
import { ConfigError } from '../config/config-error.ts';
import type { ProxyDecision } from '../runtime/fetch-types.ts';
import type { ProxyRuntime } from '../runtime/proxy-runtime.ts';
import { ownEnv } from '../util/own-env.ts';

/** A process environment (or a copy); values are read with own-property lookups only. */
export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** docs/design/config.md §12: a set proxy variable that is not an absolute http(s) URL. */
export const PROXY_ENVIRONMENT_INVALID_MESSAGE = 'Proxy environment configuration is invalid. Check HTTP_PROXY, HTTPS_PROXY, and NO_PROXY.';

/** docs/design/config.md §12: an applicable proxy, or Node's own environment-proxy mode, on Node.js. */
export const PROXY_UNSUPPORTED_RUNTIME_MESSAGE = 'Proxy environment variables are not supported on this runtime; use the standalone executable or Deno.';

const DIRECT: ProxyDecision = { mode: 'direct' };
/** Loopback targets, as WHATWG `URL.hostname` reports them; never proxied (docs/design/config.md §12). */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * Reads one variable pair: the lowercase spelling wins, an empty value counts as unset.
 * Own-property lookup, so names inherited through a prototype are never found.
 */
function readPair(env: ProxyEnvironment, upper: string): string | undefined {
  return readPairNamed(env, upper)?.value;
}

/** `readPair` with the spelling that supplied the value. */
function readPairNamed(env: ProxyEnvironment, upper: string): { name: string; value: string } | undefined {
  for (const name of [upper.toLowerCase(), upper]) {
    const value = ownEnv(env, name);
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}

/**
 * Checks every set proxy variable before the first request.
 *
 * Each non-empty `HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY` and `http_proxy` must parse as
 * an absolute URL with scheme `http:` or `https:`; credentials in it are allowed.
 *
 * @param env The process environment (passed in; nothing here reads `process.env`).
 * @throws {ConfigError} `PROXY_ENVIRONMENT_INVALID_MESSAGE`, without any value.
 * @see docs/design/config.md §12 ("Validation")
 */
export function validateProxyEnvironment(env: ProxyEnvironment): void {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
    const value = ownEnv(env, name);
    if (value === undefined || value === '') continue;
    let scheme: string;
    try {
      scheme = new URL(value).protocol;
    } catch {
      throw new ConfigError(PROXY_ENVIRONMENT_INVALID_MESSAGE);
    }
    if (scheme !== 'http:' && scheme !== 'https:') throw new ConfigError(PROXY_ENVIRONMENT_INVALID_MESSAGE);
  }
}

/** True when Node's own environment-proxy mode is on (`NODE_USE_ENV_PROXY=1` or `--use-env-proxy`). */
function nodeEnvProxyModeOn(env: ProxyEnvironment, runtime: ProxyRuntime): boolean {
  const flag = '--use-env-proxy';
  if (ownEnv(env, 'NODE_USE_ENV_PROXY') === '1') return true;
  const nodeOptions = ownEnv(env, 'NODE_OPTIONS');
  if (nodeOptions !== undefined && nodeOptions.split(/\s+/u).includes(flag)) return true;
  return runtime.execArgv.includes(flag);
}

/** True for a host as `URL.hostname` serializes an IP literal: dotted quad or bracketed IPv6. */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/u.test(hostname);
}

/** Parses one NO_PROXY entry into a normalized host and optional port; undefined never matches. */
function parseNoProxyEntry(entry: string): { host: string; port: string | undefined } | undefined {
  // Entries with "/" are CIDR ranges, which this product never matches (docs/design/config.md §12).
  if (entry.includes('/')) return undefined;
  let host = entry;
  let port: string | undefined;
  const portMatch = /^(\[[^\]]*\]|[^:[\]]*):(\d+)$/u.exec(entry);
  if (portMatch !== null) {
    host = portMatch[1] ?? '';
    port = String(Number(portMatch[2]));
  } else if (entry.includes(':') && !(entry.startsWith('[') && entry.endsWith(']'))) {
    return undefined; // an unbracketed IPv6 address or a malformed port
  }
  if (host.startsWith('.')) host = host.slice(1);
  if (host === '') return undefined;
  try {
    // The URL parser lowercases, applies IDNA and normalizes IP literals exactly as it does
    // for the target, so both sides compare in the same form.
    return { host: new URL(`http://${host}/`).hostname, port };
  } catch {
    return undefined;
  }
}

/** True when a NO_PROXY value lists the target (docs/design/config.md §12, "NO_PROXY syntax"). */
function noProxyMatches(noProxy: string, target: URL): boolean {
  const targetPort = target.port !== '' ? target.port : (DEFAULT_PORTS[target.protocol] ?? '');
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim();
    if (entry === '*') return true;
    const parsed = entry === '' ? undefined : parseNoProxyEntry(entry);
    if (parsed === undefined) continue;
    if (parsed.port !== undefined && parsed.port !== targetPort) continue;
    if (parsed.host === target.hostname) return true;
    // IP literals match exactly; names also match their subdomains.
    if (!isIpLiteral(parsed.host) && !isIpLiteral(target.hostname) && target.hostname.endsWith(`.${parsed.host}`)) return true;
  }
  return false;
}

/**
 * Decides, for one request target, whether it goes direct or through a proxy.
 *
 * Rules in order: the environment is validated; on Node.js, Node's own environment-proxy
 * mode is refused outright; loopback targets (`localhost`, `127.0.0.1`, `[::1]`) go direct
 * with no override; the scheme selects `HTTPS_PROXY` or `HTTP_PROXY` (lowercase spelling
 * first, empty = unset); `NO_PROXY` (same spelling rule) can bypass it; on Node.js an
 * applicable proxy is refused.
 *
 * @param targetUrl Absolute URL of the request target (only scheme, host and port matter).
 * @param env The process environment, passed in by the entry point.
 * @param runtime The executing runtime and, for Node.js, its `execArgv`.
 * @returns `{mode: 'direct'}` or `{mode: 'proxy', proxyUrl}`; `proxyUrl` may hold credentials.
 * @throws {ConfigError} `PROXY_ENVIRONMENT_INVALID_MESSAGE` for an invalid proxy variable;
 *   `PROXY_UNSUPPORTED_RUNTIME_MESSAGE` on Node.js when a proxy applies or Node's
 *   environment-proxy mode is on.
 * @throws {TypeError} If `targetUrl` is not an absolute URL (a programmer error).
 * @see docs/design/config.md §12
 */
export function decideProxy(targetUrl: string, env: ProxyEnvironment, runtime: ProxyRuntime): ProxyDecision {
  validateProxyEnvironment(env);
  const target = new URL(targetUrl);
  // Node's env-proxy mode would route by its own rules (loopback included): refuse it.
  if (runtime.name === 'node' && nodeEnvProxyModeOn(env, runtime)) throw new ConfigError(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
  // Loopback never goes through a proxy: a plain-HTTP loopback provider would hand its
  // credential to the proxy in clear text.
  if (LOOPBACK_HOSTNAMES.has(target.hostname)) return DIRECT;
  const variable = target.protocol === 'https:' ? 'HTTPS_PROXY' : target.protocol === 'http:' ? 'HTTP_PROXY' : undefined;
  const proxy = variable === undefined ? undefined : readPairNamed(env, variable);
  if (proxy === undefined) return DIRECT;
  const noProxy = readPair(env, 'NO_PROXY');
  if (noProxy !== undefined && noProxyMatches(noProxy, target)) return DIRECT;
  // Node.js offers no usable proxy routing here, and a silent bypass is never allowed.
  if (runtime.name === 'node') throw new ConfigError(PROXY_UNSUPPORTED_RUNTIME_MESSAGE);
  return { mode: 'proxy', proxyUrl: proxy.value, variable: proxy.name };
}
