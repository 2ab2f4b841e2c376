// The fetch jose uses for the JWKS (docs/design/remote.md §1.7): routed by the proxy decision of
// docs/design/config.md §12, manual redirects, no credential, a bounded body, and every way it can fail
// reported as one error class so the caller answers 503 instead of `invalid_token`.
import type { ProxyDecision } from '../../runtime/fetch-types.ts';
import { runtimeFetch } from '../../runtime/runtime-fetch.ts';
import { readBoundedBody } from '../../util/read-bounded-body.ts';
import { MAX_JWKS_RESPONSE_BYTES } from './remote-limits.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** The key set could not be obtained: network, timeout, status, redirect, size, JSON or shape. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError';

  constructor(options: { cause?: unknown } = {}) {
    super('The JSON Web Key Set could not be obtained.', options);
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
 * @throws {JwksUnavailableError} (from the returned function) for every failure.
 * @see docs/design/remote.md §1.7
 */
export function createJwksFetch(decision: ProxyDecision): JwksFetch {
  return async (url, init) => {
    try {
      // jose passes only `accept` and `user-agent`: no credential ever goes to the key server.
      // Manual redirects: a 3xx is a failure, never followed to another host.
      const response = await runtimeFetch(url, { method: 'GET', headers: init.headers ?? {}, redirect: 'manual', signal: init.signal ?? null }, decision);
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        throw new JwksUnavailableError();
      }
      const body = await readBoundedBody(response, MAX_JWKS_RESPONSE_BYTES);
      if (body.kind === 'too-large') throw new JwksUnavailableError();
      const bytes = body.bytes;
      const json: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      if (!isKeySetShape(json)) throw new JwksUnavailableError();
      return new Response(bytes, { status: 200, headers: { 'content-type': 'application/json' } });
    } catch (error) {
      throw error instanceof JwksUnavailableError ? error : new JwksUnavailableError({ cause: error });
    }
  };
}

// jose's own test (lib/validate.js isJwkSet): an object whose `keys` is an array of objects.
function isKeySetShape(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = value['keys'];
  return Array.isArray(keys) && keys.every(isPlainObject);
}
