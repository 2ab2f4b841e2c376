// The answers of a failed authentication (docs/design/remote.md §1.6): `WWW-Authenticate` in the exact
// forms of the table, never an `error_description`, never anything about the token.
import { jsonError } from './json-error.ts';
import { JWKS_RETRY_AFTER_SECONDS } from './remote-limits.ts';

/** Why a request is refused. */
export type AuthFailure = 'no-credential' | 'invalid-token' | 'insufficient-scope' | 'jwks-unavailable';

/**
 * Builds the refusal for one failure.
 *
 * @param failure The failure.
 * @param metadataUrl `<M>`: the path-suffixed protected-resource metadata URL.
 * @param scope `<S>`: `--scope`.
 * @param extraHeaders CORS headers for an allowed origin.
 * @returns 401 `unauthorized` (no `error` attribute), 401 `invalid_token`, 403
 *   `insufficient_scope`, or 503 `temporarily_unavailable` with `Retry-After: 30` and no
 *   `WWW-Authenticate`.
 * @see docs/design/remote.md §1.6 (table)
 */
export function authFailureResponse(failure: AuthFailure, metadataUrl: string, scope: string, extraHeaders: Readonly<Record<string, string>> = {}): Response {
  const params = `resource_metadata="${metadataUrl}", scope="${scope}"`;
  switch (failure) {
    case 'no-credential':
      return jsonError(401, 'unauthorized', { ...extraHeaders, 'www-authenticate': `Bearer ${params}` });
    case 'invalid-token':
      return jsonError(401, 'invalid_token', { ...extraHeaders, 'www-authenticate': `Bearer error="invalid_token", ${params}` });
    case 'insufficient-scope':
      return jsonError(403, 'insufficient_scope', { ...extraHeaders, 'www-authenticate': `Bearer error="insufficient_scope", ${params}` });
    case 'jwks-unavailable':
      // The token may be valid, so it is not reported as invalid (docs/design/remote.md §1.6 step 4).
      return jsonError(503, 'temporarily_unavailable', { ...extraHeaders, 'retry-after': String(JWKS_RETRY_AFTER_SECONDS) });
  }
}

/**
 * Extracts the Bearer token of an `Authorization` header.
 *
 * @param header The header value, or null when absent.
 * @returns The token, or undefined when the header is absent, its scheme is not `Bearer`
 *   (ASCII case-insensitive), or no token follows the scheme.
 * @see docs/design/remote.md §1.6 step 1
 */
export function bearerToken(header: string | null): string | undefined {
  if (header === null) return undefined;
  const match = /^([^\s]+)(?:\s+(.*))?$/s.exec(header.trim());
  if (match === null || match[1]?.toLowerCase() !== 'bearer') return undefined;
  const token = (match[2] ?? '').trim();
  return token === '' ? undefined : token;
}
