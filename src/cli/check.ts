// `external-context check`, the deployment doctor: the complete load a server would do (same code,
// same errors), the binding, and the checklist of check/diagnose.ts (docs/design/config.md §11).
// Never imports the MCP SDK.
import type { Binding } from '../config/binding.ts';
import { ConfigError } from '../config/config-error.ts';
import { SCOPE_KEYS, type ScopeKey } from '../config/presets.ts';
import { stringifyEscaped } from '../contract/escape.ts';
import type { BoundProvider } from '../providers/types.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { printable } from '../check/check-item.ts';
import { diagnose, renderChecklist } from '../check/diagnose.ts';
import { versionLine } from '../version.ts';
import { extractConfigFlag } from './config-flag.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeErr, writeError, writeOut } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { isHookHost } from '../hooks/hosts.ts';
import { UsageError } from './usage-error.ts';

/** `check --help`. */
export const help = `${versionLine()}
The deployment doctor: load a configuration exactly as the MCP server and the auto-recall Hook
do, show what it binds, and print a checklist of everything that can be checked without
starting Qwen Code. Each item is ok, warn or fail, with what to change. Without --search or
--probe it makes no network request.

USAGE
  external-context check [--config <abs path>] [--search <query>] [--probe]
      [--mcp-config <file>] [--settings <file>] [--host qwen|claude|gemini|codex]
      [--launch-profile <file>] [--json]

OPTIONS
  --config <abs path>        Configuration file (default: $QWEN_EXTERNAL_CONTEXT_CONFIG).
  --search <query>           Also run one real context_search: the result text and latency,
                             and a checklist item with the item count and the first item, or
                             the failure class and a hint. Timeout: timeoutMs (version 1) or
                             autoRecall.timeoutMs (version 2). (default: no search)
  --probe                    Mem0 configurations: also run the preset probe's read-only
                             requests and report its verdict as an item. (default: no probe)
  --mcp-config <file>        Check the MCP configuration that starts this server (Qwen Code's
                             --mcp-config file; Claude Code's managed-mcp.json or --mcp-config
                             file; Gemini CLI's settings with mcpServers; Codex's
                             config.toml).
  --settings <file>          Check the managed settings: permissions, Hooks, rules that block
                             or hide the tools, other Hooks over context_remember (and /cd).
  --host <host>              Whose files --mcp-config and --settings are, checked by that
                             host's rules: qwen (default), claude, gemini or codex (its
                             config.toml, e.g. /etc/codex/managed_config.toml, for both).
  --launch-profile <file>    Check a launch profile as launch would, without starting Qwen.
  --json                     Print one JSON object (2-space indentation) instead of lines.
                             (default: lines)
  -h, --help                 Show this help.

ENVIRONMENT
  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute configuration path when --config is not given.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied).
  The credential variable named in the configuration must be set; check names that variable
  in its credential item, never its value.

EXIT CODES
  0  no checklist item failed (warnings allowed)
  1  an item failed: the configuration did not load (also one stderr line
     "[external-context] <message>"), the search or probe failed, or a checked file is wrong
  2  usage error (unknown flag, stray argument, a flag without its value)

EXAMPLES
  external-context check --config /etc/external-context/search.json
  external-context check --config /etc/external-context/search.json --search "deployment policy"
  external-context check --config /etc/external-context/mem0.json --probe --json
  external-context check --config /etc/external-context/write.json \\
      --mcp-config /etc/external-context/managed-write-mcp.json \\
      --settings /etc/external-context/managed-write-system-settings.json
  external-context check --config /etc/external-context/write.json --host claude \\
      --mcp-config /etc/claude-code/managed-mcp.json --settings /etc/claude-code/managed-settings.json
`;

const OPTIONS = {
  search: { type: 'string' },
  json: { type: 'boolean' },
  probe: { type: 'boolean' },
  'mcp-config': { type: 'string' },
  settings: { type: 'string' },
  'launch-profile': { type: 'string' },
  host: { type: 'string' },
} as const;

/** Generic text of a load failure that is not a configuration error (docs/design/config.md §11). */
const STARTUP_FAILED = 'External context startup failed.';

/**
 * Runs `check`.
 *
 * @param args Arguments after `check`.
 * @param io Streams and environment.
 * @returns 0 when no checklist item failed; 1 otherwise.
 * @throws {UsageError} On an unknown flag, a stray argument or a flag without its value.
 * @see docs/design/config.md §11
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  // A bad --config value is a configuration error (exit 1), so it is taken out before parsing.
  const { rest, config } = extractConfigFlag(args);
  const { values } = parseFlags(rest, OPTIONS, 'check', false, ['config']);
  const query = values['search'];
  const json = values['json'] === true;
  const probe = values['probe'] === true;
  const host = values['host'] as string | undefined;
  if (host !== undefined && !isHookHost(host)) throw new UsageError('--host must be qwen, claude, gemini or codex.', 'check');
  const files = {
    mcpConfig: values['mcp-config'] as string | undefined,
    settings: values['settings'] as string | undefined,
    launchProfile: values['launch-profile'] as string | undefined,
    host,
  };

  const permissions: PermissionDescriptor[] = [{ name: 'read' }, { name: 'env' }];
  if (query !== undefined || probe) permissions.push({ name: 'net' });
  const missing = await missingPermission(permissions);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }

  const self = io.scriptPath === undefined ? io.execPath : undefined;
  const report = await diagnose({ configFlag: config, env: io.env, query, probe, files, self });
  if (report.loadError !== undefined) {
    // Same line as the MCP server; unknown errors never print their message (docs/design/style.md).
    writeError(io, report.loadError instanceof ConfigError ? report.loadError.message : STARTUP_FAILED);
  }
  if (report.search?.operatorLine !== undefined) writeErr(io, `${report.search.operatorLine}\n`);
  const opened = report.opened;
  if (json) {
    const data = {
      ...(opened === undefined ? { valid: false } : bindingJson(opened.binding, opened.provider)),
      ...(report.search === undefined
        ? {}
        : { search: { ok: report.search.ok, latencyMs: report.search.latencyMs, envelope: report.search.envelope, ...(report.search.failure === undefined ? {} : report.search.failure) } }),
      ok: !report.items.some((entry) => entry.status === 'fail'),
      items: report.items,
    };
    writeOut(io, `${stringifyEscaped(data, 2)}\n`);
  } else {
    const out: string[] = [];
    if (opened !== undefined) out.push(...describeBinding(opened.binding, opened.provider));
    if (report.search !== undefined) {
      out.push(report.search.text);
      if (report.search.ok) out.push(`Latency: ${report.search.latencyMs} ms`);
    }
    if (out.length > 0) out.push('');
    out.push(...renderChecklist(report.items));
    writeOut(io, out.map((line) => `${line}\n`).join(''));
  }
  return report.items.some((entry) => entry.status === 'fail') ? EXIT_FAILURE : EXIT_OK;
}

/** Scope values in the order userId, agentId, appId; undefined for Generic HTTP. */
function scopeOf(binding: Binding): Partial<Record<ScopeKey, string>> | undefined {
  const provider = binding.provider;
  if (provider.type === 'mem0-platform-v3') return { appId: provider.appId };
  if (provider.type !== 'mem0') return undefined;
  const scope: Partial<Record<ScopeKey, string>> = {};
  for (const key of SCOPE_KEYS) {
    const value = provider.scope[key];
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}

/**
 * The first line and the `  <key>: <value>` binding lines, in the order of docs/design/config.md §11.
 * The credential line says only `set`: an unavailable credential fails the load.
 */
function describeBinding(binding: Binding, provider: BoundProvider): string[] {
  const preset = binding.provider.type === 'mem0' ? `, preset ${binding.provider.preset}` : '';
  const writes = binding.writeEnabled ? 'enabled' : 'disabled';
  const lines = [`Configuration is valid: version ${binding.version}, provider ${binding.provider.type}${preset}, writes ${writes}.`];
  const add = (key: string, value: string | number): void => {
    lines.push(`  ${key}: ${printable(String(value))}`);
  };
  add('config', binding.configPath);
  add('origin', provider.origin);
  add('search', provider.searchUrl);
  if (binding.writeEnabled && provider.writeUrl !== undefined) add('write', provider.writeUrl);
  const scope = scopeOf(binding);
  if (scope !== undefined) {
    add('scope', SCOPE_KEYS.flatMap((key) => (scope[key] === undefined ? [] : [`${key}=${scope[key]}`])).join(', '));
  }
  if (binding.autoRecall === undefined) {
    add('timeoutMs', binding.timeoutMs);
  } else {
    add('autoRecall.repositoryRoot', binding.autoRecall.repositoryRoot);
    add('autoRecall.timeoutMs', binding.autoRecall.timeoutMs);
  }
  add('credential', 'set');
  add('proxy', provider.proxy);
  return lines;
}

/** The `--json` object, keys in the order of docs/design/config.md §11. */
function bindingJson(binding: Binding, provider: BoundProvider): Record<string, unknown> {
  const scope = scopeOf(binding);
  return {
    valid: true,
    version: binding.version,
    configPath: binding.configPath,
    provider: {
      type: binding.provider.type,
      ...(binding.provider.type === 'mem0' ? { preset: binding.provider.preset } : {}),
      origin: provider.origin,
      searchUrl: provider.searchUrl,
      ...(binding.writeEnabled && provider.writeUrl !== undefined ? { writeUrl: provider.writeUrl } : {}),
    },
    ...(scope === undefined ? {} : { scope }),
    ...(binding.autoRecall === undefined ? { timeoutMs: binding.timeoutMs } : { autoRecall: { repositoryRoot: binding.autoRecall.repositoryRoot, timeoutMs: binding.autoRecall.timeoutMs } }),
    writes: binding.writeEnabled ? 'enabled' : 'disabled',
    credential: 'set',
    proxy: provider.proxy,
  };
}
