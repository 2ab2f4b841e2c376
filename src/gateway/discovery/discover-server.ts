// Discovery of one server: connect, list every page, validate the enabled tools, all within
// one connectTimeoutMs budget; any failure closes the client (docs/design/frontend-mcp.md §3, fail closed).
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { untilAborted } from '../../util/until-aborted.ts';
import { buildToolCandidates } from './build-tool-candidates.ts';
import type { FrontendMcpServerConfig } from '../config/schema.ts';
import { connectServer, type ServerConnection } from './connect-server.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import type { ToolCandidate } from '../gateway-tool.ts';
import { listRemoteTools } from './list-remote-tools.ts';

/** A connected server and its validated tools (not yet named). */
export interface DiscoveredServer {
  readonly connection: ServerConnection;
  readonly candidates: readonly ToolCandidate[];
}

/**
 * Connects to a server and validates its enabled tools.
 *
 * @param server An enabled server.
 * @param options The fetch to use and the list-changed callback.
 * @returns The open connection and the tool candidates in configuration order.
 * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable` with `Frontend MCP discovery timed
 *   out: <key>` when the budget ran out, a validation message, or `Frontend MCP connection
 *   failed: <key>` for any other failure (the SDK's text, which may echo the server, is dropped).
 * @see docs/design/frontend-mcp.md §3
 */
export async function discoverServer(server: FrontendMcpServerConfig, options: { readonly fetch?: FetchLike | undefined; readonly onToolsChanged: () => void }): Promise<DiscoveredServer> {
  const signal = AbortSignal.timeout(server.connectTimeoutMs);
  let connection: ServerConnection | undefined;
  try {
    connection = await connectServer(server, { signal, fetch: options.fetch, onToolsChanged: options.onToolsChanged });
    const remote = await untilAborted(listRemoteTools(connection.client, server.key, signal), signal);
    return { connection, candidates: buildToolCandidates(server, remote) };
  } catch (error) {
    await connection?.close();
    throw discoveryError(server.key, error, signal);
  }
}

/**
 * Lists and validates the tools of an open connection again (re-discovery after
 * `notifications/tools/list_changed`), with a fresh connectTimeoutMs budget.
 *
 * @param server The server's configuration.
 * @param connection Its open connection (left open on failure; the caller fails it closed).
 * @returns The new candidates.
 * @throws {FrontendMcpError} As discoverServer.
 * @see docs/design/frontend-mcp.md §3, "Re-discovery"
 */
export async function relistServer(server: FrontendMcpServerConfig, connection: ServerConnection): Promise<ToolCandidate[]> {
  const signal = AbortSignal.timeout(server.connectTimeoutMs);
  try {
    const remote = await untilAborted(listRemoteTools(connection.client, server.key, signal), signal);
    return buildToolCandidates(server, remote);
  } catch (error) {
    throw discoveryError(server.key, error, signal);
  }
}

function discoveryError(serverKey: string, error: unknown, signal: AbortSignal): FrontendMcpError {
  if (signal.aborted) {
    return new FrontendMcpError('frontend_mcp_tool_unavailable', `Frontend MCP discovery timed out: ${serverKey}`, { cause: error });
  }
  if (error instanceof FrontendMcpError) return error;
  return new FrontendMcpError('frontend_mcp_tool_unavailable', `Frontend MCP connection failed: ${serverKey}`, { cause: error });
}
