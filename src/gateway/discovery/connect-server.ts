// Opens one MCP client session over Streamable HTTP to a configured server (docs/design/frontend-mcp.md §3).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { routedFetch } from '../../providers/outbound.ts';
import { untilAborted } from '../../util/until-aborted.ts';
import { VERSION } from '../../version.ts';
import type { FrontendMcpServerConfig } from '../config/schema.ts';
import { boundedFetch } from './bounded-fetch.ts';
import { drainableFetch } from './notification-drain.ts';
import { fetchWithStreamLoss } from './stream-loss.ts';

/** An initialized client session with one server. */
export interface ServerConnection {
  readonly client: Client;
  /** Whether the server advertised `tools.listChanged` in its capabilities. */
  readonly listChanged: boolean;
  /** True once the connection has closed, from either side. */
  isClosed(): boolean;
  /** Closes the session after in-flight notifications had up to 1000 ms to arrive; never throws. */
  close(): Promise<void>;
}

/** How to connect. */
export interface ConnectOptions {
  /** The discovery budget shared with every tools/list page (connectTimeoutMs). */
  readonly signal: AbortSignal;
  /** The fetch every request of this connection goes through (proxy routing, docs/design/config.md §12); default: outbound.ts's routed fetch with no proxy variables (every target direct). */
  readonly fetch?: FetchLike | undefined;
  /** Called for each `notifications/tools/list_changed` the server sends. */
  readonly onToolsChanged: () => void;
}

/**
 * Connects and runs `initialize` within the signal's budget.
 *
 * @param server The enabled server (headers already resolved).
 * @param options Budget, fetch and the list-changed callback.
 * @returns The open connection.
 * @throws The SDK's or the signal's error; the half-open client is closed first.
 * @see docs/design/frontend-mcp.md §3
 */
export async function connectServer(server: FrontendMcpServerConfig, options: ConnectOptions): Promise<ServerConnection> {
  const client = new Client({ name: `external-context-gateway-${server.key}`, version: VERSION }, { capabilities: {} });
  // Byte caps and a per-request abort under everything else (docs/design/frontend-mcp.md §3.1).
  const tracked = drainableFetch(boundedFetch(options.fetch ?? routedFetch({})));
  const transport = new StreamableHTTPClientTransport(new URL(server.transport.url), {
    requestInit: { headers: { ...server.transport.headers } },
    fetch: fetchWithStreamLoss(tracked.fetch),
    // A dropped stream is not resumed in the background: calls are bounded by their own timeout.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Transport errors carry upstream text; they are never printed (the call path reports them).
  client.onerror = () => {};
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
  try {
    await untilAborted(client.connect(transport, { signal: options.signal, timeout: 60000 }), options.signal);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return {
    client,
    listChanged: client.getServerCapabilities()?.tools?.listChanged === true,
    isClosed: () => closed,
    close: async () => {
      await tracked.drain();
      await client.close().catch(() => {});
    },
  };
}
