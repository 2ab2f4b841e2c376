// The server entry of a host's MCP configuration, as `check` finds and compares it
// (docs/design/config.md §11): which entry runs `serve`, its executable and its pinned `--config`.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Binding } from '../config/binding.ts';
import { checkAdminFile } from '../launch/file-checks.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { isRecord, readShape, ServerEntrySchema } from './managed-file-schemas.ts';

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

/** The tools a profile exposes: `context_search`, plus `context_remember` when writes are enabled. */
export function profileTools(binding: Binding | undefined): string[] | undefined {
  if (binding === undefined) return undefined;
  return binding.writeEnabled ? ['context_search', 'context_remember'] : ['context_search'];
}

/** The server entry that runs `serve`: the one named `external-context`, else the only one running `serve`. */
export function findServer(servers: Record<string, unknown>): [string, Record<string, unknown>] | undefined {
  const entries = Object.entries(servers).filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]));
  const serving = entries.filter(([, entry]) => readShape(ServerEntrySchema, entry)?.args?.includes('serve') === true);
  return serving.find(([name]) => name === 'external-context') ?? (serving.length === 1 ? serving[0] : undefined) ?? entries.find(([name]) => name === 'external-context');
}

/** The `mcp-config.executable` item: the entry's command is an administrator-owned absolute file. */
export async function executableItem(name: string, entry: Record<string, unknown>, self: SelfExecutable): Promise<CheckItem> {
  const command = readShape(ServerEntrySchema, entry)?.command;
  if (command === undefined) {
    return item('mcp-config.executable', 'fail', `mcpServers.${printable(name)}.command is missing.`, 'Set command to the absolute path of the external-context executable.');
  }
  const reason = await checkAdminFile(command);
  return reason === undefined
    ? ((await otherExecutable('mcp-config.executable', 'The server entry', command, self)) ?? item('mcp-config.executable', 'ok', `${printable(command)} exists and other users cannot write it.`))
    : item('mcp-config.executable', 'fail', `mcpServers.${printable(name)}.command ${reason}.`, 'Install the executable at an absolute path only the administrator can write, and name it in command.');
}

/** The `mcp-config.config-path` item: `--config` pinned to the configuration checked here. */
export function configPathItem(entry: Record<string, unknown>, binding: Binding | undefined): CheckItem {
  const args = readShape(ServerEntrySchema, entry)?.args ?? [];
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
