// FrontendMcpGateway: discovers the enabled tools of every configured server, names them,
// executes calls and keeps per-server health (frontend-mcp.md §1.1, §3, §6, §11).
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { assignToolNames } from './assign-tool-names.ts';
import { callRemoteTool, type CallResult, SessionLostError } from './call-remote-tool.ts';
import type { FrontendMcpConfig, FrontendMcpServerConfig } from './config-types.ts';
import type { ServerConnection } from './connect-server.ts';
import { discoverServer, relistServer } from './discover-server.ts';
import { FrontendMcpError } from './frontend-mcp-error.ts';
import { emitLog, type GatewayLogger } from './gateway-log.ts';
import { GatewaySession } from './gateway-session.ts';
import { finalizeTool, type GatewayTool, type GatewayToolDefinition, type ToolCandidate } from './gateway-tool.ts';
import { isPlainObject } from './plain-object.ts';
import { gatewayFetch } from './proxy-routing.ts';
import { RESPOND_TOOL_NAME, respondToolDefinition } from './respond-tool.ts';
import type { SessionHost } from './session-host.ts';

/** Status of one server (frontend-mcp.md §11). */
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
  /** Receives log events (frontend-mcp.md §11). */
  readonly logger?: GatewayLogger;
  /** The host's own tool names; gateway names never collide with them. */
  readonly reservedNames?: Iterable<string>;
  /** Clock in milliseconds since the epoch, for approval expiry and turn windows. */
  readonly now?: () => number;
  /**
   * The environment for proxy decisions (config.md §12); default: the one loadFrontendMcpConfig
   * read for this configuration object.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface ServerState {
  readonly config: FrontendMcpServerConfig;
  status: ServerStatus;
  error?: string;
  connection?: ServerConnection | undefined;
  tools: GatewayTool[];
  /** Changes whenever the server fails or reconnects, so stale work and approvals are dropped. */
  generation: number;
  refreshing: boolean;
  refreshQueued: boolean;
  reconnecting: boolean;
}

/** The policy-enforcing MCP client gateway. */
export class FrontendMcpGateway {
  readonly #logger: GatewayLogger | undefined;
  readonly #reserved: ReadonlySet<string>;
  readonly #now: () => number;
  readonly #fetch: FetchLike;
  readonly #servers: ServerState[];
  #byName = new Map<string, { readonly tool: GatewayTool; readonly state: ServerState }>();
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
    this.#servers = config.servers.map((server) => ({
      config: server,
      status: server.enabled ? 'pending' : 'disabled',
      tools: [],
      generation: 0,
      refreshing: false,
      refreshQueued: false,
      reconnecting: false,
    }));
  }

  /**
   * Connects to every enabled server in parallel and exposes their enabled tools. Idempotent:
   * concurrent and later calls share one run. A failing server fails closed on its own; the
   * promise still resolves (see health()).
   *
   * @throws {FrontendMcpError} `Frontend MCP client is closed.` after close().
   * @see frontend-mcp.md §3
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
   * @see frontend-mcp.md §4, §5, §9
   */
  tools(): GatewayToolDefinition[] {
    const records = this.toolRecords();
    const definitions = records.map((tool) => structuredClone(tool.definition) as GatewayToolDefinition);
    const needsApproval = records.some((tool) => !tool.policy.readOnly && tool.policy.approval === 'required');
    return needsApproval ? [...definitions, respondToolDefinition()] : definitions;
  }

  /** The exposed tool records (name, server, remote name, policy), in configuration order. */
  toolRecords(): GatewayTool[] {
    return this.#servers.flatMap((state) => (state.status === 'ready' ? state.tools : []));
  }

  /**
   * Calls one exposed tool.
   *
   * @param name The model-visible name.
   * @param args The arguments: a plain object.
   * @param options `signal` aborts the call (combined with the tool's timeoutMs).
   * @returns The bounded envelope (frontend-mcp.md §7), or `tool_result_too_large`.
   * @throws {FrontendMcpError} `frontend_mcp_tool_unavailable` (`Frontend MCP tool is not
   *   enabled.`, `Frontend MCP server is not ready.`); `frontend_mcp_tool_failed` (`Frontend MCP
   *   tool arguments must be an object.`, transport failures); `frontend_mcp_tool_aborted`.
   * @see frontend-mcp.md §6
   */
  async execute(name: string, args: unknown, options: { readonly signal?: AbortSignal } = {}): Promise<CallResult> {
    const entry = this.#byName.get(name);
    if (entry === undefined) throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP tool is not enabled.');
    const { tool, state } = entry;
    const connection = state.connection;
    if (state.status !== 'ready' || connection === undefined) {
      throw new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP server is not ready.');
    }
    // Decision: non-object arguments are refused (the reference replaced them with {}).
    if (!isPlainObject(args)) throw new FrontendMcpError('frontend_mcp_tool_failed', 'Frontend MCP tool arguments must be an object.');
    const generation = state.generation;
    try {
      return await callRemoteTool(connection, tool, args, options.signal);
    } catch (error) {
      if (error instanceof SessionLostError) this.#onSessionLost(state, generation);
      throw error;
    }
  }

  /** Per-server health (frontend-mcp.md §11). */
  health(): GatewayHealth {
    const servers = this.#servers.map((state): ServerHealth => {
      const base = { key: state.config.key, enabled: state.config.enabled, status: state.status, tools: state.status === 'ready' ? state.tools.length : 0 };
      return state.status === 'error' && state.error !== undefined ? { ...base, error: state.error } : base;
    });
    return {
      ok: !this.#servers.some((state) => state.config.enabled && state.status === 'error'),
      initialized: this.#initialized,
      tools: servers.reduce((sum, server) => sum + server.tools, 0),
      servers,
    };
  }

  /**
   * Opens a session for one user connection (frontend-mcp.md §8).
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
    await Promise.all(this.#servers.map((state) => state.connection?.close()));
  }

  async #discoverAll(): Promise<void> {
    const enabled = this.#servers.filter((state) => state.config.enabled);
    for (const state of enabled) state.status = 'connecting';
    const settled = await Promise.allSettled(
      enabled.map((state) => discoverServer(state.config, { fetch: this.#fetch, onToolsChanged: this.#toolsChangedHandler(state) })),
    );
    if (this.#closed) {
      await Promise.all(settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.connection.close() : undefined)));
      return;
    }
    const ready: Array<{ state: ServerState; connection: ServerConnection; candidates: readonly ToolCandidate[] }> = [];
    settled.forEach((outcome, index) => {
      const state = enabled[index] as ServerState;
      if (outcome.status === 'fulfilled') ready.push({ state, ...outcome.value });
      else this.#failClosed(state, messageOf(outcome.reason));
    });
    // Names are assigned after every server settled, in configuration order (§3).
    const naming = assignToolNames(
      ready.map(({ state, candidates }) => ({ serverKey: state.config.key, remoteNames: candidates.map((tool) => tool.remoteName) })),
      this.#reserved,
    );
    for (const { state, connection, candidates } of ready) {
      const names = naming.names.get(state.config.key);
      if (names === undefined) {
        state.connection = connection;
        this.#failClosed(state, naming.failures.get(state.config.key) ?? 'Frontend MCP discovery failed.');
        continue;
      }
      this.#markReady(state, connection, candidates.map((candidate, index) => finalizeTool(candidate, names[index] as string)));
    }
    this.#initialized = true;
    for (const { state } of ready) {
      // A change announced while discovery ran: refresh once now that the server is named.
      if (state.refreshQueued && state.status === 'ready' && state.connection?.listChanged === true) this.#startRefresh(state);
      else state.refreshQueued = false;
    }
  }

  #markReady(state: ServerState, connection: ServerConnection, tools: GatewayTool[]): void {
    state.connection = connection;
    state.tools = tools;
    state.status = 'ready';
    delete state.error;
    this.#reindex();
    emitLog(this.#logger, { event: 'frontend_mcp.connected', server: state.config.key, tools: tools.length });
  }

  /** Withdraws every tool of a server, closes its client and records the error (§3). */
  #failClosed(state: ServerState, message: string): void {
    state.status = 'error';
    state.error = message;
    state.tools = [];
    state.generation++;
    void state.connection?.close();
    state.connection = undefined;
    this.#reindex();
    emitLog(this.#logger, { event: 'frontend_mcp.connection_failed', server: state.config.key, error: message });
  }

  #reindex(): void {
    this.#byName = new Map(this.toolRecords().map((tool) => [tool.name, { tool, state: this.#stateOf(tool.serverKey) }]));
  }

  #stateOf(serverKey: string): ServerState {
    return this.#servers.find((state) => state.config.key === serverKey) as ServerState;
  }

  /** Names a single server's tools while every other server keeps its names (§3). */
  #nameAlone(state: ServerState, candidates: readonly ToolCandidate[]): GatewayTool[] {
    const others = this.toolRecords().filter((tool) => tool.serverKey !== state.config.key).map((tool) => tool.name);
    const naming = assignToolNames(
      [{ serverKey: state.config.key, remoteNames: candidates.map((tool) => tool.remoteName) }],
      new Set([...this.#reserved, ...others]),
    );
    const names = naming.names.get(state.config.key);
    if (names === undefined) {
      throw new FrontendMcpError('frontend_mcp_tool_unavailable', naming.failures.get(state.config.key) ?? 'Frontend MCP discovery failed.');
    }
    return candidates.map((candidate, index) => finalizeTool(candidate, names[index] as string));
  }

  #toolsChangedHandler(state: ServerState): () => void {
    const generation = state.generation;
    return () => {
      if (this.#closed || state.generation !== generation) return;
      if (!state.config.refreshOnListChanged || (state.connection !== undefined && !state.connection.listChanged)) {
        emitLog(this.#logger, { event: 'frontend_mcp.tools_changed', server: state.config.key, outcome: 'ignored' });
        return;
      }
      // At most one refresh running and one queued per server.
      if (state.refreshing || state.status !== 'ready') state.refreshQueued = true;
      else this.#startRefresh(state);
    };
  }

  #startRefresh(state: ServerState): void {
    state.refreshQueued = false;
    state.refreshing = true;
    void this.#refresh(state).finally(() => {
      state.refreshing = false;
      if (state.refreshQueued && state.status === 'ready' && !this.#closed) this.#startRefresh(state);
    });
  }

  async #refresh(state: ServerState): Promise<void> {
    const { generation, connection } = state;
    if (connection === undefined) return;
    try {
      const candidates = await relistServer(state.config, connection);
      if (this.#closed || state.generation !== generation) return;
      state.tools = this.#nameAlone(state, candidates);
      this.#reindex();
      emitLog(this.#logger, { event: 'frontend_mcp.tools_changed', server: state.config.key, outcome: 'refreshed' });
    } catch (error) {
      if (this.#closed || state.generation !== generation) return;
      emitLog(this.#logger, { event: 'frontend_mcp.tools_changed', server: state.config.key, outcome: 'failed' });
      this.#failClosed(state, messageOf(error));
    }
  }

  /** HTTP 404 on a call: the session is gone; fail closed and reconnect once in the background (§3). */
  #onSessionLost(state: ServerState, generation: number): void {
    if (this.#closed || state.generation !== generation || state.reconnecting) return;
    this.#failClosed(state, `Frontend MCP session expired: ${state.config.key}`);
    state.reconnecting = true;
    void this.#reconnect(state).finally(() => {
      state.reconnecting = false;
    });
  }

  async #reconnect(state: ServerState): Promise<void> {
    const generation = state.generation;
    try {
      const found = await discoverServer(state.config, { fetch: this.#fetch, onToolsChanged: this.#toolsChangedHandler(state) });
      if (this.#closed || state.generation !== generation) {
        await found.connection.close();
        return;
      }
      let tools: GatewayTool[];
      try {
        tools = this.#nameAlone(state, found.candidates);
      } catch (error) {
        await found.connection.close();
        throw error;
      }
      this.#markReady(state, found.connection, tools);
    } catch (error) {
      if (!this.#closed && state.generation === generation) this.#failClosed(state, messageOf(error));
    }
  }

  #sessionHost(): SessionHost {
    return {
      now: () => this.#now(),
      findTool: (name) => this.#byName.get(name)?.tool,
      currentTool: (serverKey, remoteName) => {
        const state = this.#servers.find((candidate) => candidate.config.key === serverKey);
        const tool = state?.status === 'ready' ? state.tools.find((candidate) => candidate.remoteName === remoteName) : undefined;
        return state === undefined || tool === undefined ? undefined : { tool, generation: state.generation };
      },
      execute: (name, args, options) => this.execute(name, args, options),
    };
  }
}

function closedError(): FrontendMcpError {
  return new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP client is closed.');
}

/** Only our own messages become health errors; anything else gets a fixed text. */
function messageOf(error: unknown): string {
  return error instanceof FrontendMcpError ? error.message : 'Frontend MCP discovery failed.';
}
