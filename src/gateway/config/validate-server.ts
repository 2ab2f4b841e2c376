// One server entry (docs/design/frontend-mcp.md §2.3, server rows in table order, then its tools).
import type { FrontendMcpServerConfig, FrontendMcpToolPolicy } from './config-types.ts';
import { displayKey } from './display-key.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';
import { policyInteger } from './policy-integer.ts';
import { resolveHeaders } from './resolve-headers.ts';
import { validateHeaders } from './validate-headers.ts';
import { validateServerUrl } from './validate-server-url.ts';
import { validateToolPolicy } from './validate-tool-policy.ts';

const SERVER_KEY = /^[a-z][a-z0-9_-]{0,39}$/;
/** Most tool policies one server may list. */
export const MAX_TOOL_POLICIES = 32;

/**
 * Validates one server and, when it is enabled, resolves its `${VAR}` headers.
 *
 * @param key The server's key in `servers`.
 * @param raw The server value from the file.
 * @param env Environment for header variables; read only for enabled servers.
 * @returns The normalized server.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the first failing rule's message.
 * @see docs/design/frontend-mcp.md §2.3, §2.4
 */
export function validateServer(
  key: string,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): FrontendMcpServerConfig {
  if (!SERVER_KEY.test(key)) throw configInvalid(`Invalid Frontend MCP server key: ${displayKey(key)}`);
  if (!isPlainObject(raw)) throw configInvalid(`Frontend MCP server ${key} must be an object.`);
  const enabled = raw['enabled'];
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    throw configInvalid(`Frontend MCP server ${key} enabled must be a boolean.`);
  }
  const rawHeaders = raw['headers'];
  const hasHeaders = rawHeaders !== undefined && (!isPlainObject(rawHeaders) || Object.keys(rawHeaders).length > 0);
  const url = validateServerUrl(raw['url'], hasHeaders);
  const connectTimeoutMs = policyInteger(raw['connectTimeoutMs'], 100, 30000, 8000);
  const refresh = raw['refreshOnListChanged'];
  if (refresh !== undefined && typeof refresh !== 'boolean') {
    throw configInvalid(`Frontend MCP server ${key} refreshOnListChanged must be a boolean.`);
  }
  const written = validateHeaders(rawHeaders);
  // Decision: a disabled server's secrets are not needed, so they are not read.
  const headers = enabled === true ? resolveHeaders(written, env) : written;
  return {
    key,
    enabled: enabled === true,
    connectTimeoutMs,
    refreshOnListChanged: refresh === true,
    transport: { type: 'streamable-http', url, headers },
    tools: validateTools(key, raw['tools']),
  };
}

function validateTools(key: string, raw: unknown): Record<string, FrontendMcpToolPolicy> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) throw configInvalid(`Frontend MCP server ${key} tools must be an object.`);
  const entries = Object.entries(raw);
  if (entries.length > MAX_TOOL_POLICIES) throw configInvalid(`Frontend MCP server ${key} has too many tool policies.`);
  // Object.fromEntries defines own properties, so a tool named `__proto__` stays a plain entry.
  return Object.fromEntries(entries.map(([toolKey, policy]) => [toolKey, validateToolPolicy(key, toolKey, policy)]));
}
