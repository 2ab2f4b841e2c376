// `check --mcp-config`, `--settings` and `--launch-profile` (docs/design/config.md §11): the managed
// files around the server, checked against the configuration being checked. Each finding is one
// item that says what to change. Reads files only; never starts Qwen Code or the server.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Binding } from '../config/binding.ts';
import { fileErrorCause, type JsonFileRules, readJsonFile } from '../config/read-json-file.ts';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost } from '../hooks/hosts.ts';
import { type HookShell, parseHookCommand } from '../hooks/settings.ts';
import { DEFAULT_SERVER_NAME } from '../hooks/server-name.ts';
import { checkAdminFile } from '../launch/file-checks.ts';
import { loadLaunchPlan } from '../launch/launch-plan.ts';
import { LaunchProfileError } from '../launch/launch-profile-error.ts';
import { ownField } from '../util/own-field.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { hostShapeItem } from './host-shape.ts';
import { otherWriteHooksItem, toolRulesItem } from './tool-rules.ts';
import { serverArgsItem } from './server-entry-args.ts';

/** Largest managed file read, in bytes (1 MiB: settings files grow with unrelated keys). */
const MAX_MANAGED_FILE_BYTES = 1_048_576;

class ManagedFileError extends Error {}

/** Reads a managed JSON file; the error message names the cause, never the contents. */
async function readManagedJson(filePath: string): Promise<unknown> {
  if (!path.isAbsolute(filePath)) throw new ManagedFileError('is not an absolute path');
  try {
    await stat(filePath);
  } catch (error) {
    throw new ManagedFileError(fileErrorCause(error));
  }
  const rules: JsonFileRules = {
    maxBytes: MAX_MANAGED_FILE_BYTES,
    messages: { notAFile: 'is not a regular file of at most 1 MiB', unreadable: 'could not be read', notJson: 'is not valid JSON', duplicateKey: (field) => `has a duplicate key: ${field}` },
    toError: (message, cause) => new ManagedFileError(message === 'could not be read' ? fileErrorCause(cause) : message),
  };
  return readJsonFile(filePath, rules);
}

/** Reads a managed file, or says why not: the cause is one of the fixed texts above, never a raw message. */
export async function readManagedFile(filePath: string): Promise<{ readonly value: unknown } | { readonly cause: string }> {
  try {
    return { value: await readManagedJson(filePath) };
  } catch (error) {
    return { cause: error instanceof ManagedFileError ? error.message : 'could not be read' };
  }
}

/** The running executable, when it is the standalone executable (not a runtime running the bundle). */
export type SelfExecutable = string | undefined;

/** Whether two paths name the same file once symlinks are resolved. */
async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/** `warn` when `executable` is not the one running check; undefined when it is or is unknown. */
export async function otherExecutable(id: string, what: string, executable: string, self: SelfExecutable): Promise<CheckItem | undefined> {
  if (self === undefined || (await sameFile(executable, self))) return undefined;
  return item(
    id,
    'warn',
    `${what} runs ${printable(executable)}, not the executable running this check (${printable(self)}).`,
    'Point it at the installed executable, or run check with the executable it names.',
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? (value as string[]) : undefined;
}

/** The tools a profile exposes: `context_search`, plus `context_remember` when writes are enabled. */
export function profileTools(binding: Binding | undefined): string[] | undefined {
  if (binding === undefined) return undefined;
  return binding.writeEnabled ? ['context_search', 'context_remember'] : ['context_search'];
}

/** The server entry that runs `serve`: the one named `external-context`, else the only one running `serve`. */
export function findServer(servers: Record<string, unknown>): [string, Record<string, unknown>] | undefined {
  const entries = Object.entries(servers).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]));
  const serving = entries.filter(([, entry]) => stringArray(ownField(entry, 'args'))?.includes('serve') === true);
  return serving.find(([name]) => name === 'external-context') ?? (serving.length === 1 ? serving[0] : undefined) ?? entries.find(([name]) => name === 'external-context');
}

/** The `mcp-config.executable` item: the entry's command is an administrator-owned absolute file. */
export async function executableItem(name: string, entry: Record<string, unknown>, self: SelfExecutable): Promise<CheckItem> {
  const command = ownField(entry, 'command');
  if (typeof command !== 'string') {
    return item('mcp-config.executable', 'fail', `mcpServers.${printable(name)}.command is missing.`, 'Set command to the absolute path of the external-context executable.');
  }
  const reason = await checkAdminFile(command);
  return reason === undefined
    ? ((await otherExecutable('mcp-config.executable', 'The server entry', command, self)) ?? item('mcp-config.executable', 'ok', `${printable(command)} exists and other users cannot write it.`))
    : item('mcp-config.executable', 'fail', `mcpServers.${printable(name)}.command ${reason}.`, 'Install the executable at an absolute path only the administrator can write, and name it in command.');
}

/** The `mcp-config.config-path` item: `--config` pinned to the configuration checked here. */
export function configPathItem(entry: Record<string, unknown>, binding: Binding | undefined): CheckItem {
  const args = stringArray(ownField(entry, 'args')) ?? [];
  const configIndex = args.indexOf('--config');
  const pinned = configIndex >= 0 ? args[configIndex + 1] : args.find((arg) => arg.startsWith('--config='))?.slice('--config='.length);
  if (pinned === undefined) {
    return item(
      'mcp-config.config-path',
      'warn',
      'The server entry does not pin --config; it depends on QWEN_EXTERNAL_CONTEXT_CONFIG.',
      'Add "--config", "<absolute path>" to args so a .env file cannot switch the corpus.',
    );
  }
  if (!path.isAbsolute(pinned)) return item('mcp-config.config-path', 'fail', `--config ${printable(pinned)} is not an absolute path.`, 'Give --config an absolute path in args.');
  if (binding !== undefined && path.resolve(pinned) !== path.resolve(binding.configPath)) {
    return item(
      'mcp-config.config-path',
      'fail',
      `--config names ${printable(pinned)}, not the configuration checked here (${printable(binding.configPath)}).`,
      'Pin the configuration this deployment uses, or check the one the entry names.',
    );
  }
  return item('mcp-config.config-path', 'ok', `--config ${printable(pinned)} is absolute${binding === undefined ? '' : ' and is the configuration checked here'}.`);
}

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
  const parsed = read.value;
  const servers = isRecord(parsed) ? ownField(parsed, 'mcpServers') : undefined;
  const found = isRecord(servers) ? findServer(servers) : undefined;
  if (found === undefined) {
    return {
      items: [item('mcp-config', 'fail', `${shown}: no mcpServers entry runs "external-context serve".`, 'Add the entry of contracts/examples/managed-search-mcp.json (docs/design/examples.md §4).')],
    };
  }
  const [name, entry] = found;
  const shape = hostShapeItem('qwen', entry);
  const items = [item('mcp-config', 'ok', `${shown}: server "${printable(name)}" runs serve.`), ...(shape === undefined ? [] : [shape])];

  items.push(await executableItem(name, entry, self));
  items.push(serverArgsItem(stringArray(ownField(entry, 'args')) ?? [], stringArray(ownField(entry, 'excludeTools')), name));
  items.push(configPathItem(entry, binding));

  const expected = profileTools(binding);
  const include = stringArray(ownField(entry, 'includeTools'));
  if (include === undefined) {
    items.push(item('mcp-config.include-tools', 'fail', 'includeTools is missing.', `Set includeTools to ${JSON.stringify(expected ?? ['context_search'])}.`));
  } else if (expected !== undefined && (include.length !== expected.length || !expected.every((tool) => include.includes(tool)))) {
    items.push(
      item(
        'mcp-config.include-tools',
        'fail',
        `includeTools is ${printable(JSON.stringify(include))}, but this configuration exposes ${JSON.stringify(expected)}.`,
        `Set includeTools to ${JSON.stringify(expected)}.`,
      ),
    );
  } else if (include.some((tool) => tool !== 'context_search' && tool !== 'context_remember')) {
    items.push(
      item(
        'mcp-config.include-tools',
        'fail',
        `includeTools is ${printable(JSON.stringify(include))}, which names a tool the server does not have.`,
        'Keep only "context_search" (and "context_remember" when writes are enabled) in includeTools.',
      ),
    );
  } else if (expected === undefined) {
    items.push(
      item(
        'mcp-config.include-tools',
        'warn',
        `includeTools is ${printable(JSON.stringify(include))}; it cannot be compared with the tools the configuration exposes, since the configuration did not load.`,
        'Fix the configuration, then run check again.',
      ),
    );
  } else {
    items.push(item('mcp-config.include-tools', 'ok', `includeTools is ${printable(JSON.stringify(include))}.`));
  }

  if (ownField(entry, 'alwaysLoadTools') === true) {
    items.push(item('mcp-config.always-load-tools', 'ok', 'alwaysLoadTools is true.'));
  } else {
    const writes = binding?.writeEnabled === true;
    items.push(
      item(
        'mcp-config.always-load-tools',
        writes ? 'fail' : 'warn',
        'alwaysLoadTools is not true, so Qwen Code may defer the tools and hide their descriptions from the model.',
        'Set "alwaysLoadTools": true in the server entry.',
      ),
    );
  }
  return { items, serverName: name };
}

/** Every command Hook entry of one event: its matcher and hook objects. */
function hookEntries(hooks: Record<string, unknown>, event: string): { matcher: unknown; hook: Record<string, unknown> }[] {
  const groups = ownField(hooks, event);
  if (!Array.isArray(groups)) return [];
  return groups.filter(isRecord).flatMap((group) => {
    const list = ownField(group, 'hooks');
    return Array.isArray(list) ? list.filter(isRecord).map((hook) => ({ matcher: ownField(group, 'matcher'), hook })) : [];
  });
}

/** What a Hook item compares the command with: the subcommand, and its server name or configuration. */
export interface HookExpectation {
  readonly id: string;
  readonly event: string;
  readonly subcommand: 'auto-recall' | 'write-confirmation';
  /** The exact tool name the matcher must be; undefined when any matcher is accepted. */
  readonly matcher: string | undefined;
  /** The server key `--server-name` must give (write-confirmation). */
  readonly serverName?: string;
  /** The configuration being checked, which `--config` must name when present (auto-recall). */
  readonly configPath?: string | undefined;
  /** The host whose settings these are (default `qwen`): its `--host` value and timeout. */
  readonly host?: HookHost;
}

const HOST_NAMES: Readonly<Record<HookHost, string>> = { qwen: 'Qwen Code', claude: 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex' };

/**
 * Why a Hook command does not do what the item checks (docs/design/config.md §11): not exactly
 * a command `hook settings` prints, another subcommand or host, another server name, or a pinned
 * `--config` other than the configuration checked here. Undefined when it does.
 */
function hookCommandProblem(command: string, shell: HookShell, expected: HookExpectation): string | undefined {
  const parsed = parseHookCommand(command, shell);
  if (parsed === undefined) return 'is not exactly a command external-context hook settings prints (one exec of the executable with quoted arguments, nothing before or after it)';
  const { request } = parsed;
  if ((request.kind === 'write' ? 'write-confirmation' : 'auto-recall') !== expected.subcommand)
    return `runs hook ${request.kind === 'write' ? 'write-confirmation' : 'auto-recall'}, not hook ${expected.subcommand}`;
  const host = expected.host ?? DEFAULT_HOOK_HOST;
  if ((request.host ?? DEFAULT_HOOK_HOST) !== host) {
    return request.host === undefined
      ? `answers in the qwen format (no --host), not ${HOST_NAMES[host]}'s (--host ${host})`
      : `answers in the ${request.host} format (--host ${request.host}), not ${HOST_NAMES[host]}'s`;
  }
  if (expected.serverName !== undefined && (request.serverName ?? DEFAULT_SERVER_NAME) !== expected.serverName) {
    return `names the server "${printable(request.serverName ?? DEFAULT_SERVER_NAME)}", not "${printable(expected.serverName)}", so it lets the real tool through unconfirmed`;
  }
  if (expected.configPath !== undefined && request.config !== undefined && path.resolve(request.config) !== path.resolve(expected.configPath)) {
    return `pins --config ${printable(request.config)}, not the configuration checked here (${printable(expected.configPath)})`;
  }
  return undefined;
}

/**
 * One Hook's item: every entry of the event whose command mentions `hook <subcommand>` must be
 * exactly a command `hook settings` prints for this deployment ({@link hookCommandProblem}),
 * from an administrator-owned absolute executable (and bundle), with the right matcher and
 * timeout 8000.
 */
export async function hookItem(hooks: Record<string, unknown>, expected: HookExpectation, self: SelfExecutable): Promise<CheckItem> {
  const { id, event, subcommand, matcher } = expected;
  const host = expected.host ?? DEFAULT_HOOK_HOST;
  const timeout = HOOK_HOST_FACTS[host].timeout;
  const fragment = `external-context hook settings ${subcommand === 'auto-recall' ? 'auto-recall' : 'write'}${host === DEFAULT_HOOK_HOST ? '' : ` --host ${host}`}`;
  const found = hookEntries(hooks, event).filter(({ hook }) => typeof ownField(hook, 'command') === 'string' && (ownField(hook, 'command') as string).includes(` hook ${subcommand}`));
  if (found.length === 0) return item(id, 'fail', `No ${event} Hook runs "hook ${subcommand}".`, `Merge the output of ${fragment} into the system settings.`);
  let executable = '';
  for (const entry of found) {
    const command = ownField(entry.hook, 'command') as string;
    const shell: HookShell = ownField(entry.hook, 'shell') === 'powershell' ? 'powershell' : 'posix';
    const problem = hookCommandProblem(command, shell, expected);
    if (problem !== undefined) return item(id, 'fail', `The ${event} Hook command ${problem}.`, `Use the command ${fragment} prints for this deployment.`);
    const launcher = parseHookCommand(command, shell)!.launcher;
    const files = launcher.kind === 'executable' ? [launcher.path] : [launcher.runtimePath, launcher.bundlePath];
    for (const file of files) {
      const reason = await checkAdminFile(file);
      if (reason !== undefined) return item(id, 'fail', `The ${event} Hook executable ${printable(file)} ${reason}.`, 'Point the Hook at the installed external-context executable.');
    }
    if (matcher !== undefined && entry.matcher !== matcher) {
      return item(
        id,
        'fail',
        `The ${event} Hook matcher is ${printable(JSON.stringify(entry.matcher ?? null))}, not "${matcher}".`,
        `Set the matcher to "${matcher}" (any other matcher is read as a regular expression).`,
      );
    }
    if (ownField(entry.hook, 'timeout') !== timeout) {
      return item(
        id,
        'fail',
        `The ${event} Hook timeout is ${printable(JSON.stringify(ownField(entry.hook, 'timeout') ?? null))}, not ${timeout}.`,
        `Set "timeout": ${timeout} (docs/design/hooks.md §5, §6.3).`,
      );
    }
    executable ||= files[0]!;
  }
  return (await otherExecutable(id, `The ${event} Hook`, executable, self)) ?? item(id, 'ok', `The ${event} Hook runs ${printable(executable)} hook ${subcommand} with timeout ${timeout}.`);
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
  const parsed = read.value;
  if (!isRecord(parsed)) return [item('settings', 'fail', `${shown}: not a JSON object.`, 'Start from contracts/examples/managed-search-system-settings.json.')];
  const items = [item('settings', 'ok', `${shown}: readable JSON object.`)];
  const search = `mcp__${serverName}__context_search`;
  const remember = `mcp__${serverName}__context_remember`;
  const permissions = isRecord(ownField(parsed, 'permissions')) ? (ownField(parsed, 'permissions') as Record<string, unknown>) : {};
  const allow = stringArray(ownField(permissions, 'allow')) ?? [];
  const ask = stringArray(ownField(permissions, 'ask')) ?? [];
  const hooks = isRecord(ownField(parsed, 'hooks')) ? (ownField(parsed, 'hooks') as Record<string, unknown>) : {};

  if (binding === undefined || binding.version === 1) {
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
    items.push(
      problems.length === 0
        ? item('settings.permissions', 'ok', `The permission rules name ${binding?.writeEnabled === true ? `${search} (allow) and ${remember} (ask)` : search}.`)
        : item(
            'settings.permissions',
            'fail',
            `${problems.join('; ')}.`,
            `${fixes.join('; ')}.`.replace(/^./u, (first) => first.toUpperCase()),
          ),
    );
    if (binding?.writeEnabled === true) {
      items.push(await hookItem(hooks, { id: 'settings.write-hook', event: 'PreToolUse', subcommand: 'write-confirmation', matcher: remember, serverName }, self));
      items.push(otherWriteHooksItem(hooks, 'PreToolUse', remember));
    }
    items.push(toolRulesItem(parsed, { host: 'qwen', serverName, tools: profileTools(binding) ?? ['context_search'] }));
  } else {
    items.push(await hookItem(hooks, { id: 'settings.auto-recall-hook', event: 'UserPromptSubmit', subcommand: 'auto-recall', matcher: undefined, configPath: binding.configPath }, self));
  }
  if (ownField(parsed, 'disableAllHooks') === true) {
    items.push(item('settings.hooks-enabled', 'fail', 'disableAllHooks is true, so no Hook runs.', 'Set "disableAllHooks": false in the system settings.'));
  }
  const slash = isRecord(ownField(parsed, 'slashCommands')) ? stringArray(ownField(ownField(parsed, 'slashCommands') as Record<string, unknown>, 'disabled')) : undefined;
  items.push(
    slash?.includes('cd') === true
      ? item('settings.cd', 'ok', '/cd is disabled.')
      : item('settings.cd', 'warn', '/cd is not disabled, so a session can move away from the repository the corpus belongs to.', 'Add "cd" to slashCommands.disabled.'),
  );
  return items;
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
