// `check --settings`: the rules and Hooks in a host's managed settings that would block, drop or
// overrule the profile's tools (docs/design/config.md §11, issue 29 item 8). A deny or disable
// rule that names a profile tool (or its whole server) breaks the deployment silently; another
// Hook whose matcher covers context_remember can answer `allow` and, where the host lets a later
// Hook win, overrule the confirmation.
import type { HookHost } from '../hooks/hosts.ts';
import { ownField } from '../util/own-field.ts';
import { isRecord } from './managed-file-schemas.ts';
import { type CheckItem, item, printable } from './check-item.ts';

/** The hosts whose settings are JSON (Codex's TOML is checked elsewhere). */
export type JsonSettingsHost = Exclude<HookHost, 'codex'>;

/** What the rules are compared with. */
export interface ToolRuleContext {
  readonly host: JsonSettingsHost;
  /** The MCP server key. */
  readonly serverName: string;
  /** The profile's tools: `context_search`, and `context_remember` with writes. */
  readonly tools: readonly string[];
}

/** A field of a JSON object; undefined for anything else. The rules sit at many host-specific paths, so they are read by key. */
function own(record: unknown, key: string): unknown {
  return isRecord(record) ? ownField(record, key) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The name the host gives one of the server's tools: `mcp__<key>__<tool>`, Gemini CLI `mcp_<key>_<tool>`. */
export function hostToolName(host: JsonSettingsHost, serverName: string, tool: string): string {
  return host === 'gemini' ? `mcp_${serverName}_${tool}` : `mcp__${serverName}__${tool}`;
}

/** Whether a `*`/`?` glob matches the whole name. */
function globMatches(glob: string, name: string): boolean {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/gu, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${pattern}$`, 'u').test(name);
}

/**
 * Whether a permission rule (`Tool` or `Tool(specifier)`) applies to the tool: the exact name, a
 * glob over it, or the whole server (`mcp__<key>`, Claude Code and Qwen Code).
 */
function ruleCovers(rule: string, toolName: string, serverPrefix: string): boolean {
  const name = rule.replace(/\(.*\)$/su, '').trim();
  return name === serverPrefix || globMatches(name, toolName);
}

/**
 * Whether a Hook matcher selects the tool: no matcher, `*` or an empty one selects every tool;
 * otherwise the host reads it as an unanchored regular expression (an exact name matches too).
 * A matcher that is not a valid expression counts as covering when it equals the name.
 */
export function matcherCovers(matcher: unknown, toolName: string): boolean {
  if (matcher === undefined || matcher === null || matcher === '' || matcher === '*') return true;
  if (typeof matcher !== 'string') return false;
  if (matcher === toolName) return true;
  try {
    return new RegExp(matcher, 'u').test(toolName);
  } catch {
    return false;
  }
}

/**
 * The `settings.tool-rules` item: every rule of the host's settings that blocks or hides a
 * profile tool. Qwen Code and Claude Code: `permissions.deny`; Qwen Code also `tools.disabled`
 * and the deprecated `tools.exclude`; Gemini CLI `tools.exclude`; Qwen Code and Gemini CLI
 * `mcp.excluded` (globs over server names), `mcp.allowed` without the server, and the server
 * entry's `excludeTools`.
 *
 * @param settings The parsed settings object.
 * @param context Host, server key and the profile's tools.
 */
export function toolRulesItem(settings: Record<string, unknown>, context: ToolRuleContext): CheckItem {
  const { host, serverName, tools } = context;
  const serverPrefix = host === 'gemini' ? `mcp_${serverName}` : `mcp__${serverName}`;
  const names = tools.map((tool) => hostToolName(host, serverName, tool));
  const problems: string[] = [];
  const rules = (field: string, list: readonly string[], covers: (rule: string, toolName: string) => boolean): void => {
    for (const rule of list) {
      const hit = names.filter((toolName) => covers(rule, toolName));
      if (hit.length > 0) problems.push(`${field} "${printable(rule)}" blocks ${hit.join(', ')}`);
    }
  };
  if (host !== 'gemini') rules('permissions.deny', strings(own(own(settings, 'permissions'), 'deny')), (rule, toolName) => ruleCovers(rule, toolName, serverPrefix));
  if (host === 'qwen') rules('tools.disabled', strings(own(own(settings, 'tools'), 'disabled')), (rule, toolName) => globMatches(rule, toolName));
  if (host !== 'claude') {
    rules('tools.exclude', strings(own(own(settings, 'tools'), 'exclude')), (rule, toolName) => ruleCovers(rule, toolName, serverPrefix));
    const mcp = own(settings, 'mcp');
    for (const rule of strings(own(mcp, 'excluded'))) {
      if (globMatches(rule, serverName)) problems.push(`mcp.excluded "${printable(rule)}" excludes the server "${printable(serverName)}"`);
    }
    const allowed = own(mcp, 'allowed');
    if (Array.isArray(allowed) && !strings(allowed).some((rule) => globMatches(rule, serverName))) {
      problems.push(`mcp.allowed does not name the server "${printable(serverName)}", so it is dropped`);
    }
    const excludeTools = strings(own(own(own(settings, 'mcpServers'), serverName), 'excludeTools'));
    const excluded = tools.filter((tool) => excludeTools.includes(tool));
    if (excluded.length > 0) problems.push(`mcpServers.${printable(serverName)}.excludeTools drops ${excluded.join(', ')}`);
  }
  if (problems.length === 0) return item('settings.tool-rules', 'ok', `No rule blocks or hides ${names.join(' or ')}.`);
  return item('settings.tool-rules', 'fail', `${problems.join('; ')}.`, "Remove those rules (or narrow them so they no longer name the profile's tools or server).");
}

/**
 * The `settings.other-hooks` item (writes only): every Hook of the tool event other than the
 * write-confirmation Hook whose matcher covers `context_remember`. Qwen Code merges Hook
 * outputs and a later `allow` wins over the confirmation's `ask` (observed with 0.24.4: four
 * memories stored with no confirmation), so any such Hook fails, on every host.
 *
 * @param hooks The settings' `hooks` object.
 * @param event The host's tool event (`PreToolUse`, Gemini CLI `BeforeTool`).
 * @param rememberTool The host's name for `context_remember`.
 */
export function otherWriteHooksItem(hooks: Record<string, unknown>, event: string, rememberTool: string): CheckItem {
  const groups = own(hooks, event);
  const others: string[] = [];
  for (const group of Array.isArray(groups) ? groups : []) {
    if (!isRecord(group) || !matcherCovers(own(group, 'matcher'), rememberTool)) continue;
    const list = own(group, 'hooks');
    for (const hook of Array.isArray(list) ? list : []) {
      const command = own(hook, 'command');
      if (own(hook, 'type') === 'command' && typeof command === 'string' && command.includes(' hook write-confirmation')) continue;
      const shown = typeof command === 'string' ? command : JSON.stringify(own(hook, 'type') ?? null);
      others.push(`matcher ${printable(JSON.stringify(own(group, 'matcher') ?? null))}: ${printable(shown.length > 120 ? `${shown.slice(0, 120)}…` : shown)}`);
    }
  }
  if (others.length === 0) return item('settings.other-hooks', 'ok', `No other ${event} Hook covers ${rememberTool}.`);
  return item(
    'settings.other-hooks',
    'fail',
    `Another ${event} Hook covers ${rememberTool} and can overrule the write confirmation (${others.join('; ')}).`,
    `Give those Hooks a matcher that does not select ${rememberTool}, or remove them.`,
  );
}
