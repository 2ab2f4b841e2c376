// Strict fake of a Generic HTTP Search V1 service (providers.md §3), with the error bodies of
// the reference service (providers.md §8.2) but 404 for every other method or path.
import { startFakeServer, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { jsonReply, type FakeReply } from './reply.ts';
import { parseStrictJsonObject } from './strict-json.ts';

/** The only route the fake answers. */
export const GENERIC_SEARCH_PATH = '/v1/context/search';

/** Options of {@link startGenericHttpFake}. */
export interface GenericHttpFakeOptions {
  /** The bearer token; `authorization` must be exactly `Bearer <token>`. */
  readonly token: string;
  /**
   * Items returned, verbatim and in order, for every valid search (default none). They are not
   * matched against the query nor cut to `limit`, so a test controls exactly what comes back
   * (invalid items, more than five items, oversized fields).
   */
  readonly items?: readonly unknown[];
}

/** A running Generic HTTP fake; `url` is the search URL. */
export interface GenericHttpFake extends FakeServer {
  /** `<origin>/v1/context/search`. */
  readonly url: string;
  /** The items answered; replace them with `setItems`. */
  readonly items: readonly unknown[];
  /** Replaces the items answered (kept across `reset()` until the next `setItems`). */
  setItems(items: readonly unknown[]): void;
}

/** Error texts of the reference service (providers.md §8.2). */
export const GENERIC_ERRORS = {
  notFound: 'Not found.',
  unauthorized: 'Authentication required.',
  invalidJson: 'Request body is not valid JSON.',
  invalidShape: 'Request must contain only a string query and an integer limit from 1 to 5.',
} as const;

const MAX_QUERY_CODE_POINTS = 2000;

/**
 * Starts the fake. Order of checks: exact `POST /v1/context/search` (else 404), exact
 * `authorization: Bearer <token>` (else 401 with `WWW-Authenticate: Bearer`), body valid UTF-8
 * JSON (else 400), body exactly `{query, limit}` with a 1…2000 code-point non-blank query and
 * an integer limit 1…5 (else 400); then 200 `{"items":[…]}`. Error bodies are `{"error":"<text>"}`.
 *
 * @see providers.md §3, §8.2; mem0-services.md §5, "Generic HTTP fake"
 */
export async function startGenericHttpFake(options: GenericHttpFakeOptions): Promise<GenericHttpFake> {
  let items: readonly unknown[] = options.items ?? [];
  const server = await startFakeServer({ handler: (request) => answer(request, options.token, items) });
  return {
    ...server,
    url: `${server.origin}${GENERIC_SEARCH_PATH}`,
    get items() {
      return items;
    },
    setItems(next) {
      items = next;
    },
  };
}

function answer(request: RecordedRequest, token: string, items: readonly unknown[]): FakeReply {
  if (request.method !== 'POST' || request.url !== GENERIC_SEARCH_PATH) return error(404, GENERIC_ERRORS.notFound);
  if (request.headers['authorization'] !== `Bearer ${token}`) {
    return error(401, GENERIC_ERRORS.unauthorized, { 'www-authenticate': 'Bearer' });
  }
  const parsed = parseStrictJsonObject(request);
  if (!parsed.ok) return error(400, parsed.reason === 'not-object' ? GENERIC_ERRORS.invalidShape : GENERIC_ERRORS.invalidJson);
  if (!isExactSearchBody(parsed.value)) return error(400, GENERIC_ERRORS.invalidShape);
  return jsonReply(200, { items });
}

function isExactSearchBody(body: Record<string, unknown>): boolean {
  const keys = Object.keys(body).sort();
  if (keys.length !== 2 || keys[0] !== 'limit' || keys[1] !== 'query') return false;
  const { query, limit } = body;
  if (typeof query !== 'string' || query.trim() === '' || [...query].length > MAX_QUERY_CODE_POINTS) return false;
  return typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 5;
}

function error(status: number, text: string, headers: Record<string, string> = {}): FakeReply {
  return jsonReply(status, { error: text }, headers);
}
