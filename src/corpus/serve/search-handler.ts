// The Generic HTTP Search V1 service as a web-standard handler: the checks of docs/design/providers.md §8.2
// in table order, each with its fixed status, headers and error text.
import * as v from 'valibot';
import { type BoundedBody, readBoundedBody } from '../../util/read-bounded-body.ts';
import { bearerTokenCheck } from './bearer-token.ts';
import type { CorpusItem } from './corpus-index.ts';
import { SearchRequestSchema } from './search-request.ts';

/** The one path the service answers (docs/design/providers.md §3). */
export const SEARCH_PATH = '/v1/context/search';

/** Largest request body the service reads, in bytes (64 KiB; docs/design/providers.md §8.2 row 4). */
export const MAX_REQUEST_BODY_BYTES = 65_536;

/** What the handler needs. */
export interface SearchHandlerOptions {
  /** The credential every request must present as `Bearer <token>`. */
  readonly token: string;
  /**
   * Runs one search; may throw (answered with 500).
   *
   * @param query The validated query.
   * @param limit Items wanted, 1…5.
   */
  readonly search: (query: string, limit: number) => readonly CorpusItem[];
}

/**
 * Creates the service's request handler.
 *
 * @param options The token and the search function.
 * @returns A `(request) => Promise<Response>` that never rejects; every error body is
 *   `{"error":"<fixed text>"}` with `content-type: application/json`.
 * @see docs/design/providers.md §8.2
 */
export function createSearchHandler(options: SearchHandlerOptions): (request: Request) => Promise<Response> {
  const authorized = bearerTokenCheck(options.token);
  return async (request) => {
    // Row 1: only the search path exists (GET / included).
    if (new URL(request.url).pathname !== SEARCH_PATH) return error(404, 'Not found.');
    // Row 2.
    if (request.method !== 'POST') return error(405, 'Method not allowed.', { allow: 'POST' });
    // Row 3: checked before the body is read, so no unauthenticated body is ever parsed.
    if (!authorized(request.headers.get('authorization'))) {
      return error(401, 'Authentication required.', { 'www-authenticate': 'Bearer' });
    }
    // Row 4: reading stops (and the stream is cancelled) once the limit is passed.
    let read: BoundedBody;
    try {
      read = await readBoundedBody(request, MAX_REQUEST_BODY_BYTES);
    } catch {
      return error(400, 'Request body is not valid JSON.');
    }
    if (read.kind === 'too-large') return error(413, 'Request body is too large.');
    // Row 5: fatal UTF-8, then JSON.
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(read.bytes));
    } catch {
      return error(400, 'Request body is not valid JSON.');
    }
    // Row 6.
    const parsed = v.safeParse(SearchRequestSchema, body);
    if (!parsed.success) return error(400, 'Request must contain only a string query and an integer limit from 1 to 5.');
    // Row 7.
    try {
      const items = options.search(parsed.output.query, parsed.output.limit).slice(0, parsed.output.limit);
      return json(200, { items });
    } catch {
      return error(500, 'Search failed.');
    }
  };
}

function error(status: number, text: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: text }, headers);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
