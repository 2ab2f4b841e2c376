// The Generic HTTP Search V1 service as a web-standard handler: the checks of docs/design/providers.md §8.2
// in table order, each with its fixed status, headers and error text.
import * as v from 'valibot';
import { findDuplicateKey } from '../../util/duplicate-keys.ts';
import { hostFieldProblem } from '../../util/host-field.ts';
import { type BoundedBody, readBoundedBody } from '../../util/read-bounded-body.ts';
import { withDeadline } from '../../util/with-deadline.ts';
import { bearerTokenCheck } from './bearer-token.ts';
import type { CorpusItem } from './corpus-index.ts';
import { SearchRequestSchema } from './search-request.ts';

/** The one path the service answers (docs/design/providers.md §3). */
export const SEARCH_PATH = '/v1/context/search';

/** Longest a request body may take to arrive, in ms; then 408 (docs/design/providers.md §8.2 row 4). */
export const REQUEST_READ_TIMEOUT_MS = 5000;

/** Largest request body the service reads, in bytes (64 KiB; docs/design/providers.md §8.2 row 4). */
export const MAX_REQUEST_BODY_BYTES = 65_536;

/** What the handler needs. */
export interface SearchHandlerOptions {
  /** The credential every request must present as `Bearer <token>`, or each accepted one (`--token-env` repeated). */
  readonly token: string | readonly string[];
  /**
   * Runs one search; may throw (answered with 500).
   *
   * @param query The validated query.
   * @param limit Items wanted, 1…5.
   */
  readonly search: (query: string, limit: number) => readonly CorpusItem[] | Promise<readonly CorpusItem[]>;
  /** Aborted when the service shuts down: body reads still in progress end with 408. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Creates the service's request handler.
 *
 * @param options The token and the search function.
 * @returns A `(request) => Promise<Response>` that never rejects; a missing, repeated or
 *   malformed `Host` is an empty 400 (row 0, as Deno's HTTP layer answers a repeated one);
 *   every other error body is `{"error":"<fixed text>"}` with `content-type: application/json`.
 * @see docs/design/providers.md §8.2
 */
export function createSearchHandler(options: SearchHandlerOptions): (request: Request) => Promise<Response> {
  const authorized = bearerTokenCheck(options.token);
  return async (request) => {
    // Row 0: the runtimes build request.url from the Host header (Deno reads the path of
    // `Host: a/b` into it), so the path is trusted only behind a well-formed Host.
    const path = hostFieldProblem(request.headers.get('host')) === undefined ? pathnameOf(request.url) : undefined;
    if (path === undefined) return new Response(null, { status: 400 });
    // Row 1: only the search path exists (GET / included).
    if (path !== SEARCH_PATH) return error(404, 'Not found.');
    // Row 2.
    if (request.method !== 'POST') return error(405, 'Method not allowed.', { allow: 'POST' });
    // Row 3: checked before the body is read, so no unauthenticated body is ever parsed.
    if (!authorized(request.headers.get('authorization'))) {
      return error(401, 'Authentication required.', { 'www-authenticate': 'Bearer' });
    }
    // Row 4: reading stops (and the stream is cancelled) once the limit is passed.
    // A read deadline, ended early by shutdown: a stalled body never holds the service.
    let read: BoundedBody;
    const reading = withDeadline(options.signal, REQUEST_READ_TIMEOUT_MS);
    try {
      read = await readBoundedBody(request, MAX_REQUEST_BODY_BYTES, reading.signal);
    } catch {
      // connection: close, or a runtime keeps waiting for the rest of the body (Deno's shutdown did).
      if (reading.signal.aborted) return error(408, 'Request body was not received in time.', { connection: 'close' });
      return error(400, 'Request body is not valid JSON.');
    } finally {
      reading.dispose();
    }
    if (read.kind === 'too-large') return error(413, 'Request body is too large.');
    // Row 5: fatal UTF-8, then JSON. Row 5a: no repeated key, at any depth: JSON.parse keeps the last of two
    // equal keys, so `{"query":"a","query":"b"}` would mean what the last one says, where a proxy
    // or a log in front may have read the first (the configuration files' rule, docs/design/config.md §3).
    let body: unknown;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
      body = JSON.parse(text);
    } catch {
      return error(400, 'Request body is not valid JSON.');
    }
    if (findDuplicateKey(text) !== undefined) return error(400, 'Request body must not repeat a key.');
    // Row 6.
    const parsed = v.safeParse(SearchRequestSchema, body);
    if (!parsed.success) return error(400, 'Request must contain only a string query and an integer limit from 1 to 5.');
    // Row 7.
    try {
      const items = (await options.search(parsed.output.query, parsed.output.limit)).slice(0, parsed.output.limit);
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

// The path of a request URL, or undefined when a runtime built a URL no parser accepts.
function pathnameOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
