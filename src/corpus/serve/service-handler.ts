// `corpus serve`'s outer handler (docs/design/providers.md §8.2, §8.2a): rows 0 and 0b (the Host
// field and its allow-list), `GET /healthz` and `GET /readyz` without a token, then the search handler; each answer is
// observed once for the request log and the metrics.
import { isAllowedHost } from '../../util/allowed-hosts.ts';
import { hostFieldProblem } from '../../util/host-field.ts';
import type { CorpusItem } from './corpus-index.ts';
import type { CorpusOutcome, CorpusRequestLogEntry } from './corpus-request-log.ts';
import { createSearchHandler } from './search-handler.ts';

/** What the outer handler needs. */
export interface ServiceHandlerOptions {
  /** Every accepted token (`--token-env`, repeatable). */
  readonly tokens: readonly string[];
  /** Runs one search (see createSearchHandler). */
  readonly search: (query: string, limit: number) => readonly CorpusItem[] | Promise<readonly CorpusItem[]>;
  /** Aborted at shutdown (see createSearchHandler). */
  readonly signal?: AbortSignal | undefined;
  /** Why no search can be answered now (§8.2a), or undefined when one can. */
  readonly notReadyReason: () => Promise<string | undefined>;
  /** The `Host` values answered (row 0b); read per request, since the port is known only once bound. */
  readonly allowedHosts: () => ReadonlySet<string>;
  /** Receives one entry per answered request. */
  readonly observe?: (entry: CorpusRequestLogEntry, seconds: number) => void;
}

/** The outer handler and its in-flight count. */
export interface ServiceHandler {
  fetch(request: Request): Promise<Response>;
  /** Requests being answered now. */
  readonly active: number;
}

// The search handler's statuses, each produced by exactly one row of §8.2 (400 by rows 5 and 6).
const OUTCOME_OF_STATUS: Readonly<Record<number, CorpusOutcome>> = {
  200: 'ok',
  400: 'bad-request',
  401: 'unauthorized',
  404: 'not-found',
  405: 'method-not-allowed',
  408: 'read-timeout',
  413: 'too-large',
  500: 'search-failed',
};

/**
 * Builds the outer handler.
 *
 * @returns The handler; `/healthz` answers 200 `{"status":"ok"}`, `/readyz` 200
 *   `{"status":"ready"}` or 503 `{"status":"not-ready","reason":"<notReadyReason>"}`, both `GET`
 *   only (405 otherwise) and after rows 0 and 0b.
 * @see docs/design/providers.md §8.2a
 */
export function createServiceHandler(options: ServiceHandlerOptions): ServiceHandler {
  let active = 0;
  const answer = async (request: Request, counted: { items: number }): Promise<{ response: Response; outcome: CorpusOutcome }> => {
    // Row 0 first, as for the search path: the path is trusted only behind a well-formed Host.
    const host = request.headers.get('host');
    if (hostFieldProblem(host) !== undefined) return { response: new Response(null, { status: 400 }), outcome: 'host-refused' };
    // Row 0b: DNS-rebinding protection, as for `/mcp` (docs/design/remote.md §1.5 step 1).
    if (!isAllowedHost(options.allowedHosts(), host)) return { response: probeAnswer(403, { error: 'Host not allowed.' }), outcome: 'host-refused' };
    const path = pathnameOf(request.url);
    if (path === '/healthz' || path === '/readyz') {
      if (request.method !== 'GET') return { response: probeAnswer(405, { error: 'Method not allowed.' }, { allow: 'GET' }), outcome: 'method-not-allowed' };
      if (path === '/healthz') return { response: probeAnswer(200, { status: 'ok' }), outcome: 'healthy' };
      const reason = await options.notReadyReason();
      if (reason === undefined) return { response: probeAnswer(200, { status: 'ready' }), outcome: 'ready' };
      return { response: probeAnswer(503, { status: 'not-ready', reason }), outcome: 'not-ready' };
    }
    // Per request, so the result count belongs to this request alone.
    const search = createSearchHandler({
      token: options.tokens,
      signal: options.signal,
      search: async (query, limit) => {
        const items = await options.search(query, limit);
        counted.items = Math.min(items.length, limit);
        return items;
      },
    });
    const response = await search(request);
    return { response, outcome: OUTCOME_OF_STATUS[response.status] ?? 'bad-request' };
  };
  return {
    async fetch(request) {
      const observe = options.observe;
      active += 1;
      const started = performance.now();
      const counted = { items: 0 };
      try {
        const { response, outcome } = await answer(request, counted);
        const ms = performance.now() - started;
        observe?.({ time: new Date().toISOString(), status: response.status, outcome, items: outcome === 'ok' ? counted.items : 0, ms: Math.round(ms) }, ms / 1000);
        return response;
      } finally {
        active -= 1;
      }
    },
    get active() {
      return active;
    },
  };
}

function probeAnswer(status: number, body: Readonly<Record<string, string>>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
}

function pathnameOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
