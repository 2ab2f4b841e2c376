// The parsed configuration file → normalized configuration (docs/design/frontend-mcp.md §2.3, §2.4).
// The checks are hand-ordered because the spec fixes their order and stops at the first failure.
import { checkUnknownKeys } from './check-unknown-keys.ts';
import type { FrontendMcpConfig } from './config-types.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { validateServer } from './validate-server.ts';

/** Most servers one file may configure. */
export const MAX_SERVERS = 8;

/**
 * Validates a parsed configuration.
 *
 * @param root The value `JSON.parse` produced.
 * @param env Environment for `${VAR}` header references of enabled servers.
 * @returns The normalized configuration, servers in file order.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the exact message of the first
 *   failing rule; header and variable values never appear in it.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function validateFrontendMcpConfig(
  root: unknown,
  env: Readonly<Record<string, string | undefined>>,
): FrontendMcpConfig {
  if (!isPlainObject(root)) throw configInvalid('Frontend MCP configuration must be an object.');
  if (root['version'] !== 1) throw configInvalid('Frontend MCP configuration version must be 1.');
  checkUnknownKeys(root);
  const servers = root['servers'] === undefined ? {} : root['servers'];
  if (!isPlainObject(servers)) throw configInvalid('Frontend MCP servers must be an object.');
  const entries = Object.entries(servers);
  if (entries.length > MAX_SERVERS) throw configInvalid('Frontend MCP supports at most 8 servers.');
  return { version: 1, servers: entries.map(([key, server]) => validateServer(key, server, env)) };
}
