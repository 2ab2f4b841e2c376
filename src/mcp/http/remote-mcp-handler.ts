// The remote MCP server as a web-standard handler (docs/design/remote.md §1.4–§1.8): Host and Origin
// checks, routes, the concurrency limit, Bearer tokens, the body limit, then the SDK's
// stateless Streamable HTTP transport. Binding a socket is the runtime's job (src/runtime/).
import type { Tool } from '../tool.ts';
import { hostFieldProblem } from '../../util/host-field.ts';
import { isAllowedHost } from './allowed-hosts.ts';
import { answerMcpPost } from './answer-mcp-post.ts';
import { authFailureResponse, bearerToken } from './bearer-challenge.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { checkOrigin, preflightResponse, withHeaders } from './cors.ts';
import { jsonError } from './json-error.ts';
import { METADATA_PATH_ROOT, METADATA_PATH_SUFFIXED, resourceMetadataJson, resourceMetadataUrl } from './protected-resource-metadata.ts';
import { BUSY_RETRY_AFTER_SECONDS } from './remote-limits.ts';
import { readWithinDeadline } from './read-within-deadline.ts';
import { Note, SILENT_NOTE } from './request-note.ts';
import type { Readiness } from './readiness.ts';
import type { RemoteMetrics } from './remote-metrics.ts';
import type { RequestLogEntry } from './request-log.ts';
import type { TokenChecker } from './token-verifier.ts';

/** The MCP endpoint path (docs/design/remote.md §1.4). */
export const MCP_PATH = '/mcp';

/** The liveness path (docs/design/remote.md §1.4a). */
export const HEALTH_PATH = '/healthz';

/** The readiness path (docs/design/remote.md §1.4a). */
export const READY_PATH = '/readyz';

/** Authentication settings; absent with `--insecure-no-auth`. */
export interface RemoteAuth {
  /** `--resource`, exactly as given (token audience, metadata `resource`). */
  readonly resource: string;
  /** `--issuer`, exactly as given. */
  readonly issuer: string;
  /** `--scope` (or its default). */
  readonly scope: string;
  /** Token validation (jose, lazy JWKS), with the reason of a refusal for the operator log. */
  readonly verify: TokenChecker;
}

/** What the handler needs. */
export interface RemoteMcpHandlerOptions {
  /**
   * The tools to expose (context_search only), or a function returning the current ones: read
   * once when a request is admitted, so a reload (SIGHUP) binds the calls that start after it
   * and calls in flight finish with the tools they started with.
   */
  readonly tools: readonly Tool[] | (() => readonly Tool[]);
  /** Allowed `Host` values, lowercased (allowed-hosts.ts). */
  readonly allowedHosts: ReadonlySet<string>;
  /** `--allowed-origin` values, lowercased. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** `--max-concurrency`: requests to `/mcp` handled at the same time. */
  readonly maxConcurrency: number;
  /** Authentication, or undefined with `--insecure-no-auth`. */
  readonly auth: RemoteAuth | undefined;
  /** Receives one entry per answered request (docs/design/remote.md §1.10); absent = no log. */
  readonly log?: (entry: RequestLogEntry) => void;
  /** Counts each answered request and provider request (docs/design/remote.md §1.12); absent = none. */
  readonly metrics?: RemoteMetrics;
  /** The readiness `/readyz` answers from (docs/design/remote.md §1.4a); absent = always ready. */
  readonly readiness?: Readiness;
}

/** The handler and its shutdown control. */
export interface RemoteMcpHandler {
  /** Answers one request. */
  fetch(request: Request): Promise<Response>;
  /** Aborts every MCP request in progress (and its provider request); used after the grace period. */
  abortAll(): void;
  /** `/mcp` requests admitted and not yet answered. */
  readonly active: number;
  /** Resolves once no `/mcp` request is in progress. */
  whenIdle(): Promise<void>;
}

type Route = { readonly path: 'mcp'; readonly method: 'POST' } | { readonly path: 'metadata' | 'healthz' | 'readyz'; readonly method: 'GET' };

/**
 * Builds the handler.
 *
 * Checks run in the order of docs/design/remote.md §1.5, and the first failure answers: Host (403
 * `host_not_allowed`), Origin (403 `origin_not_allowed`), route and method (404, 405 with
 * `Allow`, 204 preflight for an allowed origin; `/healthz` and `/readyz` answer here, §1.4a),
 * concurrency on `/mcp` (503 `server_busy`,
 * `Retry-After: 1`), the Bearer token (§1.6), the body (413 `request_too_large` above 65536
 * bytes), then MCP. Every answer to an allowed origin carries the CORS headers.
 *
 * Over 60 lines: a closure over the state one handler shares across requests (the gate, the
 * shutdown controller, the metadata); its inner functions routeOf, answerMcp and handle are each
 * under 60 lines.
 *
 * @param options Tools, allow-lists, limit and authentication.
 * @returns The handler; it never throws for a client's input.
 * @see docs/design/remote.md §1.4–§1.8
 */
export function createRemoteMcpHandler(options: RemoteMcpHandlerOptions): RemoteMcpHandler {
  const gate = new ConcurrencyGate(options.maxConcurrency);
  const observing = options.log !== undefined || options.metrics !== undefined || options.readiness !== undefined;
  // The controllers of the /mcp requests in progress, aborted together by abortAll(): a set
  // instead of a listener per request on one long-lived shutdown signal.
  const running = new Set<AbortController>();
  let shuttingDown = false;
  const isShuttingDown = (): boolean => shuttingDown;
  const auth = options.auth;
  const metadata = auth === undefined ? undefined : resourceMetadataJson({ resource: auth.resource, issuer: auth.issuer, scope: auth.scope });
  const metadataUrl = auth === undefined ? undefined : resourceMetadataUrl(auth.resource);

  const routeOf = (pathname: string): Route | undefined => {
    if (pathname === MCP_PATH) return { path: 'mcp', method: 'POST' };
    if (pathname === HEALTH_PATH) return { path: 'healthz', method: 'GET' };
    if (pathname === READY_PATH) return { path: 'readyz', method: 'GET' };
    // Without authentication there is no protected resource to describe (docs/design/remote.md §1.4).
    if (auth !== undefined && (pathname === METADATA_PATH_ROOT || pathname === METADATA_PATH_SUFFIXED)) return { path: 'metadata', method: 'GET' };
    return undefined;
  };

  const answerMcp = async (request: Request, cors: Readonly<Record<string, string>>, note: Note): Promise<Response> => {
    // Read once at admission: a reload binds the calls that start after it (docs/design/remote.md §1.13).
    const current = typeof options.tools === 'function' ? options.tools() : options.tools;
    if (auth !== undefined && metadataUrl !== undefined) {
      const token = bearerToken(request.headers.get('authorization'));
      if (token === undefined) return note.refuse('auth-missing', authFailureResponse('no-credential', metadataUrl, auth.scope, cors));
      const check = await auth.verify(token);
      if (check.verdict === 'invalid') return note.refuse(check.refusal, authFailureResponse('invalid-token', metadataUrl, auth.scope, cors));
      if (check.verdict === 'insufficient-scope') return note.refuse(check.refusal, authFailureResponse('insufficient-scope', metadataUrl, auth.scope, cors));
      if (check.verdict === 'jwks-unavailable') {
        options.readiness?.jwksFetched(check.failure);
        return note.refuse(`jwks-${check.failure}`, authFailureResponse('jwks-unavailable', metadataUrl, auth.scope, cors));
      }
    }
    // One controller per request for the body read and the calls, unlinked afterwards:
    // AbortSignal.any would leave a dependent signal on a long-lived shutdown signal for
    // every request. The client going away or shutdown (abortAll) aborts it, and so does the
    // read deadline while the body is read: a slow body cannot hold its slot.
    const aborter = new AbortController();
    const abort = (): void => aborter.abort();
    if (request.signal.aborted || shuttingDown) abort();
    request.signal.addEventListener('abort', abort, { once: true });
    running.add(aborter);
    try {
      const body = await readWithinDeadline(request, aborter, isShuttingDown);
      // connection: close, or a runtime keeps waiting for the rest of the body.
      if (body === 'timeout') return note.refuse('read-timeout', jsonError(408, 'request_timeout', { ...cors, connection: 'close' }));
      // The client went away mid-body: nobody reads this answer, but the log and the metrics
      // count the request (it used to vanish from both, docs/design/remote.md §1.10).
      if (body === 'broken') return note.refuse('bad-request', new Response(null, { status: 400, headers: { ...cors, connection: 'close' } }));
      if (body.kind === 'too-large') return note.refuse('too-large', jsonError(413, 'request_too_large', cors));
      // Batches would let one admitted request run many calls past --max-concurrency; the MCP
      // revision we serve has no batching (docs/design/remote.md §1.5 step 7).
      if (isBatch(body.bytes)) return note.refuse('batch-refused', batchRefused(cors));
      // Per request, so a tool's observation is attributed to this request alone.
      const tools = !observing ? current : current.map((tool) => ({ definition: tool.definition, call: (args: unknown, signal: AbortSignal) => tool.call(args, signal, note.observe) }));
      const answer = withHeaders(await answerMcpPost(request, body.bytes, tools, aborter.signal), cors);
      if (answer.status >= 400) note.refuse('bad-request', answer);
      return answer;
    } finally {
      request.signal.removeEventListener('abort', abort);
      running.delete(aborter);
    }
  };

  const handle = async (request: Request, note: Note): Promise<Response> => {
    // 1. Host: DNS-rebinding protection, from the header alone and before anything parses the
    // URL: a missing Host is refused (a runtime's URL host is not the client's header), and a
    // malformed one never reaches a URL parser that could throw.
    // No Host, or more than one (Bun and Node.js fold them into `a, b`): the empty 400 of
    // RFC 9112 §3.2 that Deno's HTTP layer answers itself to a repeated Host.
    const host = request.headers.get('host');
    const problem = hostFieldProblem(host);
    if (problem === 'missing' || problem === 'repeated') return note.refuse('host-refused', new Response(null, { status: 400 }));
    if (!isAllowedHost(options.allowedHosts, host)) return note.refuse('host-refused', jsonError(403, 'host_not_allowed'));
    // 2. Origin: a browser page from any other origin is refused outright.
    const origin = checkOrigin(request.headers.get('origin'), options.allowedOrigins);
    if (origin.kind === 'refused') return note.refuse('origin-refused', jsonError(403, 'origin_not_allowed'));
    const cors = origin.kind === 'allowed' ? origin.headers : {};
    // 3. Route and method.
    const route = routeOf(pathnameOf(request.url));
    if (route === undefined) return note.refuse('not-found', jsonError(404, 'not_found', cors));
    if (request.method === 'OPTIONS' && origin.kind === 'allowed') return preflightResponse(cors, route.method);
    if (request.method !== route.method) return note.refuse('method-not-allowed', jsonError(405, 'method_not_allowed', { ...cors, allow: route.method }));
    if (route.path === 'healthz') return note.refuse('healthy', probeAnswer(200, { status: 'ok' }, cors));
    if (route.path === 'readyz') {
      const reason = options.readiness?.notReadyReason();
      if (reason === undefined) return note.refuse('ready', probeAnswer(200, { status: 'ready' }, cors));
      return note.refuse('not-ready', probeAnswer(503, { status: 'not-ready', reason }, cors));
    }
    if (route.path === 'metadata') {
      return new Response(metadata ?? '', { status: 200, headers: { ...cors, 'content-type': 'application/json' } });
    }
    // 4. Concurrency: counted from admission until the answer is handed back.
    if (!gate.tryEnter()) return note.refuse('busy', jsonError(503, 'server_busy', { ...cors, 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) }));
    try {
      return await answerMcp(request, cors, note);
    } finally {
      gate.leave();
    }
  };

  return {
    async fetch(request) {
      if (!observing) return handle(request, SILENT_NOTE);
      const started = performance.now();
      const note = new Note(options.metrics, options.readiness);
      const response = await handle(request, note);
      const ms = performance.now() - started;
      options.metrics?.request(note.outcome(), ms / 1000);
      // The log entry (a timestamp, rounding, optional fields) only when a log takes it.
      if (options.log !== undefined) options.log(note.entry(response.status, ms, auth));
      return response;
    },
    abortAll() {
      shuttingDown = true;
      for (const aborter of running) aborter.abort();
    },
    get active() {
      return gate.active;
    },
    whenIdle() {
      return gate.whenIdle();
    },
  };
}

/** The request's path, or '' (no route) when a runtime hands over a URL that does not parse. */
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The exact answer to a JSON-RPC batch (docs/design/remote.md §1.5 step 7). */
export const BATCH_REFUSED_BODY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batch requests are not supported."}}';

/**
 * True when the first byte after an optional UTF-8 BOM and JSON whitespace is `[`: a JSON-RPC
 * batch, refused before any parse. The BOM is skipped because the UTF-8 decoder drops it before
 * `JSON.parse` (answer-mcp-post.ts and the SDK alike), so it would otherwise hide a batch.
 */
function isBatch(bytes: Uint8Array): boolean {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let index = start; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x5b;
  }
  return false;
}

/** A `/healthz` or `/readyz` answer: a small JSON object, never cached. */
function probeAnswer(status: number, body: Readonly<Record<string, string>>, cors: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

function batchRefused(cors: Readonly<Record<string, string>>): Response {
  return new Response(BATCH_REFUSED_BODY, { status: 400, headers: { ...cors, 'content-type': 'application/json' } });
}
