// `external-context gateway discover|call`: the Frontend MCP gateway from the command line
// (docs/design/frontend-mcp.md §1.2). Discovery prints health and the tool table; `call` runs one
// read-only tool once. JSON on stdout escapes `<` and `>` (docs/design/profile-v1.md §5.2).
import process from 'node:process';
import { stringifyEscaped } from '../contract/escape.ts';
import type { FrontendMcpConfig } from '../gateway/config/schema.ts';
import { FrontendMcpError } from '../gateway/frontend-mcp-error.ts';
import type { FrontendMcpGateway, GatewayHealth } from '../gateway/frontend-mcp-gateway.ts';
import type { GatewayTool } from '../gateway/gateway-tool.ts';
import { CONFIG_PATH_VARIABLE, loadFrontendMcpConfig } from '../gateway/config/load-config.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError, writeLine } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { ownEnv } from '../util/own-env.ts';

const ENVIRONMENT = `ENVIRONMENT
  QWEN_AUDIO_FRONTEND_MCP_CONFIG   Absolute path of the gateway configuration when --config is
                                   not given.
  <VARIABLE>                       Each \${VARIABLE} a header value of an enabled server names.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for remote servers (loopback is never proxied; on
                                   Node.js an applicable proxy is refused).`;

/** `gateway discover --help`. */
export const discoverHelp = `${versionLine()}
Connect to every enabled Frontend MCP server, print per-server health and the model-visible
tool table, then close every connection.

USAGE
  external-context gateway discover [--config <file>] [--json]

OPTIONS
  --config <file>   Absolute path of the gateway configuration
                    (default: $QWEN_AUDIO_FRONTEND_MCP_CONFIG).
  --json            Print one JSON object (2-space indentation) with the health entries and
                    every tool's limits (timeoutMs in ms, maxResultBytes in bytes,
                    maxCallsPerTurn). (default: text tables)
  -h, --help        Show this help.

${ENVIRONMENT}

EXIT CODES
  0  every enabled server is ready
  1  a server failed, or the configuration is invalid (one stderr line
     "[external-context] <message>")
  2  usage error, including no configuration at all

  Log events are written to stderr as JSON lines.

EXAMPLES
  external-context gateway discover --config /etc/external-context/frontend-mcp.json
  external-context gateway discover --json
`;

/** `gateway call --help`. */
export const callHelp = `${versionLine()}
Discover, then call one read-only gateway tool once and print its bounded, untrusted-wrapped
result envelope as JSON. Writable tools need a user approval and are refused here.

USAGE
  external-context gateway call <model-visible name> [--args <json object>] [--config <file>]

OPTIONS
  --args <json>     The tool arguments, a JSON object. (default: {})
  --config <file>   Absolute path of the gateway configuration
                    (default: $QWEN_AUDIO_FRONTEND_MCP_CONFIG).
  -h, --help        Show this help.

${ENVIRONMENT}

EXIT CODES
  0  the envelope status is "ok"
  1  any other outcome: a server error envelope, an unknown or writable tool, a failed or
     interrupted call (SIGINT aborts it), or an invalid configuration
  2  usage error, including no configuration at all and --args that is not a JSON object

EXAMPLES
  external-context gateway call mcp__documents__search --args '{"query":"release notes"}'
`;

/** `gateway --help`. */
export const help = `${versionLine()}
Frontend MCP gateway: discover the allow-listed tools of the configured MCP servers, or call
one read-only tool.

USAGE
  external-context gateway discover [--config <file>] [--json]
  external-context gateway call <model-visible name> [--args <json object>] [--config <file>]

OPTIONS
  -h, --help        Show this help; "gateway <subcommand> --help" shows a subcommand's.

${ENVIRONMENT}

EXIT CODES
  0  done (discover: every enabled server ready; call: envelope status "ok")
  1  a server or the call failed, or the configuration is invalid
  2  usage error

EXAMPLES
  external-context gateway discover --config /etc/external-context/frontend-mcp.json
  external-context gateway call mcp__documents__search --args '{"query":"release notes"}'
`;

const NO_CONFIGURATION = 'gateway commands require --config <file> or QWEN_AUDIO_FRONTEND_MCP_CONFIG.';

/**
 * Runs `gateway <subcommand>`.
 *
 * @param args Arguments after `gateway`.
 * @param io Streams and environment.
 * @returns The exit code of the README table.
 * @throws {UsageError} On a missing or unknown subcommand, unknown flags, stray arguments,
 *   invalid `--args`, or no configuration at all.
 * @see docs/design/frontend-mcp.md §1.2
 */
export async function run(args: string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'discover') return wantsHelp(rest) ? printHelp(io, discoverHelp) : runDiscover(rest, io);
  if (subcommand === 'call') return wantsHelp(rest) ? printHelp(io, callHelp) : runCall(rest, io);
  if (wantsHelp(args)) return printHelp(io, help);
  if (subcommand === undefined) throw new UsageError('Choose a gateway subcommand: discover or call.', 'gateway');
  throw new UsageError('Unknown gateway subcommand.', 'gateway');
}

async function runDiscover(args: string[], io: Io): Promise<number> {
  const { values } = parseFlags(args, { config: { type: 'string' }, json: { type: 'boolean' } }, 'gateway discover');
  const config = await openConfig(values['config'], io);
  if (config === undefined) return EXIT_FAILURE;
  const gateway = await openGateway(config, io);
  try {
    await gateway.discover();
    const health = gateway.health();
    const tools = gateway.toolRecords();
    if (values['json'] === true) writeLine(io.stdout, stringifyEscaped(discoveryJson(health, tools), 2));
    else io.stdout.write(discoveryText(health, tools));
    return health.servers.every((server) => !server.enabled || server.status === 'ready') ? EXIT_OK : EXIT_FAILURE;
  } finally {
    await gateway.close();
  }
}

async function runCall(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, { config: { type: 'string' }, args: { type: 'string' } }, 'gateway call', true);
  if (positionals.length !== 1) throw new UsageError('gateway call needs exactly one model-visible tool name.', 'gateway call');
  const name = positionals[0] as string;
  const toolArgs = parseToolArgs(values['args']);
  const config = await openConfig(values['config'], io);
  if (config === undefined) return EXIT_FAILURE;
  const gateway = await openGateway(config, io);
  const interrupt = new AbortController();
  const onSigint = (): void => interrupt.abort();
  try {
    await gateway.discover();
    const tool = gateway.toolRecords().find((record) => record.name === name);
    if (tool === undefined) {
      writeError(io, 'Frontend MCP tool is not enabled.');
      return EXIT_FAILURE;
    }
    // A command line has no later user turn in which an approval could be given.
    if (!tool.policy.readOnly || tool.policy.approval !== 'none') {
      writeError(io, 'Frontend MCP tool requires approval and cannot be called from the command line.');
      return EXIT_FAILURE;
    }
    process.on('SIGINT', onSigint);
    const result = await gateway.execute(name, toolArgs, { signal: interrupt.signal });
    writeLine(io.stdout, stringifyEscaped(result, 2));
    return result.status === 'ok' ? EXIT_OK : EXIT_FAILURE;
  } catch (error) {
    // Our own messages only; anything else gets the generic line (docs/design/style.md, "Errors").
    writeError(io, error instanceof FrontendMcpError ? error.message : 'The command failed unexpectedly.');
    return EXIT_FAILURE;
  } finally {
    process.off('SIGINT', onSigint);
    await gateway.close();
  }
}

/** `--args`: a JSON object, `{}` when absent; anything else is the spec's usage error. */
function parseToolArgs(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(raw));
  } catch (error) {
    throw new UsageError('--args must be a JSON object.', 'gateway call', { verbatim: true, cause: error });
  }
  if (!isPlainObject(parsed)) throw new UsageError('--args must be a JSON object.', 'gateway call', { verbatim: true });
  return parsed;
}

/**
 * The configuration from `--config` or the variable; undefined after printing a
 * configuration error (exit 1).
 *
 * @throws {UsageError} When neither names a file (exit 2).
 */
async function openConfig(flag: unknown, io: Io): Promise<FrontendMcpConfig | undefined> {
  const fromEnv = ownEnv(io.env, CONFIG_PATH_VARIABLE);
  if (flag === undefined && (fromEnv === undefined || fromEnv === '')) throw new UsageError(NO_CONFIGURATION, 'gateway', { verbatim: true });
  const missing = await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return undefined;
  }
  // An empty --config is a configuration error, not "no configuration" (docs/design/frontend-mcp.md §2.1).
  if (flag === '') {
    writeError(io, 'Frontend MCP configuration path must be absolute.');
    return undefined;
  }
  try {
    return await loadFrontendMcpConfig({ path: typeof flag === 'string' ? flag : fromEnv, env: io.env });
  } catch (error) {
    writeError(io, error instanceof FrontendMcpError ? error.message : 'The command failed unexpectedly.');
    return undefined;
  }
}

/** The gateway, its log events as JSON lines on stderr. Loaded lazily: `--help` never evaluates the SDK. */
async function openGateway(config: FrontendMcpConfig, io: Io): Promise<FrontendMcpGateway> {
  const { FrontendMcpGateway } = await import('../gateway/frontend-mcp-gateway.ts');
  return new FrontendMcpGateway(config, { logger: (event) => writeLine(io.stderr, stringifyEscaped(event)), env: io.env });
}

function discoveryJson(health: GatewayHealth, tools: readonly GatewayTool[]): object {
  return {
    servers: health.servers,
    tools: tools.map((tool) => ({
      name: tool.name,
      server: tool.serverKey,
      remoteName: tool.remoteName,
      readOnly: tool.policy.readOnly,
      approval: tool.policy.approval,
      timeoutMs: tool.policy.timeoutMs,
      maxResultBytes: tool.policy.maxResultBytes,
      maxCallsPerTurn: tool.policy.maxCallsPerTurn,
      description: tool.definition.function.description,
      parameters: tool.definition.function.parameters,
    })),
  };
}

/** The two text blocks of docs/design/frontend-mcp.md §1.2, exactly these columns. */
function discoveryText(health: GatewayHealth, tools: readonly GatewayTool[]): string {
  const keyWidth = Math.max(0, ...health.servers.map((server) => server.key.length)) + 2;
  const serverLines = health.servers.map((server) => {
    const detail = server.status === 'disabled' ? '' : server.status === 'error' ? (server.error ?? '') : `${server.tools} ${server.tools === 1 ? 'tool' : 'tools'}`;
    return `  ${server.key.padEnd(keyWidth)}${detail === '' ? server.status : server.status.padEnd(10) + detail}`;
  });
  const nameWidth = Math.max(0, ...tools.map((tool) => tool.name.length)) + 2;
  const toolLines = tools.map((tool) => `  ${tool.name.padEnd(nameWidth)}${(tool.policy.readOnly ? 'read-only' : 'approval-required').padEnd(19)}${tool.serverKey}/${tool.remoteName}`);
  return ['Servers', ...serverLines, 'Tools', ...toolLines].map((line) => `${line}\n`).join('');
}
