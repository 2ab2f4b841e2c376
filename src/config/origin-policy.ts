// Origin policy for provider URLs: HTTPS, or plain HTTP only for loopback or an explicit
// `allowInsecureHttp` (docs/design/config.md §8). Runs at adapter construction and in the probe.
import { ConfigError } from './config-error.ts';

/** Who asks: the wording of the plain-HTTP hint differs per caller (docs/design/config.md §8, docs/design/probe.md §1.1). */
export type OriginPolicyCaller = 'generic-http-search-v1' | 'mem0' | 'probe';

/** How to apply the policy to one URL. */
export interface OriginPolicyOptions {
  /** Selects the plain-HTTP message; only `mem0` and `probe` get the opt-in hint. */
  readonly caller: OriginPolicyCaller;
  /** `endpoint.allowInsecureHttp` (or the probe's `--allow-insecure-http`); relaxes only the scheme. */
  readonly allowInsecureHttp: boolean;
  /** Appended as ` Field: <path>.` to every message when given (docs/design/config.md §6 step 6a). */
  readonly fieldPath?: string;
}

const INVALID_URL_MESSAGE = 'Provider URL is invalid.';
const NOT_ORIGIN_MESSAGE = 'Provider URL must not contain credentials, path, query, or fragment.';
const HTTPS_REQUIRED_MESSAGE = 'Provider URL must use HTTPS or loopback HTTP.';
const MEM0_HINT_MESSAGE = 'Provider URL must use HTTPS or loopback HTTP; set "allowInsecureHttp": true to permit plain HTTP for this provider.';
const PROBE_HINT_MESSAGE = 'Provider URL must use HTTPS or loopback HTTP; pass --allow-insecure-http to permit plain HTTP for this probe.';

/** Host names that count as loopback, exactly as WHATWG `URL.hostname` reports them. */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks a provider URL against the origin policy and returns its normalized origin.
 *
 * Checks, in order: the value parses; it has no username, password, query (not even a bare
 * `?`) or fragment (not even a bare `#`) and its path is exactly `/`; then `https:` passes,
 * `http:` passes for `localhost`, `127.0.0.1` or `[::1]` (any port) or with
 * `allowInsecureHttp`, and everything else fails.
 *
 * @param value The configured URL as written (`baseUrl`, `endpoint.origin`, `--origin`).
 * @param options Caller, the insecure-HTTP opt-in and the field path for the message.
 * @returns The serialized origin (`https://example.com`, `http://127.0.0.1:8080`), no trailing `/`.
 * @throws {ConfigError} With the exact docs/design/config.md §8 message, plus ` Field: <path>.` when
 *   `fieldPath` is given. The message never contains the URL.
 * @see docs/design/config.md §8, §6 step 6a; docs/design/probe.md §1.1
 */
export function applyOriginPolicy(value: string, options: OriginPolicyOptions): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw originError(INVALID_URL_MESSAGE, options);
  }
  // `href` keeps an empty query or fragment (`https://a.example/?`), `search`/`hash` do not.
  const hasQueryOrFragment = url.href.includes('?') || url.href.includes('#');
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || hasQueryOrFragment) {
    throw originError(NOT_ORIGIN_MESSAGE, options);
  }
  if (url.protocol === 'https:') return url.origin;
  if (url.protocol === 'http:') {
    // Other loopback spellings (127.0.0.2, localhost., 0.0.0.0) are deliberately not loopback here.
    if (LOOPBACK_HOSTNAMES.has(url.hostname) || options.allowInsecureHttp) return url.origin;
    if (options.caller === 'mem0') throw originError(MEM0_HINT_MESSAGE, options);
    if (options.caller === 'probe') throw originError(PROBE_HINT_MESSAGE, options);
  }
  throw originError(HTTPS_REQUIRED_MESSAGE, options);
}

function originError(message: string, options: OriginPolicyOptions): ConfigError {
  const fieldPath = options.fieldPath;
  return fieldPath === undefined ? new ConfigError(message) : new ConfigError(`${message} Field: ${fieldPath}.`, fieldPath);
}
