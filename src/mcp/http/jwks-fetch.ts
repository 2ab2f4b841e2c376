// The fetch jose uses for the JWKS (docs/design/remote.md §1.7): routed by the proxy decision of
// docs/design/config.md §12, manual redirects, no credential, a bounded body, and every way it can fail
// reported as one error class so the caller answers 503 instead of `invalid_token`.
import type { FailureClass } from '../../providers/failure.ts';
import { discardBody, isRedirect, type OutboundRoute, sendOutbound } from '../../providers/outbound.ts';
import { ProviderError } from '../../providers/provider-error.ts';
import { readResponseBody } from '../../providers/response-body.ts';
import { MAX_JWKS_RESPONSE_BYTES } from './remote-limits.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** The key set could not be obtained: network, timeout, status, redirect, size, JSON or shape. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError';
  /** Why, as one id of docs/design/providers.md §1.6 (for the operator log, docs/design/remote.md §1.9). */
  readonly failureClass: FailureClass;
  /** HTTP status for `http-status` and `redirect`. */
  readonly status: number | undefined;
  /** For `proxy-failure`: the proxy variable's name. */
  readonly proxyVariable: string | undefined;

  constructor(failureClass: FailureClass, options: { status?: number; proxyVariable?: string | undefined } = {}) {
    super('The JSON Web Key Set could not be obtained.');
    this.failureClass = failureClass;
    this.status = options.status;
    this.proxyVariable = options.proxyVariable;
  }
}

/** The fetch signature jose's `customFetch` option expects. */
export type JwksFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Builds the JWKS fetch for one `--jwks-url`.
 *
 * @param decision The proxy decision for the JWKS URL, made once at startup.
 * @returns A fetch that resolves only with a 200 answer whose body (at most 1048576 bytes) is
 *   UTF-8 JSON shaped like a key set (`{"keys":[{…},…]}`), re-wrapped for jose to parse.
 * @throws {JwksUnavailableError} (from the returned function) for every failure, with its
 *   failure class (docs/design/providers.md §1.6).
 * @see docs/design/remote.md §1.7
 */
export function createJwksFetch(decision: OutboundRoute): JwksFetch {
  return async (url, init) => {
    // jose always passes its own timeout signal; a bare call gets one that never aborts.
    const signal = init.signal ?? new AbortController().signal;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      // jose passes only `accept` and `user-agent`: no credential ever goes to the key server.
      // outbound.ts never follows a redirect: a 3xx is a failure, never followed to another host.
      const response = await sendOutbound({ method: 'GET', url, headers: plainHeaders(init.headers), signal, route: decision });
      const status = response.status;
      if (status !== 200) {
        await discardBody(response);
        throw new JwksUnavailableError(isRedirect(response) ? 'redirect' : 'http-status', { status });
      }
      bytes = await readResponseBody(response, signal, MAX_JWKS_RESPONSE_BYTES);
    } catch (error) {
      throw error instanceof ProviderError ? fromProviderError(error) : error;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new JwksUnavailableError('invalid-utf8');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new JwksUnavailableError('invalid-json');
    }
    if (!isKeySetShape(json)) throw new JwksUnavailableError('invalid-envelope');
    return new Response(bytes, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

// jose passes a plain record; Headers and pairs are accepted as fetch would.
function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

function fromProviderError(error: ProviderError): JwksUnavailableError {
  return new JwksUnavailableError(error.failureClass, { proxyVariable: error.proxyVariable });
}

// jose's own test (lib/validate.js isJwkSet): an object whose `keys` is an array of objects.
function isKeySetShape(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = value['keys'];
  return Array.isArray(keys) && keys.every(isPlainObject);
}
