// FrontendMcpGateway: discovers the enabled tools of every configured server, names them,
// executes calls and keeps per-server health (docs/design/frontend-mcp.md §1.1, §3, §6, §11).
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { assignToolNames } from './discovery/assign-tool-names.ts';
import { callRemoteTool, type CallResult, SessionLostError } from './result/call-remote-tool.ts';
import type { FrontendMcpConfig } from './config/schema.ts';
import { type DiscoveredServer, discoverServer } from './discovery/discover-server.ts';
import { FrontendMcpError } from './frontend-mcp-error.ts';
import type { GatewayLogger } from './gateway-log.ts';
import { GatewaySession } from './session/gateway-session.ts';
import { finalizeTool, type GatewayTool, type GatewayToolDefinition } from './gateway-tool.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { gatewayFetch } from './config/proxy-routing.ts';
import { RESPOND_TOOL_NAME, respondToolDefinition } from './session/respond-tool.ts';
import { type RecoveryContext, recoverLostSession, startRefresh, toolsChangedHandler } from './discovery/server-recovery.ts';
import { failureMessage, type ServerHealth, ServerSlot } from './discovery/server-slot.ts';
import type { SessionHost } from './session/session-host.ts';

/** Health of the gateway: `ok` is false when any enabled server is in `error`. */
export interface GatewayHealth {
  readonly ok: boolean;
  /** True once the first discovery has settled. */
  readonly initialized: boolean;
  /** Exposed tools across all servers. */
  readonly tools: number;
  readonly servers: readonly ServerHealth[];
}

/** Options of the gateway. */
export interface FrontendMcpGatewayOptions {
  /** Receives log events (docs/design/frontend-mcp.md §11). */
  readonly logger?: GatewayLogger;
  /** The host's own tool names; gateway names never collide with them. */
  readonly reservedNames?: Iterable<string>;
  /** Clock in milliseconds since the epoch, for approval expiry and turn windows. */
  readonly now?: () => number;
  /**
   * The environment for proxy decisions (docs/design/config.md §12); default: the one loadFrontendMcpConfig
   * read for this configuration object.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The policy-enforcing MCP client gateway. */
export class FrontendMcpGateway {
  readonly #logger: GatewayLogger | undefined;
  readonly #reserved: ReadonlySet<string>;
  readonly #now: () => number;
  readonly #fetch: FetchLike;
  readonly #slots: ServerSlot[];
  #byName = new Map<string, { readonly tool: GatewayTool; readonly slot: ServerSlot }>();
  #discovery: Promise<void> | undefined;
  #initialized = false;
  #closed = false;
  readonly #sessions = new Set<GatewaySession>();

  /**
   * @param config The normalized configuration (loadFrontendMcpConfig).
   * @param options Logger, reserved host names, clock and proxy environment.
   */
  constructor(config: FrontendMcpConfig, options: FrontendMcpGatewayOptions = {}) {
    this.#logger = options.logger;
    this.#reserved = new Set([...(options.reservedNames ?? []), RESPOND_TOOL_NAME]);
    this.#now = options.now ?? Date.now;
    this.#fetch = gatewayFetch(config, options.env);
    this.#slots = config.servers.map((server) => new ServerSlot(server, this.#logger, () => this.#reindex()));
  }

  /**
   * Connects to every enabled server in parallel and exposes their enabled tools. Idempotent:
   * concurrent and later calls share one run. A failing server fails closed on its own; the
   * promise still resolves (see health()).
   *
   * @throws {FrontendMcpError} `Frontend MCP client is closed.` after close().
   * @see docs/design/frontend-mcp.md §3
   */
  discover(): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    this.#discovery ??= this.#discoverAll();
    return this.#discovery;
  }

  /**
   * The model-visible definitions: discovered tools in configuration order, then
   * `respond_frontend_tool_permission` when some ready tool needs approval.
   *
   * @returns Fresh definition objects; empty before discovery.
   * @see docs/design/frontend-mcp.md §4, §5, §9
   */
  tools(): GatewayToolDefinition[] {
    const records = this.toolRecords();
    const definitions = records.map((tool) => structuredClone(tool.definition) as GatewayToolDefinition);
    const needsApproval = records.some((tool) => !tool.policy.readOnly && tool.policy.approval === 'required');
    return needsApproval ? [...definitions, respondToolDefinition()] : definitions;
  }

  /** The exposed tool records (name, server, remote name, policy), in configuration order. */
  toolRecords(): GatewayTool[] {
    return this.#slots.flatMap((slot) => (slot.status === 'ready' ? slot.tools : []));
  }

  /**
   * Calls one exposed tool.
   *
   * @param name The model-visible name.
   * @param args The arguments: a plain object.
   * @param options `signal` aborts the call (combined with the tool's timeoutMs).
   * @returns The bounded envelope (docs/design/frontend-mcp.md §7), or `tool_result_too_large`.
   * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable` (`Frontend MCP tool is not
   *   enabled.`, `Frontend MCP server is not ready.`); `frontend_mcp_tool_failed` (`Frontend MCP
   *   tool arguments must be an object.`, transport failures); `frontend_mcp_tool_aborted`.
   * @see docs/design/frontend-mcp.md §6
   */
  async execute(name: string, args: unknown, options: { readonly signal?: AbortSignal } = {}): Promise<CallResult> {
    const entry = this.#byName.get(name);
    if (entry === undefined) throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool is not enabled.');
    const { tool, slot } = entry;
    const connection = slot.connection;
    if (slot.status !== 'ready' || connection === undefined) {
      throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP server is not ready.');
    }
    // Decision: non-object arguments are refused (the reference replaced them with {}).
    if (!isPlainObject(args)) throw new FrontendMcpError('frontend_mcp_tool_failed', 'Frontend MCP tool arguments must be an object.');
    const generation = slot.generation;
    try {
      return await callRemoteTool(connection, tool, args, options.signal);
    } catch (error) {
      if (error instanceof SessionLostError) recoverLostSession(slot, generation, this.#recovery());
      throw error;
    }
  }

  /** Per-server health (docs/design/frontend-mcp.md §11). */
  health(): GatewayHealth {
    const servers = this.#slots.map((slot) => slot.health());
    return {
      ok: !this.#slots.some((slot) => slot.config.enabled && slot.status === 'error'),
      initialized: this.#initialized,
      tools: servers.reduce((sum, server) => sum + server.tools, 0),
      servers,
    };
  }

  /**
   * Opens a session for one user connection (docs/design/frontend-mcp.md §8).
   *
   * @param options A logger for this session's approval events (default: the gateway's).
   * @returns The session; it ends with its own close() or the gateway's.
   * @throws {FrontendMcpError} `Frontend MCP client is closed.` after close().
   */
  createSession(options: { readonly logger?: GatewayLogger } = {}): GatewaySession {
    if (this.#closed) throw closedError();
    const session = new GatewaySession(this.#sessionHost(), options.logger ?? this.#logger, () => this.#sessions.delete(session));
    this.#sessions.add(session);
    return session;
  }

  /** Closes every session (cancelling pending approvals) and every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const session of [...this.#sessions]) session.close();
    this.#byName = new Map();
    await Promise.all(this.#slots.map((slot) => slot.connection?.close()));
  }

  async #discoverAll(): Promise<void> {
    const enabled = this.#slots.filter((slot) => slot.config.enabled);
    for (const slot of enabled) slot.status = 'connecting';
    const recovery = this.#recovery();
    const settled = await Promise.allSettled(enabled.map((slot) => discoverServer(slot.config, { fetch: this.#fetch, onToolsChanged: toolsChangedHandler(slot, recovery) })));
    if (this.#closed) {
      await Promise.all(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.connection.close() : undefined)));
      return;
    }
    const ready: Array<{ slot: ServerSlot } & DiscoveredServer> = [];
    settled.forEach((outcome, index) => {
      const slot = enabled[index] as ServerSlot;
      if (outcome.status === 'fulfilled') ready.push({ slot, ...outcome.value });
      else slot.failClosed(failureMessage(outcome.reason), outcome.reason);
    });
    // Names are assigned after every server settled, in configuration order (§3).
    const naming = assignToolNames(
      ready.map(({ slot, candidates }) => ({ serverKey: slot.config.key, remoteNames: candidates.map((tool) => tool.remoteName) })),
      this.#reserved,
    );
    for (const { slot, connection, candidates } of ready) {
      const names = naming.names.get(slot.config.key);
      if (names === undefined) {
        slot.connection = connection;
        slot.failClosed(naming.failures.get(slot.config.key) ?? 'Frontend MCP discovery failed.');
      } else {
        slot.markReady(
          connection,
          candidates.map((candidate, index) => finalizeTool(candidate, names[index] as string)),
        );
      }
    }
    this.#initialized = true;
    for (const { slot } of ready) {
      // A change announced while discovery ran: refresh once now that the server is named.
      if (slot.refreshQueued && slot.status === 'ready' && slot.connection?.listChanged === true) startRefresh(slot, recovery);
      else slot.refreshQueued = false;
    }
  }

  #reindex(): void {
    this.#byName = new Map(this.#slots.flatMap((slot) => (slot.status === 'ready' ? slot.tools.map((tool) => [tool.name, { tool, slot }] as const) : [])));
  }

  #recovery(): RecoveryContext {
    return {
      fetch: this.#fetch,
      logger: this.#logger,
      isClosed: () => this.#closed,
      nameAlone: (slot, candidates) => {
        const others = this.toolRecords()
          .filter((tool) => tool.serverKey !== slot.config.key)
          .map((tool) => tool.name);
        const naming = assignToolNames([{ serverKey: slot.config.key, remoteNames: candidates.map((tool) => tool.remoteName) }], new Set([...this.#reserved, ...others]));
        const names = naming.names.get(slot.config.key);
        if (names === undefined) {
          throw new FrontendMcpError('frontend_mcp_tool_unavailable', naming.failures.get(slot.config.key) ?? 'Frontend MCP discovery failed.');
        }
        return candidates.map((candidate, index) => finalizeTool(candidate, names[index] as string));
      },
    };
  }

  #sessionHost(): SessionHost {
    return {
      now: () => this.#now(),
      findTool: (name) => this.#byName.get(name)?.tool,
      currentTool: (serverKey, remoteName) => {
        const slot = this.#slots.find((candidate) => candidate.config.key === serverKey);
        const tool = slot?.status === 'ready' ? slot.tools.find((candidate) => candidate.remoteName === remoteName) : undefined;
        return slot === undefined || tool === undefined ? undefined : { tool, generation: slot.generation };
      },
      execute: (name, args, options) => this.execute(name, args, options),
    };
  }
}

function closedError(): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP client is closed.');
}
