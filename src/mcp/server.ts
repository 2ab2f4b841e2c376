// The stdio MCP server: the SDK's low-level Server with our own tools/list and tools/call
// handlers, so input errors are our exact texts (docs/design/profile-v1.md §3.1), and exit on stdin EOF
// (docs/design/profile-v1.md §7), which the SDK does not do by itself.
import { Server, type ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CallToolRequest, CallToolRequestSchema, ListToolsRequestSchema, RequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { VERSION } from '../version.ts';
import { LineLengthGuard, refusalLine } from './line-length-guard.ts';
import type { Tool } from './tool.ts';

/** The MCP `serverInfo.name`. */
export const SERVER_NAME = 'external-context';

// tools/call registered with a permissive params schema (docs/design/profile-v1.md §3.1). The SDK's
// Protocol parses a request with the handler's schema before anything else and answers a
// failure with -32603 and the raw parser text; with the strict CallToolRequestSchema, non-object
// `arguments` (null, 42, [], "policy") would get that internal error. Registered this way, the
// Server's own tools/call validation runs first and answers -32602 `Invalid tools/call request: …`.
const PERMISSIVE_CALL_TOOL_REQUEST = RequestSchema.extend({ method: CallToolRequestSchema.shape.method });

// The SDK Server builds an Ajv instance (with ajv-formats) in its constructor unless given a
// validator, and uses it only to check `elicitation/create` answers, which this server never
// requests. Passing this one skips that construction on every start and, for the stateless
// `serve --http`, on every request (issue 10, "avoid constructing validators eagerly").
const NO_ELICITATION_VALIDATOR: NonNullable<ServerOptions['jsonSchemaValidator']> = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'This server never requests elicitation.' }),
};

/**
 * Builds an SDK Server exposing exactly `tools`, in order.
 *
 * @param tools context_search first, then context_remember in the write variant; or a function
 *   returning the current ones, read once per request, so a reload (SIGHUP) binds the calls that
 *   start after it while calls in flight finish on the tools they started with.
 * @param inFlight Optional set that tracks the abort controllers of running calls.
 * @param calls Optional set that holds, while a call runs, a promise that settles (never
 *   rejects) once the call has ended and written its operator line, if any.
 */
export function createMcpServer(tools: readonly Tool[] | (() => readonly Tool[]), inFlight?: Set<AbortController>, calls?: Set<Promise<unknown>>): Server {
  const server = new Server({ name: SERVER_NAME, version: VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator: NO_ELICITATION_VALIDATOR });
  const fixed = typeof tools === 'function' ? undefined : toolIndex(tools);
  const current = (): ToolIndex => fixed ?? toolIndex((tools as () => readonly Tool[])());
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: current().definitions as never }));
  server.setRequestHandler(PERMISSIVE_CALL_TOOL_REQUEST, async (request, extra) => {
    // The Server validated the request against CallToolRequestSchema before calling us.
    const params = request.params as CallToolRequest['params'];
    const tool = current().byName.get(params.name);
    if (tool === undefined) {
      // A plain Error with `code` is sent unchanged; McpError would prefix "MCP error -32602: ".
      throw Object.assign(new Error('Unknown tool.'), { code: -32602 });
    }
    const controller = new AbortController();
    const abort = (): void => controller.abort(extra.signal.reason);
    if (extra.signal.aborted) abort();
    else extra.signal.addEventListener('abort', abort, { once: true });
    inFlight?.add(controller);
    const call = tool.call(params.arguments, controller.signal);
    const settled = call.then(
      () => undefined,
      () => undefined,
    );
    calls?.add(settled);
    try {
      return (await call) as never;
    } finally {
      inFlight?.delete(controller);
      calls?.delete(settled);
      extra.signal.removeEventListener('abort', abort);
    }
  });
  return server;
}

interface ToolIndex {
  readonly definitions: readonly Tool['definition'][];
  readonly byName: ReadonlyMap<string, Tool>;
}

function toolIndex(tools: readonly Tool[]): ToolIndex {
  return { definitions: tools.map((tool) => tool.definition), byName: new Map(tools.map((tool) => [tool.definition.name, tool])) };
}

/**
 * Serves `tools` over stdio until stdin ends.
 *
 * @returns When stdin has ended (or errored), or stdout errored (the client is gone): every
 *   in-flight call aborted and ended (so its `cancelled` operator line is written on every
 *   runtime before the process exits, docs/design/profile-v1.md §7), the server closed.
 */
export async function serveStdio(tools: readonly Tool[] | (() => readonly Tool[]), stdin: Readable, stdout: Writable): Promise<void> {
  const inFlight = new Set<AbortController>();
  const calls = new Set<Promise<unknown>>();
  const server = createMcpServer(tools, inFlight, calls);
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    stdin.once('error', resolve);
    // A stdout error (EPIPE: the client closed its end) means the client is gone; handled here,
    // it stops serving instead of crashing the process with a stack trace.
    stdout.on('error', () => resolve());
  });
  // A refused line gets its JSON-RPC error here: the SDK never saw it (docs/design/profile-v1.md §6.1).
  const guard = new LineLengthGuard({ onRefused: (reason) => void stdout.write(refusalLine(reason)) });
  stdin.pipe(guard);
  // The SDK waits for `drain` once per answer written while stdout is full: a client that sends
  // many requests before reading made Bun and Node.js print MaxListenersExceededWarning on
  // stderr, which carries operator lines only (docs/design/profile-v1.md §6). Not a leak: each
  // listener goes at the next drain.
  const maxListeners = stdout.getMaxListeners();
  stdout.setMaxListeners(0);
  await server.connect(new StdioServerTransport(guard, stdout));
  await closed;
  const ending = [...calls];
  for (const controller of inFlight) controller.abort();
  // Each aborted call ends promptly (its fetch honours the signal). Waiting for it makes the
  // three runtimes agree: before, only Node.js got to write the call's `cancelled` line.
  await Promise.all(ending);
  stdin.unpipe(guard);
  await server.close().catch(() => undefined);
  stdout.setMaxListeners(maxListeners);
}
