// Reads a server's whole tool list, following `nextCursor` (docs/design/frontend-mcp.md §3; Decision: the
// reference read one page), within the discovery budget and the page and tool limits.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { printableKeyOrMark } from '../config/printable-key.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Most tools/list pages read from one server. */
export const MAX_TOOL_LIST_PAGES = 20;
/** Most remote tools accepted from one server. */
export const MAX_REMOTE_TOOLS = 1000;

/** One remote tool as listed; only `name` is known to be valid here. */
export type RemoteTool = Readonly<Record<string, unknown>> & { readonly name: string };

/**
 * Lists every tool of a server.
 *
 * @param client An initialized client.
 * @param serverKey The server's key, for messages.
 * @param signal The discovery budget (the same signal that bounded `initialize`).
 * @returns Remote tools in server order, names unique.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable`: `Frontend MCP tool list exceeds the
 *   limit: <key>` past 20 pages or 1000 tools or on a repeated cursor; `Duplicate Frontend MCP
 *   tool name: <name>` for two tools of one name; `Frontend MCP tool list is invalid: <key>` for
 *   a malformed page. The SDK's error when a request fails or the signal aborts.
 * @see docs/design/frontend-mcp.md §3
 */
export async function listRemoteTools(client: Client, serverKey: string, signal: AbortSignal): Promise<RemoteTool[]> {
  const tools: RemoteTool[] = [];
  const names = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const request = cursor === undefined ? { method: 'tools/list' as const } : { method: 'tools/list' as const, params: { cursor } };
    // ResultSchema (loose) instead of ListToolsResultSchema: one odd tool must not fail the
    // parse before our own rules (§5) decide about the tools that are actually enabled.
    const result = await requestPage(client, request, signal);
    const listed = (result as Record<string, unknown>)['tools'];
    const next = (result as Record<string, unknown>)['nextCursor'];
    if (!Array.isArray(listed) || (next !== undefined && typeof next !== 'string')) throw invalidList(serverKey);
    for (const tool of listed) {
      if (!isPlainObject(tool) || typeof tool['name'] !== 'string') throw invalidList(serverKey);
      if (tools.length >= MAX_REMOTE_TOOLS) throw overLimit(serverKey);
      const name = tool['name'];
      if (names.has(name)) {
        throw new FrontendMcpError('frontend_mcp_tool_unavailable', `Duplicate Frontend MCP tool name: ${printableKeyOrMark(name)}`);
      }
      names.add(name);
      tools.push(tool as RemoteTool);
    }
    if (next === undefined) return tools;
    if (page >= MAX_TOOL_LIST_PAGES || cursors.has(next)) throw overLimit(serverKey);
    cursors.add(next);
    cursor = next;
  }
}

/**
 * One tools/list request under its own signal, linked to the discovery budget only while the
 * page is in flight: the SDK adds an abort listener to the signal it is given and never removes
 * it, so sharing `signal` across pages piled up listeners (Node warns past 10).
 */
async function requestPage(client: Client, request: Parameters<Client['request']>[0], signal: AbortSignal): Promise<unknown> {
  const page = new AbortController();
  const abort = (): void => page.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  try {
    return await client.request(request, ResultSchema, { signal: page.signal, timeout: 60000 });
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

function overLimit(serverKey: string): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', `Frontend MCP tool list exceeds the limit: ${serverKey}`);
}

function invalidList(serverKey: string): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', `Frontend MCP tool list is invalid: ${serverKey}`);
}
