// The state of one configured server inside the gateway: status, connection, named tools and
// the generation that invalidates stale work and approvals (docs/design/frontend-mcp.md §3, §11).
import { transportFailureOf } from '../../providers/transport-failure.ts';
import type { FrontendMcpServerConfig } from '../config/schema.ts';
import type { ServerConnection } from './connect-server.ts';
import { FrontendMcpError } from '../frontend-mcp-error.ts';
import { emitLog, type GatewayLogger } from '../gateway-log.ts';
import type { GatewayTool } from '../gateway-tool.ts';

/** Status of one server (docs/design/frontend-mcp.md §11). */
export type ServerStatus = 'connecting' | 'ready' | 'error' | 'pending' | 'disabled';

/** Health of one server. */
export interface ServerHealth {
  readonly key: string;
  readonly enabled: boolean;
  readonly status: ServerStatus;
  /** Exposed tools of this server. */
  readonly tools: number;
  /** The fail-closed message when `status` is `error`. */
  readonly error?: string;
}

/** One server's mutable state; transitions log and report the change to the gateway. */
export class ServerSlot {
  readonly config: FrontendMcpServerConfig;
  status: ServerStatus;
  error: string | undefined;
  connection: ServerConnection | undefined;
  /** Named tools; exposed only while `status` is `ready`. */
  tools: GatewayTool[] = [];
  /** Changes whenever the server fails or reconnects, so stale work and approvals are dropped. */
  generation = 0;
  refreshing = false;
  refreshQueued = false;
  reconnecting = false;
  readonly #logger: GatewayLogger | undefined;
  readonly #onChange: () => void;

  /**
   * @param config The server's configuration.
   * @param logger Receives `connected` and `connection_failed`.
   * @param onChange Called after every change of the exposed tools.
   */
  constructor(config: FrontendMcpServerConfig, logger: GatewayLogger | undefined, onChange: () => void) {
    this.config = config;
    this.status = config.enabled ? 'pending' : 'disabled';
    this.#logger = logger;
    this.#onChange = onChange;
  }

  /** The server is connected and its tools are named and exposed. */
  markReady(connection: ServerConnection, tools: GatewayTool[]): void {
    this.connection = connection;
    this.tools = tools;
    this.status = 'ready';
    this.error = undefined;
    this.#onChange();
    emitLog(this.#logger, { event: 'frontend_mcp.connected', server: this.config.key, tools: tools.length });
  }

  /** Replaces the tools of a ready server (re-discovery). */
  replaceTools(tools: GatewayTool[]): void {
    this.tools = tools;
    this.#onChange();
  }

  /** Withdraws every tool, closes the client and records the error (§3, "fail closed"). */
  failClosed(message: string, cause?: unknown): void {
    this.status = 'error';
    this.error = message;
    this.tools = [];
    this.generation++;
    void this.connection?.close();
    this.connection = undefined;
    this.#onChange();
    const failure = transportFailureOf(cause);
    emitLog(this.#logger, { event: 'frontend_mcp.connection_failed', server: this.config.key, error: message, ...(failure === undefined ? {} : { class: failure }) });
  }

  /** Health entry (docs/design/frontend-mcp.md §11). */
  health(): ServerHealth {
    const base = { key: this.config.key, enabled: this.config.enabled, status: this.status, tools: this.status === 'ready' ? this.tools.length : 0 };
    return this.status === 'error' && this.error !== undefined ? { ...base, error: this.error } : base;
  }
}

/**
 * The health text for a failure: only our own messages; anything else (SDK or upstream text)
 * gets a fixed text.
 *
 * @param error Any error from discovery.
 * @returns A message safe to print.
 */
export function failureMessage(error: unknown): string {
  return error instanceof FrontendMcpError ? error.message : 'Frontend MCP discovery failed.';
}
