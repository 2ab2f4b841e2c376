// The unknown-key pre-pass of docs/design/frontend-mcp.md §2.3: a misspelt field anywhere in the file is an
// error instead of being silently dropped (Decision over the reference).
import { displayKey } from './display-key.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Keys the gateway file allows at each level (docs/design/frontend-mcp.md §2.3); build/reference.ts documents each. */
export const ROOT_KEYS = new Set(['version', 'servers']);
/** Keys of one server entry. */
export const SERVER_KEYS = new Set(['enabled', 'url', 'connectTimeoutMs', 'refreshOnListChanged', 'headers', 'tools']);
/** Keys of one tool policy. */
export const TOOL_KEYS = new Set(['enabled', 'readOnly', 'approval', 'timeoutMs', 'maxResultBytes', 'maxCallsPerTurn', 'description']);

/**
 * Throws on the first key, in file order, that the configuration format does not define.
 * Header names and tool names are data, not fields; objects of the wrong type are left to
 * the later checks.
 *
 * @param root The parsed file; already known to be an object.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the dotted field path.
 * @see docs/design/frontend-mcp.md §2.3, "unknown key anywhere"
 */
export function checkUnknownKeys(root: Record<string, unknown>): void {
  checkKeys(root, ROOT_KEYS, []);
  const servers = root['servers'];
  if (!isPlainObject(servers)) return;
  for (const [serverKey, server] of Object.entries(servers)) {
    if (!isPlainObject(server)) continue;
    checkKeys(server, SERVER_KEYS, ['servers', serverKey]);
    const tools = server['tools'];
    if (!isPlainObject(tools)) continue;
    for (const [toolKey, policy] of Object.entries(tools)) {
      if (isPlainObject(policy)) checkKeys(policy, TOOL_KEYS, ['servers', serverKey, 'tools', toolKey]);
    }
  }
}

function checkKeys(object: Record<string, unknown>, allowed: ReadonlySet<string>, path: readonly string[]): void {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key)) {
      const shown = [...path, key].map(displayKey).join('.');
      throw configInvalid(`Frontend MCP configuration contains an unknown field: ${shown}`);
    }
  }
}
