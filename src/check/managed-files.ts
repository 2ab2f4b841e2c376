// `check --mcp-config`, `--settings` and `--launch-profile` (docs/design/config.md §11): Qwen
// Code's managed files around the server, read through the schemas of managed-file-schemas.ts and
// checked against the configuration being checked. Each finding is one item that says what to
// change. Reads files only; never starts Qwen Code or the server.
import type { Binding } from '../config/binding.ts';
import { loadLaunchPlan } from '../launch/launch-plan.ts';
import { LaunchProfileError } from '../launch/launch-profile-error.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { hookItem } from './hook-item.ts';
import { hostShapeItem } from './host-shape.ts';
import { readManagedFile } from './managed-file-read.ts';
import { isRecord, McpServersFileSchema, QwenSettingsSchema, readShape, type QwenSettings, type ServerEntry, ServerEntrySchema } from './managed-file-schemas.ts';
import { serverArgsItem } from './server-entry-args.ts';
import { configPathItem, executableItem, findServer, profileTools, type SelfExecutable } from './server-entry.ts';
import { otherWriteHooksItem, toolRulesItem } from './tool-rules.ts';

/**
 * The `mcp-config.*` items for a Qwen Code MCP configuration (docs/design/examples.md §4).
 *
 * @param filePath `--mcp-config` as given.
 * @param binding The configuration being checked, when it loaded (tools and path to compare).
 * @param self The running standalone executable, which `command` should name (a `warn` otherwise).
 * @returns `mcp-config` (file and server entry), `mcp-config.executable`,
 *   `mcp-config.config-path`, `mcp-config.include-tools`, `mcp-config.always-load-tools`.
 */
export async function mcpConfigItems(filePath: string, binding: Binding | undefined, self?: SelfExecutable): Promise<{ items: CheckItem[]; serverName?: string }> {
  const shown = printable(filePath);
  const read = await readManagedFile(filePath);
  if ('cause' in read) return { items: [item('mcp-config', 'fail', `${shown}: ${read.cause}.`, 'Pass the absolute path of the MCP configuration given to qwen --mcp-config.')] };
  const servers = readShape(McpServersFileSchema, read.value)?.mcpServers;
  const found = servers === undefined ? undefined : findServer(servers);
  if (found === undefined) {
    return {
      items: [item('mcp-config', 'fail', `${shown}: no mcpServers entry runs "external-context serve".`, 'Add the entry of contracts/examples/managed-search-mcp.json (docs/design/examples.md §4).')],
    };
  }
  const [name, raw] = found;
  // findServer returns JSON objects only, which the lenient entry schema always reads.
  const entry = readShape(ServerEntrySchema, raw) as ServerEntry;
  const shape = hostShapeItem('qwen', raw);
  const items = [item('mcp-config', 'ok', `${shown}: server "${printable(name)}" runs serve.`), ...(shape === undefined ? [] : [shape])];
  items.push(await executableItem(name, raw, self));
  items.push(serverArgsItem(entry.args ?? [], entry.excludeTools, name));
  items.push(configPathItem(raw, binding));
  items.push(includeToolsItem(entry.includeTools, profileTools(binding)));
  items.push(alwaysLoadToolsItem(entry, binding));
  return { items, serverName: name };
}

/** The `mcp-config.include-tools` item: exactly the tools this configuration exposes. */
function includeToolsItem(include: readonly string[] | undefined, expected: readonly string[] | undefined): CheckItem {
  if (include === undefined) {
    return item('mcp-config.include-tools', 'fail', 'includeTools is missing.', `Set includeTools to ${JSON.stringify(expected ?? ['context_search'])}.`);
  }
  if (expected !== undefined && (include.length !== expected.length || !expected.every((tool) => include.includes(tool)))) {
    return item(
      'mcp-config.include-tools',
      'fail',
      `includeTools is ${printable(JSON.stringify(include))}, but this configuration exposes ${JSON.stringify(expected)}.`,
      `Set includeTools to ${JSON.stringify(expected)}.`,
    );
  }
  if (include.some((tool) => tool !== 'context_search' && tool !== 'context_remember')) {
    return item(
      'mcp-config.include-tools',
      'fail',
      `includeTools is ${printable(JSON.stringify(include))}, which names a tool the server does not have.`,
      'Keep only "context_search" (and "context_remember" when writes are enabled) in includeTools.',
    );
  }
  if (expected === undefined) {
    return item(
      'mcp-config.include-tools',
      'warn',
      `includeTools is ${printable(JSON.stringify(include))}; it cannot be compared with the tools the configuration exposes, since the configuration did not load.`,
      'Fix the configuration, then run check again.',
    );
  }
  return item('mcp-config.include-tools', 'ok', `includeTools is ${printable(JSON.stringify(include))}.`);
}

/** The `mcp-config.always-load-tools` item: Qwen Code must not defer the tools (a `fail` with writes). */
function alwaysLoadToolsItem(entry: ServerEntry, binding: Binding | undefined): CheckItem {
  if (entry.alwaysLoadTools === true) return item('mcp-config.always-load-tools', 'ok', 'alwaysLoadTools is true.');
  return item(
    'mcp-config.always-load-tools',
    binding?.writeEnabled === true ? 'fail' : 'warn',
    'alwaysLoadTools is not true, so Qwen Code may defer the tools and hide their descriptions from the model.',
    'Set "alwaysLoadTools": true in the server entry.',
  );
}

/**
 * The `settings.*` items for the managed system settings (docs/design/examples.md §5).
 *
 * @param filePath `--settings` as given.
 * @param binding The configuration being checked, when it loaded. Version 1 needs the
 *   permission rules (and, with writes, the write-confirmation Hook); version 2 the auto-recall Hook.
 * @param serverName The MCP server key the rules must name: the one `--mcp-config` runs, else
 *   `external-context`.
 * @param self The running standalone executable, which the Hook commands should start.
 */
export async function settingsItems(filePath: string, binding: Binding | undefined, serverName = 'external-context', self?: SelfExecutable): Promise<CheckItem[]> {
  const shown = printable(filePath);
  const read = await readManagedFile(filePath);
  if ('cause' in read) return [item('settings', 'fail', `${shown}: ${read.cause}.`, 'Pass the absolute path named by QWEN_CODE_SYSTEM_SETTINGS_PATH.')];
  const raw = read.value;
  if (!isRecord(raw)) return [item('settings', 'fail', `${shown}: not a JSON object.`, 'Start from contracts/examples/managed-search-system-settings.json.')];
  // A JSON object, which the lenient settings schema always reads.
  const settings = readShape(QwenSettingsSchema, raw) as QwenSettings;
  const items = [item('settings', 'ok', `${shown}: readable JSON object.`)];
  const remember = `mcp__${serverName}__context_remember`;
  const hooks = settings.hooks ?? {};
  if (binding === undefined || binding.version === 1) {
    items.push(permissionsItem(settings, binding, serverName));
    if (binding?.writeEnabled === true) {
      items.push(await hookItem(hooks, { id: 'settings.write-hook', event: 'PreToolUse', subcommand: 'write-confirmation', matcher: remember, serverName }, self));
      items.push(otherWriteHooksItem(hooks, 'PreToolUse', remember));
    }
    items.push(toolRulesItem(raw, { host: 'qwen', serverName, tools: profileTools(binding) ?? ['context_search'] }));
  } else {
    items.push(await hookItem(hooks, { id: 'settings.auto-recall-hook', event: 'UserPromptSubmit', subcommand: 'auto-recall', matcher: undefined, configPath: binding.configPath }, self));
  }
  if (settings.disableAllHooks === true) {
    items.push(item('settings.hooks-enabled', 'fail', 'disableAllHooks is true, so no Hook runs.', 'Set "disableAllHooks": false in the system settings.'));
  }
  items.push(
    settings.slashCommands?.disabled?.includes('cd') === true
      ? item('settings.cd', 'ok', '/cd is disabled.')
      : item('settings.cd', 'warn', '/cd is not disabled, so a session can move away from the repository the corpus belongs to.', 'Add "cd" to slashCommands.disabled.'),
  );
  return items;
}

/** The `settings.permissions` item of a version 1 deployment: search allowed, writes asked, no stray tool rule. */
function permissionsItem(settings: QwenSettings, binding: Binding | undefined, serverName: string): CheckItem {
  const search = `mcp__${serverName}__context_search`;
  const remember = `mcp__${serverName}__context_remember`;
  const allow = settings.permissions?.allow ?? [];
  const ask = settings.permissions?.ask ?? [];
  const problems: string[] = [];
  const fixes: string[] = [];
  if (!allow.includes(search)) {
    problems.push(`permissions.allow does not name ${search}`);
    fixes.push(`add "${search}" to permissions.allow`);
  }
  if (binding?.writeEnabled === true && !ask.includes(remember)) {
    problems.push(`permissions.ask does not name ${remember}`);
    fixes.push(`add "${remember}" to permissions.ask`);
  }
  if (allow.includes(remember)) {
    problems.push(`permissions.allow names ${remember}, so writes run without confirmation`);
    fixes.push(`move "${remember}" to permissions.ask`);
  }
  const stray = [...allow, ...ask].filter((rule) => rule.startsWith('mcp__') && /context_(search|remember)$/u.test(rule) && rule !== search && rule !== remember);
  if (stray.length > 0) {
    problems.push(`${printable(stray.join(', '))} name${stray.length === 1 ? 's' : ''} no tool of server "${serverName}"`);
    fixes.push('name the tools as mcp__<server key>__<tool>');
  }
  if (problems.length === 0) return item('settings.permissions', 'ok', `The permission rules name ${binding?.writeEnabled === true ? `${search} (allow) and ${remember} (ask)` : search}.`);
  return item(
    'settings.permissions',
    'fail',
    `${problems.join('; ')}.`,
    `${fixes.join('; ')}.`.replace(/^./u, (first) => first.toUpperCase()),
  );
}

/**
 * The `launch-profile` item: everything `launch` would reject, without starting Qwen Code.
 *
 * @param filePath `--launch-profile` as given.
 * @param env The environment `launch` would run in (credentialEnv and passEnv).
 */
export async function launchProfileItems(filePath: string, env: Readonly<Record<string, string | undefined>>): Promise<CheckItem[]> {
  try {
    const plan = await loadLaunchPlan(filePath, env);
    return [item('launch-profile', 'ok', `${printable(filePath)}: launch would start ${printable(plan.executable)} in ${printable(plan.cwd)}.`)];
  } catch (error) {
    const message = error instanceof LaunchProfileError ? error.message : 'The launch profile could not be checked.';
    return [item('launch-profile', 'fail', `${printable(filePath)}: ${message}`, 'Fix the field the message names (docs/design/examples.md §8.3).')];
  }
}
