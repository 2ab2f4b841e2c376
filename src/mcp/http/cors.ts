// The `Origin` check and the CORS headers of the remote server (docs/design/remote.md §1.5 step 2).

/** The request headers a preflight may announce (docs/design/remote.md §1.5 step 2). */
const ALLOWED_REQUEST_HEADERS = 'authorization, content-type, accept, mcp-protocol-version';
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The outcome of the Origin check. */
export type OriginCheck =
  /** No `Origin` header: the request passes without CORS headers. */
  | { readonly kind: 'none' }
  /** An allowed origin: every answer carries `headers`. */
  | { readonly kind: 'allowed'; readonly origin: string; readonly headers: Readonly<Record<string, string>> }
  /** Refused with 403 `origin_not_allowed` (`Origin: null` included). */
  | { readonly kind: 'refused' };

/**
 * Checks the `Origin` header against the `--allowed-origin` values.
 *
 * @param origin The header value, or null when absent.
 * @param allowed The `--allowed-origin` values, lowercased.
 * @returns `none`, `allowed` with the CORS headers every answer gets, or `refused`.
 * @see docs/design/remote.md §1.5 step 2
 */
export function checkOrigin(origin: string | null, allowed: ReadonlySet<string>): OriginCheck {
  if (origin === null) return { kind: 'none' };
  if (!allowed.has(origin.toLowerCase())) return { kind: 'refused' };
  return {
    kind: 'allowed',
    origin,
    headers: { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'WWW-Authenticate' },
  };
}

/**
 * The 204 answer to a preflight from an allowed origin.
 *
 * @param corsHeaders The headers of an `allowed` {@link OriginCheck}.
 * @param method The route's one method: `POST` on `/mcp`, `GET` on the metadata paths.
 * @see docs/design/remote.md §1.5 step 2
 */
export function preflightResponse(corsHeaders: Readonly<Record<string, string>>, method: 'POST' | 'GET'): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders,
      'access-control-allow-methods': method,
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  });
}

/**
 * Adds headers to a response (the SDK's, or one built here).
 *
 * @returns `response` itself when `headers` is empty, else a copy with the headers set.
 */
export function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  const entries = Object.entries(headers);
  if (entries.length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of entries) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}
