// The parsed configuration file → normalized configuration (docs/design/frontend-mcp.md §2.3, §2.4).
// The spec fixes the check order and stops at the first failure: an ordered pre-pass checks the root,
// `version`, unknown keys and the server and tool records; the valibot schemas of schema.ts check
// each object's fields with `abortEarly`, one step at a time in table order.
import * as v from 'valibot';
import { isPlainObject } from '../../util/plain-object.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { printableKeyOrMark } from './printable-key.ts';
import { resolveHeaders } from './resolve-headers.ts';
import {
  type FrontendMcpConfig,
  type FrontendMcpServerConfig,
  type FrontendMcpToolPolicy,
  SCHEMA_MESSAGES,
  ServerConnectionSchema,
  ServerOptionsSchema,
  ToolApprovalSchema,
  ToolCombinationSchema,
  ToolLimitsSchema,
  ToolModeSchema,
} from './schema.ts';

/** Most servers one file may configure. */
export const MAX_SERVERS = 8;
/** Most tool policies one server may list. */
export const MAX_TOOL_POLICIES = 32;

const SERVER_KEY = /^[a-z][a-z0-9_-]{0,39}$/;
/** The raw remote tool names a policy may be keyed by. */
const TOOL_NAME = /^[a-zA-Z0-9_.:/-]{1,128}$/;
/** Keys the gateway file allows at each level (docs/design/frontend-mcp.md §2.3); build/reference.ts documents each. */
export const ROOT_KEYS: ReadonlySet<string> = new Set(['version', 'servers']);
/** Keys of one server entry. */
export const SERVER_KEYS: ReadonlySet<string> = new Set(['enabled', 'url', 'connectTimeoutMs', 'refreshOnListChanged', 'headers', 'tools']);
/** Keys of one tool policy. */
export const TOOL_KEYS: ReadonlySet<string> = new Set(['enabled', 'readOnly', 'approval', 'timeoutMs', 'maxResultBytes', 'maxCallsPerTurn', 'description']);

type Environment = Readonly<Record<string, string | undefined>>;

/** Where an issue happened, for the `<key>` and `<server>/<tool>` parts of its message. */
interface IssueContext {
  readonly server: string;
  readonly tool?: string;
}

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
export function validateFrontendMcpConfig(root: unknown, env: Environment): FrontendMcpConfig {
  if (!isPlainObject(root)) throw configInvalid('Frontend MCP configuration must be an object.');
  if (root['version'] !== 1) throw configInvalid('Frontend MCP configuration version must be 1.');
  checkUnknownKeys(root);
  const servers = root['servers'] === undefined ? {} : root['servers'];
  if (!isPlainObject(servers)) throw configInvalid('Frontend MCP servers must be an object.');
  const entries = Object.entries(servers);
  if (entries.length > MAX_SERVERS) throw configInvalid('Frontend MCP supports at most 8 servers.');
  return { version: 1, servers: entries.map(([key, server]) => validateServer(key, server, env)) };
}

/**
 * Validates one server and, when it is enabled, resolves its `${VAR}` headers; then its tools.
 *
 * @param key The server's key in `servers`.
 * @param raw The server value from the file (unknown keys already rejected).
 * @param env Environment for header variables; read only for enabled servers.
 * @returns The normalized server.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the first failing rule's message.
 * @see docs/design/frontend-mcp.md §2.3, §2.4
 */
export function validateServer(key: string, raw: unknown, env: Environment): FrontendMcpServerConfig {
  if (!SERVER_KEY.test(key)) throw configInvalid(`Invalid Frontend MCP server key: ${printableKeyOrMark(key)}`);
  if (!isPlainObject(raw)) throw configInvalid(`Frontend MCP server ${key} must be an object.`);
  const context: IssueContext = { server: key };
  const { enabled, url } = parseStep(ServerConnectionSchema, raw, context);
  const { connectTimeoutMs, refreshOnListChanged, headers: written } = parseStep(ServerOptionsSchema, raw, context);
  // Decision: a disabled server's secrets are not needed, so they are not read.
  const headers = enabled ? resolveHeaders(written, env) : written;
  return {
    key,
    enabled,
    connectTimeoutMs,
    refreshOnListChanged,
    transport: { type: 'streamable-http', url, headers },
    tools: validateTools(key, raw['tools']),
  };
}

function validateTools(serverKey: string, raw: unknown): Record<string, FrontendMcpToolPolicy> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) throw configInvalid(`Frontend MCP server ${serverKey} tools must be an object.`);
  const entries = Object.entries(raw);
  if (entries.length > MAX_TOOL_POLICIES) throw configInvalid(`Frontend MCP server ${serverKey} has too many tool policies.`);
  // Object.fromEntries defines own properties, so a tool named `__proto__` stays a plain entry.
  return Object.fromEntries(entries.map(([toolKey, policy]) => [toolKey, validateToolPolicy(serverKey, toolKey, policy)]));
}

/**
 * Validates one tool policy and applies its defaults.
 *
 * @param serverKey The server's key (already validated).
 * @param toolKey The policy's key: the server's raw tool name.
 * @param raw The policy value from the file.
 * @returns The normalized policy.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the first failing rule's message.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function validateToolPolicy(serverKey: string, toolKey: string, raw: unknown): FrontendMcpToolPolicy {
  if (!TOOL_NAME.test(toolKey)) throw configInvalid(`Invalid Frontend MCP tool name: ${printableKeyOrMark(toolKey)}`);
  if (!isPlainObject(raw)) throw configInvalid('Frontend MCP tool policy must be an object.');
  const context: IssueContext = { server: serverKey, tool: `${serverKey}/${printableKeyOrMark(toolKey)}` };
  const mode = parseStep(ToolModeSchema, raw, context);
  const { approval } = parseStep(ToolApprovalSchema, raw, context);
  const combined = parseStep(ToolCombinationSchema, { ...mode, approval }, context);
  return { ...combined, ...parseStep(ToolLimitsSchema, raw, context) };
}

/** Runs one schema step with `abortEarly` and throws its first issue's message. */
function parseStep<const S extends v.GenericSchema>(schema: S, value: unknown, context: IssueContext): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  throw configInvalid(describeIssue(result.issues[0], context));
}

/** The spec's message for an issue: its schema message with the display keys filled in. */
function describeIssue(issue: v.BaseIssue<unknown>, context: IssueContext): string {
  const message = issue.message;
  if (message === SCHEMA_MESSAGES.headerReference) {
    // The header entry's name is the lowercased key (HeadersSchema); its value never appears.
    const name: unknown = isPlainObject(issue.input) ? issue.input['name'] : undefined;
    return message.replace('<name>', () => printableKeyOrMark(typeof name === 'string' ? name : ''));
  }
  return message.replace('<key>', () => context.server).replace('<server>/<tool>', () => context.tool ?? '');
}

/**
 * Throws on the first key, in file order, that the configuration format does not define.
 * Header names and tool names are data, not fields; objects of the wrong type are left to
 * the later checks. Decision over the reference: a misspelt field is an error, never dropped.
 */
function checkUnknownKeys(root: Record<string, unknown>): void {
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
      const shown = [...path, key].map(printableKeyOrMark).join('.');
      throw configInvalid(`Frontend MCP configuration contains an unknown field: ${shown}`);
    }
  }
}
