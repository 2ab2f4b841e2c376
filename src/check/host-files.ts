// `check --host claude|gemini|codex` (docs/design/config.md §11, docs/design/agents.md §1–§3):
// the managed files of the other hosts, each by that host's own rules, so that the hints never
// suggest a key of another host. Qwen Code's files stay in managed-files.ts.
import type { Binding } from '../config/binding.ts';
import { HOOK_HOST_FACTS, type HookHost } from '../hooks/hosts.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { codexMcpConfigItems, codexSettingsItems } from './codex-files.ts';
import { hostShapeItem } from './host-shape.ts';
import { hookItem } from './hook-item.ts';
import { readManagedFile } from './managed-file-read.ts';
import { type HostSettings, HostSettingsSchema, isRecord, McpServersFileSchema, readShape, type ServerEntry, ServerEntrySchema } from './managed-file-schemas.ts';
import { configPathItem, executableItem, findServer, profileTools, type SelfExecutable } from './server-entry.ts';
import { hostToolName, type JsonSettingsHost, otherWriteHooksItem, toolRulesItem } from './tool-rules.ts';

/** A host other than Qwen Code. */
export type OtherHost = Exclude<HookHost, 'qwen'>;

/** Where each host's managed files go, for the hints (docs/deploy.md, "Other coding agents"). */
const WHERE: Readonly<Record<OtherHost, { readonly mcp: string; readonly settings: string; readonly example: string }>> = {
  claude: { mcp: '/etc/claude-code/managed-mcp.json', settings: '/etc/claude-code/managed-settings.json', example: 'contracts/examples/claude-code/' },
  gemini: { mcp: '/etc/gemini-cli/settings.json', settings: '/etc/gemini-cli/settings.json', example: 'contracts/examples/gemini-cli/' },
  codex: { mcp: '/etc/codex/managed_config.toml', settings: '/etc/codex/managed_config.toml', example: 'contracts/examples/codex/' },
};

/**
 * The `mcp-config.*` items for Claude Code's MCP file (`managed-mcp.json` or `--mcp-config`) or
 * the `mcpServers` of Gemini CLI's settings: the entry that runs `serve`, its executable and
 * pinned configuration; Claude Code `alwaysLoad: true` (it defers MCP tools otherwise); Gemini CLI
 * `includeTools` exactly the profile's tools and `trust` not true (it would skip confirmations).
 */
export async function hostMcpConfigItems(host: OtherHost, filePath: string, binding: Binding | undefined, self?: SelfExecutable): Promise<{ items: CheckItem[]; serverName?: string }> {
  if (host === 'codex') return codexMcpConfigItems(filePath, binding, self);
  const shown = printable(filePath);
  const read = await readManagedFile(filePath);
  if ('cause' in read) return { items: [item('mcp-config', 'fail', `${shown}: ${read.cause}.`, `Pass the absolute path of the file (${WHERE[host].mcp}).`)] };
  const servers = readShape(McpServersFileSchema, read.value)?.mcpServers;
  const found = servers === undefined ? undefined : findServer(servers);
  const example = host === 'claude' ? 'claude-code/managed-search-mcp.json' : 'gemini-cli/managed-search-settings.json';
  if (found === undefined) return { items: [item('mcp-config', 'fail', `${shown}: no mcpServers entry runs "external-context serve".`, `Add the entry of contracts/examples/${example}.`)] };
  const [name, raw] = found;
  // findServer returns JSON objects only, which the lenient entry schema always reads.
  const entry = readShape(ServerEntrySchema, raw) as ServerEntry;
  const shape = hostShapeItem(host, raw);
  const items = [
    item('mcp-config', 'ok', `${shown}: server "${printable(name)}" runs serve.`),
    ...(shape === undefined ? [] : [shape]),
    await executableItem(name, raw, self),
    configPathItem(raw, binding),
  ];
  const writes = binding?.writeEnabled === true;
  if (host === 'claude') {
    items.push(
      entry.alwaysLoad === true
        ? item('mcp-config.always-load', 'ok', 'alwaysLoad is true.')
        : item(
            'mcp-config.always-load',
            writes ? 'fail' : 'warn',
            'alwaysLoad is not true, so Claude Code defers the tools behind its tool search and hides their descriptions from the model.',
            'Set "alwaysLoad": true in the server entry.',
          ),
    );
    return { items, serverName: name };
  }
  const expected = profileTools(binding) ?? ['context_search'];
  const include = entry.includeTools;
  items.push(
    include !== undefined && include.length === expected.length && expected.every((tool) => include.includes(tool))
      ? item('mcp-config.include-tools', 'ok', `includeTools is ${printable(JSON.stringify(include))}.`)
      : item(
          'mcp-config.include-tools',
          'fail',
          `includeTools is ${include === undefined ? 'missing' : printable(JSON.stringify(include))}, but this configuration exposes ${JSON.stringify(expected)}.`,
          `Set includeTools to ${JSON.stringify(expected)}.`,
        ),
  );
  items.push(
    entry.trust === true
      ? item('mcp-config.trust', 'fail', 'trust is true, so Gemini CLI runs every tool of the server without its confirmation.', 'Set "trust": false in the server entry.')
      : item('mcp-config.trust', 'ok', 'trust is not true.'),
  );
  return { items, serverName: name };
}

/**
 * The `settings.*` items for Claude Code's managed settings or Gemini CLI's system settings.
 * Version 1: the allow rule for `context_search` (Claude Code `permissions.allow`, Gemini CLI
 * `tools.allowed`), with writes no allow for `context_remember` (Claude Code also its
 * `permissions.ask`) and the write Hook with the host's matcher and timeout, no other Hook over
 * it; every rule that blocks or hides a profile tool. Version 2: the auto-recall Hook.
 */
export async function hostSettingsItems(host: OtherHost, filePath: string, binding: Binding | undefined, serverName = 'external-context', self?: SelfExecutable): Promise<CheckItem[]> {
  if (host === 'codex') return codexSettingsItems(filePath, binding, serverName, self);
  const shown = printable(filePath);
  const read = await readManagedFile(filePath);
  if ('cause' in read) return [item('settings', 'fail', `${shown}: ${read.cause}.`, `Pass the absolute path of the managed settings (${WHERE[host].settings}).`)];
  const raw = read.value;
  if (!isRecord(raw)) return [item('settings', 'fail', `${shown}: not a JSON object.`, `Start from ${WHERE[host].example}.`)];
  // A JSON object, which the lenient settings schema always reads.
  const settings = readShape(HostSettingsSchema, raw) as HostSettings;
  const items = [item('settings', 'ok', `${shown}: readable JSON object.`)];
  const jsonHost: JsonSettingsHost = host;
  const facts = HOOK_HOST_FACTS[host];
  const search = hostToolName(jsonHost, serverName, 'context_search');
  const remember = facts.rememberToolName(serverName);
  const hooks = settings.hooks ?? {};
  const writes = binding?.writeEnabled === true;
  if (binding === undefined || binding.version === 1) {
    items.push(permissionsItem(host, settings, search, remember, writes));
    if (writes) {
      items.push(await hookItem(hooks, { id: 'settings.write-hook', event: facts.toolEvent, subcommand: 'write-confirmation', matcher: `^${remember}$`, serverName, host }, self));
      items.push(otherWriteHooksItem(hooks, facts.toolEvent, remember));
    }
    items.push(toolRulesItem(raw, { host: jsonHost, serverName, tools: profileTools(binding) ?? ['context_search'] }));
  } else {
    const matcher = host === 'gemini' ? '*' : undefined;
    items.push(await hookItem(hooks, { id: 'settings.auto-recall-hook', event: facts.promptEvent, subcommand: 'auto-recall', matcher, configPath: binding.configPath, host }, self));
  }
  if (host === 'claude' && settings.disableAllHooks === true) {
    items.push(item('settings.hooks-enabled', 'fail', 'disableAllHooks is true, so no Hook runs.', 'Set "disableAllHooks": false in the managed settings.'));
  }
  return items;
}

/** The allow (and, on Claude Code, ask) rules for the profile's tools. */
function permissionsItem(host: 'claude' | 'gemini', settings: HostSettings, search: string, remember: string, writes: boolean): CheckItem {
  const field = host === 'claude' ? 'permissions.allow' : 'tools.allowed';
  const allow = (host === 'claude' ? settings.permissions?.allow : settings.tools?.allowed) ?? [];
  const ask = settings.permissions?.ask ?? [];
  const problems: string[] = [];
  const fixes: string[] = [];
  if (!allow.includes(search)) {
    problems.push(`${field} does not name ${search}`);
    fixes.push(`add "${search}" to ${field}`);
  }
  if (allow.includes(remember)) {
    problems.push(`${field} names ${remember}, so writes run without ${host === 'claude' ? "Claude Code's" : "Gemini CLI's"} confirmation`);
    fixes.push(`remove "${remember}" from ${field}`);
  }
  if (host === 'claude' && writes && !ask.includes(remember)) {
    problems.push(`permissions.ask does not name ${remember}`);
    fixes.push(`add "${remember}" to permissions.ask`);
  }
  if (problems.length === 0) return item('settings.permissions', 'ok', `${field} names ${search}${writes ? ` and not ${remember}` : ''}.`);
  return item(
    'settings.permissions',
    'fail',
    `${problems.join('; ')}.`,
    `${fixes.join('; ')}.`.replace(/^./u, (first) => first.toUpperCase()),
  );
}
