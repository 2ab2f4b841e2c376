// One MCP POST, stateless: a fresh SDK Server (our handlers, createMcpServer) and a fresh
// web-standard Streamable HTTP transport with JSON responses per request (docs/design/remote.md §1.5
// step 7, §1.8). Aborting the signal aborts the calls in progress and their provider requests.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from '../server.ts';
import type { Tool } from '../tool.ts';

// Not forwarded to the SDK: the credential (its handlers never need it), and framing headers
// that describe the original stream rather than the bytes already read.
const DROPPED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);

/**
 * Answers one POST to `/mcp` whose checks (Host, Origin, concurrency, token, body size) passed.
 *
 * @param request The original request (URL and headers).
 * @param body The body bytes, already read within the limit.
 * @param tools The tools to expose (context_search only: the remote server is read-only).
 * @param signal Aborted when the client goes away or shutdown ends the grace period: every
 *   call in progress, and every call that starts later, is aborted.
 * @returns The SDK's answer: JSON for requests, 202 for notifications, the SDK's own 4xx for
 *   a wrong `Accept`, `Content-Type` or JSON-RPC shape. No `Mcp-Session-Id` is issued.
 * @see docs/design/remote.md §1.5 step 7, §1.8
 */
export async function answerMcpPost(request: Request, body: Uint8Array<ArrayBuffer>, tools: readonly Tool[], signal: AbortSignal): Promise<Response> {
  const inFlight = new AbortingSet(signal);
  const abortCalls = (): void => {
    for (const controller of inFlight) controller.abort();
  };
  signal.addEventListener('abort', abortCalls, { once: true });
  const server = createMcpServer(tools, inFlight);
  // No sessionIdGenerator = stateless: no Mcp-Session-Id, and a transport serves one request.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers = new Headers();
    request.headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name)) headers.set(name, value);
    });
    // The SDK would read the body a second time through a stream reader; handed the parsed
    // value it skips that read. It decodes and parses exactly so (UTF-8 with replacement, then
    // JSON.parse); a body that does not parse goes to it as bytes, for its own -32700 answer.
    const parsedBody = parseJson(body);
    if (parsedBody === undefined) return await transport.handleRequest(new Request(request.url, { method: 'POST', headers, body }));
    return await transport.handleRequest(new Request(request.url, { method: 'POST', headers }), { parsedBody });
  } finally {
    signal.removeEventListener('abort', abortCalls);
    // Closed once the SDK's own bookkeeping of the answered request has run: closing at once
    // aborted that request's controller, which builds an AbortError with its stack (about 3%
    // of the CPU per search, issue 18). Calls still running were aborted through `signal`.
    setTimeout(() => void server.close().catch(() => {}), 0);
  }
}

const UTF8 = new TextDecoder();

/** The body as the SDK would parse it, or undefined when it is not JSON. */
function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(body)) as unknown;
  } catch {
    return undefined;
  }
}

/** The in-flight set of createMcpServer: a call that starts after the abort is aborted at once. */
class AbortingSet extends Set<AbortController> {
  readonly #signal: AbortSignal;

  constructor(signal: AbortSignal) {
    super();
    this.#signal = signal;
  }

  override add(controller: AbortController): this {
    if (this.#signal.aborted) controller.abort();
    return super.add(controller);
  }
}
