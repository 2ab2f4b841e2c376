// `external-context hook …`: flag handling for the two Hook runs and `hook settings`, each
// loaded from hooks/ with import() so no other command's code (least of all the MCP SDK) is
// evaluated. Hook runs turn every argument problem into their handled answer, never exit 2
// (docs/design/hooks.md §1); `hook settings` has ordinary usage errors (docs/design/hooks.md §5).
import type { ConfigFlag } from '../config/locate.ts';
import type { AutoRecallArguments } from '../hooks/auto-recall.ts';
import type { HookArguments } from '../hooks/hook-io.ts';
import { DEFAULT_HOOK_HOST, type HookHost, isHookHost } from '../hooks/hosts.ts';
import type { HookLauncher, HookSettingsRequest } from '../hooks/settings.ts';
import type { WriteConfirmationArguments } from '../hooks/write-confirmation.ts';
import { RUNTIME } from '../runtime/runtime.ts';
import { EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { AUTO_RECALL_HELP, HOOK_HELP, SETTINGS_HELP, WRITE_CONFIRMATION_HELP } from './hook-help.ts';
import type { Io } from './io.ts';
import { UsageError } from './usage-error.ts';

/** `hook --help`. */
export const help = HOOK_HELP;

const SETTINGS_COMMAND = 'hook settings';

/**
 * Runs `hook <auto-recall|write-confirmation|settings>`.
 *
 * @returns Hook runs: 0, or 1 when stdout cannot be written. `hook settings`: 0.
 * @throws {UsageError} For `hook settings` usage errors and an unknown or missing subcommand.
 */
export async function run(args: string[], io: Io): Promise<number> {
  const [name, ...rest] = args;
  switch (name) {
    case 'auto-recall': {
      // A Hook run's stdout is the protocol: help goes to stderr, stdout gets the no-op answer.
      if (wantsHelp(rest)) return printHookHelp(io, AUTO_RECALL_HELP, '{}');
      const { runAutoRecall } = await import('../hooks/auto-recall.ts');
      const { isAbsolute } = await import('node:path');
      const log = extractLogFlag(rest, isAbsolute);
      return runAutoRecall(log.valid ? parseAutoRecallArgs(log.rest, isAbsolute) : INVALID, io, log.valid ? log.path : undefined);
    }
    case 'write-confirmation': {
      const { runWriteConfirmation } = await import('../hooks/write-confirmation.ts');
      // node:path only when there is a --log path to check (issue 18: the module costs every run).
      const isAbsolute = rest.some(isLogFlag) ? (await import('node:path')).isAbsolute : NO_PATHS;
      const log = extractLogFlag(rest, isAbsolute);
      // A bad --log still answers in the --host shape when that flag is valid.
      const named = hostNamedIn(rest);
      const invalid = named === undefined ? INVALID : { valid: false as const, host: named };
      if (wantsHelp(rest)) {
        // Never an allow by omission: a host that runs `--help` as the Hook gets the help on
        // stderr and the invalid-request deny (in its --host shape) on stdout.
        writeHookHelp(io, WRITE_CONFIRMATION_HELP);
        return runWriteConfirmation(invalid, io);
      }
      return runWriteConfirmation(log.valid ? parseWriteConfirmationArgs(log.rest) : invalid, io, log.valid ? log.path : undefined);
    }
    case 'settings':
      if (wantsHelp(rest)) return printHelp(io, SETTINGS_HELP);
      return runSettings(rest, io);
    case '--help':
    case '-h':
      return printHelp(io, HOOK_HELP);
    default:
      throw new UsageError('Hook subcommand must be auto-recall, write-confirmation or settings.', 'hook');
  }
}

const INVALID = { valid: false } as const;

/** `path.isAbsolute` of node:path, passed in so the module loads only where a path is checked. */
type IsAbsolute = (path: string) => boolean;

/** Stands in for `path.isAbsolute` where the command line has no path flag to check. */
const NO_PATHS: IsAbsolute = () => false;

function isLogFlag(arg: string): boolean {
  return arg === '--log' || arg.startsWith('--log=');
}

/** The Hook command line without `--log`, and the log file; invalid for a second, missing or relative `--log`. */
type LogFlag = { readonly valid: true; readonly rest: string[]; readonly path: string | undefined } | { readonly valid: false };

/**
 * Takes `--log <abs path>` (or `--log=<abs path>`) out of a Hook command line, so a bad
 * `--config` or `--server-name` is still logged (docs/design/hooks.md §7).
 */
export function extractLogFlag(args: string[], isAbsolute: IsAbsolute): LogFlag {
  const rest: string[] = [];
  let logPath: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      rest.push(...args.slice(index));
      break;
    }
    let value: string | undefined;
    if (arg === '--log') value = args[++index];
    else if (arg.startsWith('--log=')) value = arg.slice('--log='.length);
    else {
      rest.push(arg);
      continue;
    }
    if (logPath !== undefined || value === undefined || !isAbsolute(value)) return INVALID;
    logPath = value;
  }
  return { valid: true, rest, path: logPath };
}

/**
 * Optional string flags, strictly, with `parseArgs`'s strict rules (`--flag value`,
 * `--flag=value`, the last one wins, a value that starts with `-` is ambiguous, nothing after
 * a `--` marker): anything else is invalid. Written out rather than `node:util` `parseArgs`,
 * whose module costs a compiled Bun executable about 2.5 ms CPU of start-up on every Hook run
 * (issue 18).
 */
function parseHookFlags<F extends string>(args: readonly string[], flags: readonly F[]): HookArguments<Partial<Record<F, string>>> {
  const parsed: Partial<Record<F, string>> = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') return index === args.length - 1 ? { valid: true, value: parsed } : { valid: false };
    const flag = flags.find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (flag === undefined) return { valid: false };
    if (arg.length > flag.length + 2) {
      parsed[flag] = arg.slice(flag.length + 3);
    } else {
      const next = args[index + 1];
      if (next === undefined || next.startsWith('-')) return { valid: false };
      parsed[flag] = next;
      index++;
    }
  }
  return { valid: true, value: parsed };
}

/** The `--host` value, or undefined when it names no supported host. */
function hostOf(value: string | undefined): HookHost | undefined {
  if (value === undefined) return DEFAULT_HOOK_HOST;
  return isHookHost(value) ? value : undefined;
}

/**
 * `hook auto-recall` arguments: only `--config <abs path>` and `--host <host>`. An unknown
 * flag, a stray argument, a missing, empty or relative `--config` value or an unknown host is
 * invalid (the Hook answers `{}`).
 */
export function parseAutoRecallArgs(args: string[], isAbsolute: IsAbsolute): HookArguments<AutoRecallArguments> {
  const parsed = parseHookFlags(args, ['config', 'host']);
  if (!parsed.valid) return parsed;
  const { config } = parsed.value;
  const host = hostOf(parsed.value.host);
  if (host === undefined || (config !== undefined && !isAbsolute(config))) return { valid: false };
  return { valid: true, value: { config, host } };
}

/**
 * `hook write-confirmation` arguments: only `--server-name <key>` and `--host <host>`; an
 * unknown flag, a stray argument, a missing value or an unknown host is invalid. The Hook itself
 * checks the key's pattern. When invalid, `host` still carries a valid `--host` (if one can be
 * read), so the invalid-request deny is written in that host's shape.
 */
export function parseWriteConfirmationArgs(args: string[]): HookArguments<WriteConfirmationArguments> & { readonly host?: HookHost } {
  const parsed = parseHookFlags(args, ['server-name', 'host']);
  if (!parsed.valid) {
    const named = hostNamedIn(args);
    return named === undefined ? { valid: false } : { valid: false, host: named };
  }
  const host = hostOf(parsed.value.host);
  if (host === undefined) return { valid: false };
  return { valid: true, value: { serverName: parsed.value['server-name'] ?? 'external-context', host } };
}

/** A supported host named by `--host <host>` or `--host=<host>` anywhere in `args`, else undefined. */
function hostNamedIn(args: string[]): HookHost | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const value = arg === '--host' ? args[index + 1] : arg.startsWith('--host=') ? arg.slice('--host='.length) : undefined;
    if (value !== undefined && isHookHost(value)) return value;
  }
  return undefined;
}

async function runSettings(args: string[], io: Io): Promise<number> {
  // Loaded here: node:util (parseArgs) stays off the Hook runs' start-up (issue 18).
  const { parseFlags } = await import('./parse-flags.ts');
  const { values, positionals } = parseFlags(
    args,
    {
      shell: { type: 'string' },
      executable: { type: 'string' },
      config: { type: 'string' },
      'server-name': { type: 'string' },
      host: { type: 'string' },
      log: { type: 'string' },
    },
    SETTINGS_COMMAND,
    true,
  );
  const [kind, ...extra] = positionals;
  if ((kind !== 'auto-recall' && kind !== 'write') || extra.length > 0) {
    throw new UsageError('Hook settings needs exactly one of auto-recall or write.', SETTINGS_COMMAND);
  }
  const shell = values['shell'] ?? 'posix';
  if (shell !== 'posix' && shell !== 'powershell') {
    throw new UsageError('Option --shell must be posix or powershell.', SETTINGS_COMMAND);
  }
  const host = hostOf(values['host']);
  if (host === undefined) {
    throw new UsageError('Option --host must be qwen, claude, gemini or codex.', SETTINGS_COMMAND);
  }
  const config = values['config'];
  const serverName = values['server-name'];
  const executable = values['executable'];
  const log = values['log'];
  if (config !== undefined && kind !== 'auto-recall') {
    throw new UsageError('Option --config applies only to hook settings auto-recall.', SETTINGS_COMMAND);
  }
  if (serverName !== undefined && kind !== 'write') {
    throw new UsageError('Option --server-name applies only to hook settings write.', SETTINGS_COMMAND);
  }
  const settings = await import('../hooks/settings.ts');
  const { SERVER_NAME_PATTERN } = await import('../hooks/server-name.ts');
  if (serverName !== undefined && !SERVER_NAME_PATTERN.test(serverName)) {
    throw new UsageError('Option --server-name must match ^[A-Za-z0-9_-]{1,40}$.', SETTINGS_COMMAND);
  }
  for (const [flag, value] of [
    ['--executable', executable],
    ['--config', config],
    ['--log', log],
  ] as const) {
    if (value !== undefined && !settings.isAbsoluteForShell(shell, value)) {
      throw new UsageError(`Option ${flag} needs an absolute path for the ${shell} shell.`, SETTINGS_COMMAND);
    }
  }
  const request: HookSettingsRequest = { kind, shell, config, serverName, host, log };
  const launcher = executable === undefined ? runningLauncher(io, (await import('node:path')).resolve) : ({ kind: 'executable', path: executable } as const);
  io.stdout.write(settings.hookSettingsFragment(request, launcher));
  return EXIT_OK;
}

/**
 * How the running product is started: the standalone executable itself, or, from the ESM
 * bundle, the runtime plus the bundle (docs/design/hooks.md §5, "Rules").
 */
function runningLauncher(io: Io, resolve: (...paths: string[]) => string): HookLauncher {
  if (io.scriptPath === undefined) return { kind: 'executable', path: io.execPath };
  const bundlePath = resolve(io.cwd, io.scriptPath);
  return RUNTIME === 'deno' ? { kind: 'deno-bundle', runtimePath: io.execPath, bundlePath } : { kind: 'node-bundle', runtimePath: io.execPath, bundlePath };
}

/**
 * `--help` on a Hook run (docs/design/hooks.md §1): the usage text on stderr, and on stdout the
 * answer the Hook gives a bad command line, without a trailing newline, as every Hook answer.
 *
 * @returns 0.
 */
function printHookHelp(io: Io, text: string, answer: string): number {
  writeHookHelp(io, text);
  io.stdout.write(answer);
  return 0;
}

/** Writes a Hook run's usage text to stderr (stdout is the protocol). */
function writeHookHelp(io: Io, text: string): void {
  io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}
