// Test helper: a real Streamable HTTP MCP server (the SDK's Server behind the web-standard
// transport) served by Bun.serve on loopback port 0. The low-level Server is used instead of
// McpServer so tests control the raw tools/list pages, schemas and annotations exactly.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A tool as the server lists it (any shape; tests send invalid ones on purpose). */
export type TestTool = Record<string, unknown> & { name: string };

/** What a tool handler receives. */
export interface CallContext {
  readonly signal: AbortSignal;
  /** Sends a notification on the call's response stream. */
  readonly notify: (method: string) => Promise<void>;
}

/** A handler result: an MCP CallToolResult, or an McpError to throw. */
export type CallHandler = (name: string, args: Record<string, unknown>, context: CallContext) => unknown;

export interface TestServerOptions {
  tools: TestTool[];
  /** Tools per tools/list page (all on one page when absent). */
  pageSize?: number;
  /** When true, tools/list never answers (until the call is cancelled or the server stops). */
  stallList?: boolean;
  /** Always answer this nextCursor (a server that repeats its cursor). */
  fixedCursor?: string;
  /** Advertise `tools.listChanged`. */
  listChanged?: boolean;
  onCall?: CallHandler | undefined;
  /** Listen address: 127.0.0.1 (default) or ::1. */
  hostname?: '127.0.0.1' | '::1' | undefined;
}

export interface TestServer {
  readonly url: string;
  /** Every tools/call the server received: remote name and arguments. */
  readonly calls: Array<{ name: string; args: Record<string, unknown> }>;
  /** Every JSON-RPC message the server received, in order. */
  readonly received: Array<Record<string, unknown>>;
  /** Request headers of every HTTP request. */
  readonly headers: Headers[];
  /** Replaces the listed tools (for list_changed tests). */
  setTools(tools: TestTool[]): void;
  /** Forgets every MCP session, so the next request with an old session id gets HTTP 404. */
  dropSessions(): void;
  /** Drops every open HTTP connection abruptly, without ending any MCP stream. */
  kill(): Promise<void>;
  /** HTTP requests still open (a client's standalone event stream counts until it closes). */
  openRequests(): number;
  close(): Promise<void>;
}

/** Never-ending promise that settles when the signal aborts. */
export function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
}

/**
 * Starts a test MCP server.
 *
 * @param options Tools and behaviour.
 * @returns The running server; close() it in afterEach/afterAll.
 */
export function startMcpServer(options: TestServerOptions): TestServer {
  let tools = options.tools;
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const calls: TestServer['calls'] = [];
  const received: TestServer['received'] = [];
  const headers: Headers[] = [];
  const stopping = new AbortController();

  function createSession(): WebStandardStreamableHTTPServerTransport {
    const server = new Server({ name: 'test-mcp', version: '1.0.0' }, { capabilities: { tools: options.listChanged === true ? { listChanged: true } : {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      if (options.stallList === true) await Promise.race([waitForAbort(extra.signal), waitForAbort(stopping.signal)]);
      const size = options.pageSize ?? Math.max(tools.length, 1);
      const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      const page = tools.slice(start, start + size);
      const next = options.fixedCursor ?? (start + size < tools.length ? String(start + size) : undefined);
      return next === undefined ? { tools: page } : { tools: page, nextCursor: next };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      calls.push({ name: request.params.name, args });
      const context: CallContext = {
        signal: AbortSignal.any([extra.signal, stopping.signal]),
        notify: (method) => extra.sendNotification({ method } as never),
      };
      const handler = options.onCall ?? (() => ({ content: [{ type: 'text', text: 'ok' }] }));
      return (await handler(request.params.name, args, context)) as never;
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    void server.connect(transport);
    return transport;
  }

  const bun = Bun.serve({
    hostname: options.hostname ?? '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      headers.push(request.headers);
      if (request.method === 'POST') {
        const body: unknown = await request
          .clone()
          .json()
          .catch(() => undefined);
        for (const message of Array.isArray(body) ? body : [body]) {
          if (typeof message === 'object' && message !== null) received.push(message as Record<string, unknown>);
        }
      }
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId === null) {
        if (request.method !== 'POST') return new Response(null, { status: 405 });
        return createSession().handleRequest(request);
      }
      const transport = sessions.get(sessionId);
      if (transport === undefined) {
        return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
      }
      return transport.handleRequest(request);
    },
  });
  const host = options.hostname === '::1' ? '[::1]' : '127.0.0.1';
  return {
    url: `http://${host}:${bun.port}/mcp`,
    calls,
    received,
    headers,
    setTools(next) {
      tools = next;
    },
    dropSessions() {
      sessions.clear();
    },
    async kill() {
      await bun.stop(true);
    },
    openRequests() {
      return bun.pendingRequests;
    },
    async close() {
      stopping.abort();
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      sessions.clear();
      await bun.stop(true);
    },
  };
}

/** A text result. */
export function textResult(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { content: [{ type: 'text', text }], ...extra };
}

/** Throws from a handler; the SDK Server answers with a JSON-RPC error carrying `message`. */
export function jsonRpcError(message: string): never {
  throw new Error(message);
}
