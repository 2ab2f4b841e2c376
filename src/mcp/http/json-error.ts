// The JSON error answers of the remote server (docs/design/remote.md §1.4): one key, `error`.

/** The `error` codes docs/design/remote.md §1.4 and §1.6 name. */
export type RemoteErrorCode =
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'request_timeout'
  | 'server_busy'
  | 'temporarily_unavailable'
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope';

/**
 * Builds an error answer.
 *
 * @param status HTTP status.
 * @param code The body's `error` value.
 * @param headers Extra headers (`Allow`, `Retry-After`, `WWW-Authenticate`, CORS).
 * @returns A response with body exactly `{"error":"<code>"}` and `content-type: application/json`.
 * @see docs/design/remote.md §1.4 (error bodies)
 */
export function jsonError(status: number, code: RemoteErrorCode, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(`{"error":"${code}"}`, { status, headers: { 'content-type': 'application/json', ...headers } });
}
