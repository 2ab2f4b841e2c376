// The runner's MCP connection (docs/design/remote.md §2.1): the SDK Client over stdio (a child spawned
// without a shell) or Streamable HTTP, with the 10000 ms budgets, answers kept raw so every
// check sees exactly what the server sent. Nothing here prints.
import type { Writable } from 'node:stream';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.ts';
import { quoteServerValue } from './quote-server-value.ts';

/** Budget of `initialize` and of every later request, in ms (docs/design/remote.md §2.1). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The raw outcome of one request. */
export type RequestOutcome =
  /** A JSON-RPC result, exactly as sent. */
  | { readonly kind: 'result'; readonly result: Readonly<Record<string, unknown>> }
  /** A JSON-RPC error; `message` as the server sent it. */
  | { readonly kind: 'error'; readonly code: number; readonly message: string }
  /** No answer within 10000 ms. */
  | { readonly kind: 'timeout' }
  /** The connection failed or closed before an answer; `cause` is the failure class of a rejected request, when known. */
  | { readonly kind: 'failed'; readonly cause?: string }
  /** Not answered within the run's overall `--timeout` (budget-session.ts). */
  | { readonly kind: 'over-budget' };

/** An initialized connection. */
export interface ConformanceSession {
  /** Sends one request and waits up to 10000 ms. Never throws. */
  request(method: string, params: Readonly<Record<string, unknown>>): Promise<RequestOutcome>;
  /** Closes the connection (stdio: stdin closed, then SIGTERM after 2000 ms, SIGKILL 2000 ms later). */
  close(): Promise<void>;
}

/** The outcome of `connect`: a session, or the fixed reason it failed. */
export type ConnectOutcome = { readonly ok: true; readonly session: ConformanceSession } | { readonly ok: false; readonly reason: string };

/** How the child of `--command` runs. */
export interface StdioTarget {
  /** Program (looked up on PATH when it has no path separator) and arguments. */
  readonly words: readonly string[];
  /** The runner's environment, inherited unchanged. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The runner's working directory. */
  readonly cwd: string;
  /** The child's stderr is copied here. */
  readonly stderr: Writable;
}

/** Where `--url` connects. */
export interface HttpTarget {
  readonly url: string;
  /** `--header` values, sent on every request; never printed. */
  readonly headers: Readonly<Record<string, string>>;
  /** The fetch routed by the proxy decision for the URL. */
  readonly fetch: FetchLike;
  /**
   * The failure class label of a rejected request behind `error` (`connection-refused`,
   * `tls-untrusted-certificate`, …; docs/design/providers.md §1.6), or undefined when none is known.
   */
  readonly failureOf?: (error: unknown) => string | undefined;
}

/**
 * Spawns the `--command` child and initializes.
 *
 * @returns The session, or a reason: `the command could not be started`, or one of
 *   {@link connectClient}'s.
 * @see docs/design/remote.md §2.1
 */
export async function connectStdio(target: StdioTarget): Promise<ConnectOutcome> {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const [command, ...args] = target.words;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(target.env)) if (typeof value === 'string') env[name] = value;
  // No shell: the SDK spawns the program directly (shell: false).
  const transport = new StdioClientTransport({ command: command ?? '', args, env, cwd: target.cwd, stderr: 'pipe' });
  transport.stderr?.pipe(target.stderr, { end: false });
  return connectClient(transport, 'stdio');
}

/**
 * Connects over Streamable HTTP and initializes.
 *
 * @see docs/design/remote.md §2.1
 */
export async function connectHttp(target: HttpTarget): Promise<ConnectOutcome> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: { ...target.headers } },
    fetch: target.fetch,
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  return connectClient(transport, 'http', target.failureOf ?? (() => undefined));
}

/**
 * Runs `initialize` (10000 ms) over a transport and checks the `tools` capability. Exported
 * for in-process tests, which connect it to a server on an in-memory transport.
 *
 * @param transport An unstarted client transport.
 * @param kind Which failure reasons apply: `stdio` (spawn errors) or `http` (HTTP statuses).
 * @param failureOf The failure class label of a rejected request behind an error, if known.
 * @returns The session, or one fixed reason: `the command could not be started`,
 *   `initialize did not complete within 10000 ms`, `initialize failed with HTTP <status>`,
 *   `the server could not be reached`, `the server could not be reached (<failure class>)`,
 *   `the server closed the connection during initialize`,
 *   `initialize failed with JSON-RPC error <code> <quoted message>`, `initialize failed`, or
 *   `the server does not declare the tools capability`.
 */
export async function connectClient(transport: Transport, kind: 'stdio' | 'http', failureOf: (error: unknown) => string | undefined = () => undefined): Promise<ConnectOutcome> {
  const client = new Client({ name: 'external-context-conformance', version: VERSION }, { capabilities: {} });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Transport errors carry server or network text; the checks report fixed phrases instead.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => {});
    return { ok: false, reason: connectFailureReason(error, kind, failureOf(error)) };
  }
  if (client.getServerCapabilities()?.tools === undefined) {
    await client.close().catch(() => {});
    return { ok: false, reason: 'the server does not declare the tools capability' };
  }
  return {
    ok: true,
    session: {
      async request(method, params) {
        try {
          const result = await client.request({ method, params: { ...params } }, ResultSchema, { timeout: REQUEST_TIMEOUT_MS });
          return { kind: 'result', result: result as Record<string, unknown> };
        } catch (error) {
          return requestFailure(error, closed, failureOf(error));
        }
      },
      close: () => client.close().catch(() => {}),
    },
  };
}

function isLocalTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout && typeof (error.data as { timeout?: unknown } | undefined)?.timeout === 'number';
}

function requestFailure(error: unknown, closed: boolean, cause: string | undefined): RequestOutcome {
  if (isLocalTimeout(error)) return { kind: 'timeout' };
  if (error instanceof McpError && !closed) {
    // McpError prefixes "MCP error <code>: "; the server's own message follows it.
    const prefix = `MCP error ${error.code}: `;
    return { kind: 'error', code: error.code, message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message };
  }
  return cause === undefined ? { kind: 'failed' } : { kind: 'failed', cause };
}

function connectFailureReason(error: unknown, kind: 'stdio' | 'http', cause: string | undefined): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (kind === 'stdio' && typeof code === 'string') return 'the command could not be started';
  if (isLocalTimeout(error)) return `initialize did not complete within ${REQUEST_TIMEOUT_MS} ms`;
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) return 'the server closed the connection during initialize';
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return `initialize failed with JSON-RPC error ${error.code} ${quoteServerValue(message)}`;
  }
  if (kind === 'http') {
    // A classified request failure: the class says why (docs/design/remote.md §2.1).
    if (cause !== undefined) return `the server could not be reached (${cause})`;
    const status = httpStatusOf(error);
    if (status !== undefined) return `initialize failed with HTTP ${status}`;
    // fetch rejects with a TypeError when no connection could be made.
    if (error instanceof TypeError) return 'the server could not be reached';
  }
  return 'initialize failed';
}

// The SDK's StreamableHTTPError carries the status as `code`; UnauthorizedError means 401.
function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if (error instanceof UnauthorizedError) return 401;
  const code = (error as { code?: unknown }).code;
  if (error instanceof McpError) return undefined;
  return typeof code === 'number' && code >= 100 && code <= 599 ? code : undefined;
}
