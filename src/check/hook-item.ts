// One Hook's `check` item (docs/design/config.md §11): the command Hooks of one event in a host's
// settings, each compared with the command `hook settings` prints for this deployment.
import path from 'node:path';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost } from '../hooks/hosts.ts';
import { type HookShell, parseHookCommand } from '../hooks/settings.ts';
import { DEFAULT_SERVER_NAME } from '../hooks/server-name.ts';
import { checkAdminFile } from '../launch/file-checks.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { ownField } from '../util/own-field.ts';
import { type Hook, HookGroupSchema, HookSchema, readShape } from './managed-file-schemas.ts';
import { otherExecutable, type SelfExecutable } from './server-entry.ts';

/** Every command Hook of one event that mentions `hook <subcommand>`: its group's matcher, the Hook and its command. */
function hookEntries(hooks: Record<string, unknown>, event: string, subcommand: string): { matcher: unknown; hook: Hook; command: string }[] {
  // The event names are the host's keys, read as own fields; every group and Hook through its schema.
  const groups = ownField(hooks, event);
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((raw) => {
    const group = readShape(HookGroupSchema, raw);
    return (group?.hooks ?? []).flatMap((rawHook) => {
      const hook = readShape(HookSchema, rawHook);
      const command = hook?.command;
      return hook === undefined || command === undefined || !command.includes(` hook ${subcommand}`) ? [] : [{ matcher: group?.matcher, hook, command }];
    });
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
  const found = hookEntries(hooks, event, subcommand);
  if (found.length === 0) return item(id, 'fail', `No ${event} Hook runs "hook ${subcommand}".`, `Merge the output of ${fragment} into the system settings.`);
  let executable = '';
  for (const entry of found) {
    const command = entry.command;
    const shell: HookShell = entry.hook.shell === 'powershell' ? 'powershell' : 'posix';
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
    if (entry.hook.timeout !== timeout) {
      return item(id, 'fail', `The ${event} Hook timeout is ${printable(JSON.stringify(entry.hook.timeout ?? null))}, not ${timeout}.`, `Set "timeout": ${timeout} (docs/design/hooks.md §5, §6.3).`);
    }
    executable ||= files[0]!;
  }
  return (await otherExecutable(id, `The ${event} Hook`, executable, self)) ?? item(id, 'ok', `The ${event} Hook runs ${printable(executable)} hook ${subcommand} with timeout ${timeout}.`);
}
