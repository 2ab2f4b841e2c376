// The normalized Frontend MCP configuration (docs/design/frontend-mcp.md §2.4). The file is validated by
// the ordered checks of validate-config.ts, so these types are the one description of it.

/** Whether a tool needs a per-operation user approval. */
export type FrontendMcpApproval = 'required' | 'none';

/** One tool policy, with every default applied (docs/design/frontend-mcp.md §2.3). */
export interface FrontendMcpToolPolicy {
  readonly enabled: boolean;
  readonly readOnly: boolean;
  readonly approval: FrontendMcpApproval;
  /** Per-call timeout in milliseconds (100–30000, default 8000). */
  readonly timeoutMs: number;
  /** Budget of the serialized result envelope in UTF-8 bytes (1024–65536, default 32768). */
  readonly maxResultBytes: number;
  /** Counted calls of this tool per user turn (1–4, default 2). */
  readonly maxCallsPerTurn: number;
  /** Trimmed configured description (at most 1200 code points); absent when empty. */
  readonly description?: string;
}

/** The transport of one server: Streamable HTTP only. */
export interface FrontendMcpTransport {
  readonly type: 'streamable-http';
  readonly url: string;
  /** Lowercased header names → values; `${VAR}` references resolved for enabled servers. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One configured server, in file order. */
export interface FrontendMcpServerConfig {
  readonly key: string;
  readonly enabled: boolean;
  /** Budget for initialize plus every tools/list page, in milliseconds (100–30000). */
  readonly connectTimeoutMs: number;
  readonly refreshOnListChanged: boolean;
  readonly transport: FrontendMcpTransport;
  /** Raw remote tool name → policy, in file order. */
  readonly tools: Readonly<Record<string, FrontendMcpToolPolicy>>;
}

/** The normalized configuration. */
export interface FrontendMcpConfig {
  readonly version: 1;
  readonly servers: readonly FrontendMcpServerConfig[];
}
