// The `--server-name` rule shared by the write-confirmation Hook and `hook settings write`
// (docs/design/hooks.md §3.1, §5).

/** The default MCP server key. */
export const DEFAULT_SERVER_NAME = 'external-context';

/**
 * Valid server keys: `mcp__<key>__context_remember` then stays within Qwen's 63-character
 * tool-name limit and needs no rewriting (docs/design/qwen-client.md §5).
 */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/** The tool name the write-confirmation Hook handles: `mcp__<server-name>__context_remember`. */
export function rememberToolName(serverName: string): string {
  return `mcp__${serverName}__context_remember`;
}
