// Assigns model-visible names to every tool of the ready servers, in configuration order, so
// the result never depends on which server answered first (docs/design/frontend-mcp.md §3, §4); the
// plain and hashed name forms are below.
import { createHash } from 'node:crypto';

/** The enabled tools of one ready server, in configuration order. */
export interface NamingGroup {
  readonly serverKey: string;
  readonly remoteNames: readonly string[];
}

/** The outcome: names per server (same order as its remote names), or the server's failure. */
export interface NamingResult {
  readonly names: ReadonlyMap<string, readonly string[]>;
  /** Server key → the exact fail-closed message (`Duplicate Frontend MCP tool name: <name>`). */
  readonly failures: ReadonlyMap<string, string>;
}

/**
 * Names the tools of several servers. A plain name equal to another tool's name or a reserved
 * name is replaced by its hashed name (for every tool involved); when a hashed name still
 * collides, the later server in the given order fails closed.
 *
 * @param groups Ready servers in configuration order.
 * @param reserved Names already taken: the host's tool names, `respond_frontend_tool_permission`
 *   and, for a single-server refresh, every other server's current names.
 * @returns Names per server and the servers that failed on a collision.
 * @see docs/design/frontend-mcp.md §4
 */
export function assignToolNames(groups: readonly NamingGroup[], reserved: ReadonlySet<string>): NamingResult {
  const tools = groups.flatMap((group) => group.remoteNames.map((remoteName) => ({ serverKey: group.serverKey, remoteName, base: baseToolName(group.serverKey, remoteName), hashed: false })));
  const plainCounts = new Map<string, number>();
  for (const tool of tools) {
    tool.hashed = !isPlainToolName(tool.base) || reserved.has(tool.base);
    if (!tool.hashed) plainCounts.set(tool.base, (plainCounts.get(tool.base) ?? 0) + 1);
  }
  for (const tool of tools) if (!tool.hashed && (plainCounts.get(tool.base) ?? 0) > 1) tool.hashed = true;
  // A plain name may equal some other tool's hashed name; that plain tool is hashed too.
  for (let changed = true; changed; ) {
    changed = false;
    const hashedNames = new Set(tools.filter((tool) => tool.hashed).map((tool) => hashedToolName(tool.serverKey, tool.remoteName)));
    for (const tool of tools) {
      if (!tool.hashed && hashedNames.has(tool.base)) {
        tool.hashed = true;
        changed = true;
      }
    }
  }
  const taken = new Set(reserved);
  const names = new Map<string, readonly string[]>();
  const failures = new Map<string, string>();
  for (const group of groups) {
    const own = tools.filter((tool) => tool.serverKey === group.serverKey).map((tool) => (tool.hashed ? hashedToolName(tool.serverKey, tool.remoteName) : tool.base));
    const duplicate = firstDuplicate(own, taken);
    if (duplicate !== undefined) {
      failures.set(group.serverKey, `Duplicate Frontend MCP tool name: ${duplicate}`);
      continue;
    }
    for (const name of own) taken.add(name);
    names.set(group.serverKey, own);
  }
  return { names, failures };
}

function firstDuplicate(names: readonly string[], taken: ReadonlySet<string>): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (taken.has(name) || seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

// Model-visible tool names (docs/design/frontend-mcp.md §4): `mcp__<server>__<tool>` when that is at most
// 64 characters of [A-Za-z0-9_-], otherwise a stable hashed form of at most 64 characters.

const PLAIN_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Characters of the sanitized base kept before the hash suffix. */
const HASHED_PREFIX_LENGTH = 55;

/** The base form `mcp__<server key>__<remote tool name>`. */
export function baseToolName(serverKey: string, remoteName: string): string {
  return `mcp__${serverKey}__${remoteName}`;
}

/** True when the base form can be used unchanged. */
export function isPlainToolName(name: string): boolean {
  return PLAIN_NAME.test(name);
}

/**
 * The hashed name: the base with every character outside [A-Za-z0-9_-] replaced by `_`, cut to
 * 55 characters, then `_` and the first 8 hex characters of SHA-256 over the UTF-8 bytes of
 * `<server key>` U+0000 `<remote tool name>`.
 *
 * @param serverKey The server's configuration key.
 * @param remoteName The server's raw tool name.
 * @returns A name of at most 64 characters that depends only on the two inputs.
 * @see docs/design/frontend-mcp.md §4
 */
export function hashedToolName(serverKey: string, remoteName: string): string {
  const sanitized = baseToolName(serverKey, remoteName)
    .replace(/[^A-Za-z0-9_-]/gu, '_')
    .slice(0, HASHED_PREFIX_LENGTH);
  const digest = createHash('sha256').update(`${serverKey}\u0000${remoteName}`, 'utf8').digest('hex').slice(0, 8);
  return `${sanitized}_${digest}`;
}
