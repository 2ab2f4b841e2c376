// Keeping a server's tools current after discovery (docs/design/frontend-mcp.md §3): re-discovery on
// `notifications/tools/list_changed`, and one background reconnect after the session was lost.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { discoverServer, relistServer } from './discover-server.ts';
import { emitLog, type GatewayLogger } from '../gateway-log.ts';
import type { GatewayTool, ToolCandidate } from '../gateway-tool.ts';
import { failureMessage, type ServerSlot } from './server-slot.ts';

/** What recovery needs from the gateway. */
export interface RecoveryContext {
  readonly fetch: FetchLike;
  readonly logger: GatewayLogger | undefined;
  isClosed(): boolean;
  /**
   * Names one server's tools while every other server keeps its names.
   *
   * @throws {FrontendMcpError} `Duplicate Frontend MCP tool name: <name>`.
   */
  nameAlone(slot: ServerSlot, candidates: readonly ToolCandidate[]): GatewayTool[];
}

/**
 * The list-changed callback of one connection: ignored (and logged) unless the server set
 * `refreshOnListChanged` and advertised `tools.listChanged`; then at most one refresh runs and
 * one is queued. Bound to the slot's current generation, so an old connection is never heard.
 *
 * @param slot The server.
 * @param context The gateway.
 * @returns The callback for connectServer.
 */
export function toolsChangedHandler(slot: ServerSlot, context: RecoveryContext): () => void {
  const generation = slot.generation;
  return () => {
    if (context.isClosed() || slot.generation !== generation) return;
    if (!slot.config.refreshOnListChanged || (slot.connection !== undefined && !slot.connection.listChanged)) {
      emitLog(context.logger, { event: 'frontend_mcp.tools_changed', server: slot.config.key, outcome: 'ignored' });
      return;
    }
    if (slot.refreshing || slot.status !== 'ready') slot.refreshQueued = true;
    else startRefresh(slot, context);
  };
}

/**
 * Lists and validates a ready server's tools again with a fresh connectTimeoutMs budget.
 * Success replaces its tools at once; failure fails the server closed.
 *
 * @param slot A ready server.
 * @param context The gateway.
 */
export function startRefresh(slot: ServerSlot, context: RecoveryContext): void {
  slot.refreshQueued = false;
  slot.refreshing = true;
  void refresh(slot, context).finally(() => {
    slot.refreshing = false;
    if (slot.refreshQueued && slot.status === 'ready' && !context.isClosed()) startRefresh(slot, context);
  });
}

/**
 * HTTP 404 on a call: the server no longer knows the session. The call is not resent; the
 * server fails closed (`Frontend MCP session expired: <key>`, which also invalidates its pending
 * approvals) and one background reconnect runs the full discovery for it.
 *
 * @param slot The server.
 * @param generation The generation the failed call started in (a later one is left alone).
 * @param context The gateway.
 */
export function recoverLostSession(slot: ServerSlot, generation: number, context: RecoveryContext): void {
  if (context.isClosed() || slot.generation !== generation || slot.reconnecting) return;
  slot.failClosed(`Frontend MCP session expired: ${slot.config.key}`);
  slot.reconnecting = true;
  void reconnect(slot, context).finally(() => {
    slot.reconnecting = false;
  });
}

async function refresh(slot: ServerSlot, context: RecoveryContext): Promise<void> {
  const { generation, connection } = slot;
  if (connection === undefined) return;
  try {
    const candidates = await relistServer(slot.config, connection);
    if (context.isClosed() || slot.generation !== generation) return;
    slot.replaceTools(context.nameAlone(slot, candidates));
    emitLog(context.logger, { event: 'frontend_mcp.tools_changed', server: slot.config.key, outcome: 'refreshed' });
  } catch (error) {
    if (context.isClosed() || slot.generation !== generation) return;
    emitLog(context.logger, { event: 'frontend_mcp.tools_changed', server: slot.config.key, outcome: 'failed' });
    slot.failClosed(failureMessage(error), error);
  }
}

async function reconnect(slot: ServerSlot, context: RecoveryContext): Promise<void> {
  const generation = slot.generation;
  try {
    const found = await discoverServer(slot.config, { fetch: context.fetch, onToolsChanged: toolsChangedHandler(slot, context) });
    let tools: GatewayTool[];
    try {
      if (context.isClosed() || slot.generation !== generation) throw new Error('stale reconnect');
      tools = context.nameAlone(slot, found.candidates);
    } catch (error) {
      await found.connection.close();
      throw error;
    }
    slot.markReady(found.connection, tools);
  } catch (error) {
    if (!context.isClosed() && slot.generation === generation) slot.failClosed(failureMessage(error), error);
  }
}
