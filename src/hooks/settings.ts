// `hook settings`: the settings fragment for one Hook in one host's format, exactly as
// docs/design/hooks.md §5 (Qwen Code) and §6.3 (Claude Code, Gemini CLI, Codex) give it: quoting per
// target shell, the timeout in the host's unit, names, status messages, bundle launch forms.
import path from 'node:path';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost, isHookHost } from './hosts.ts';
import { DEFAULT_SERVER_NAME } from './server-name.ts';

/** The two fragments. */
export type HookSettingsKind = 'auto-recall' | 'write';
/** The shell Qwen runs the command with. */
export type HookShell = 'posix' | 'powershell';

/** Qwen's Hook timeout: 8 s under 0.24.4's legacy-milliseconds rule, 8000 ms on older builds. */
export const HOOK_TIMEOUT_SETTING = HOOK_HOST_FACTS.qwen.timeout;

/** What to generate. */
export interface HookSettingsRequest {
  readonly kind: HookSettingsKind;
  readonly shell: HookShell;
  /** Absolute path (under the target shell's rules); only `auto-recall`. */
  readonly config?: string | undefined;
  /** Validated server key; only `write` (default `external-context`). */
  readonly serverName?: string | undefined;
  /** The coding agent whose settings format to print (default `qwen`). */
  readonly host?: HookHost | undefined;
  /** Absolute Hook log file (docs/design/hooks.md §7), either kind; undefined for no log. */
  readonly log?: string | undefined;
}

/** How the product itself is started: an executable, or a runtime plus the ESM bundle. */
export type HookLauncher =
  | { readonly kind: 'executable'; readonly path: string }
  | { readonly kind: 'node-bundle'; readonly runtimePath: string; readonly bundlePath: string }
  | { readonly kind: 'deno-bundle'; readonly runtimePath: string; readonly bundlePath: string };

/** The Deno permissions the bundle needs for the Hooks (docs/design/README.md, "Deno permissions"). */
const DENO_RUN_ARGUMENTS = ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net'] as const;

/**
 * Whether a path is absolute for the target shell, whatever the host: Windows rules for
 * PowerShell, POSIX rules otherwise (docs/design/hooks.md §5).
 */
export function isAbsoluteForShell(shell: HookShell, value: string): boolean {
  return shell === 'powershell' ? path.win32.isAbsolute(value) : path.posix.isAbsolute(value);
}

/** Single-quotes one word for the shell: POSIX `'` → `'\''`, PowerShell `'` → `''`. */
export function quoteForShell(shell: HookShell, word: string): string {
  return shell === 'powershell' ? `'${word.replaceAll("'", "''")}'` : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Whether a `--log` path can be granted to a Deno Hook: Deno reads `--allow-write=<list>` as
 * comma-separated paths, so `/var/log/a,b` would grant `/var/log/a` and a relative `b` (in
 * the user's repository) instead of the log (issue 25 §6.5).
 *
 * @returns False for a Deno launch and a path with a comma; true otherwise.
 * @see docs/design/hooks.md §5, "Rules"
 */
export function logPathGrantable(launcher: HookLauncher, logPath: string | undefined): boolean {
  return launcher.kind !== 'deno-bundle' || logPath === undefined || !logPath.includes(',');
}

function launchWords(launcher: HookLauncher, shell: HookShell, logPath: string | undefined): string[] {
  const quote = (word: string): string => quoteForShell(shell, word);
  switch (launcher.kind) {
    case 'executable':
      return [quote(launcher.path)];
    case 'node-bundle':
      return [quote(launcher.runtimePath), quote(launcher.bundlePath)];
    case 'deno-bundle':
      // Deno's update check would go out on every Hook run (DENO_NO_UPDATE_CHECK=1 turns it
      // off); the log is the one file a Hook writes: Deno gets write access to it alone.
      return [
        ...(shell === 'powershell' ? [] : ['env', 'DENO_NO_UPDATE_CHECK=1']),
        quote(launcher.runtimePath),
        ...DENO_RUN_ARGUMENTS,
        ...(logPath === undefined ? [] : [quote(`--allow-write=${logPath}`)]),
        quote(launcher.bundlePath),
      ];
  }
}

/**
 * The Hook command line: POSIX `exec '<exe>' hook …`, PowerShell `& '<exe>' hook …`. A Deno
 * launch sets DENO_NO_UPDATE_CHECK=1: POSIX `exec env DENO_NO_UPDATE_CHECK=1 '<deno>' run …`,
 * PowerShell `$env:DENO_NO_UPDATE_CHECK='1'; & '<deno>' run …`.
 *
 * @see docs/design/hooks.md §5, "Rules"
 */
export function hookCommand(request: HookSettingsRequest, launcher: HookLauncher): string {
  const quote = (word: string): string => quoteForShell(request.shell, word);
  const denoPrefix = launcher.kind === 'deno-bundle' && request.shell === 'powershell' ? ["$env:DENO_NO_UPDATE_CHECK='1';"] : [];
  const words = [...denoPrefix, request.shell === 'powershell' ? '&' : 'exec', ...launchWords(launcher, request.shell, request.log), 'hook'];
  if (request.kind === 'auto-recall') {
    words.push('auto-recall');
    if (request.config !== undefined) words.push('--config', quote(request.config));
  } else {
    words.push('write-confirmation');
    const serverName = request.serverName ?? DEFAULT_SERVER_NAME;
    if (serverName !== DEFAULT_SERVER_NAME) words.push('--server-name', quote(serverName));
  }
  const host = request.host ?? DEFAULT_HOOK_HOST;
  if (host !== DEFAULT_HOOK_HOST) words.push('--host', host);
  if (request.log !== undefined) words.push('--log', quote(request.log));
  return words.join(' ');
}

/** A Hook command read back into what {@link hookCommand} was given for it. */
export interface ParsedHookCommand {
  readonly request: HookSettingsRequest;
  readonly launcher: HookLauncher;
}

/** One word of a Hook command: its text, and whether it was single-quoted. */
interface CommandWord {
  readonly text: string;
  readonly quoted: boolean;
}

/** The flags {@link hookCommand} prints after `hook <subcommand>`, each with one value. */
const HOOK_COMMAND_FLAGS = new Set(['--config', '--server-name', '--host', '--log']);

/** The PowerShell statement that precedes a Deno launch (see {@link hookCommand}). */
const POWERSHELL_DENO_PREFIX = "$env:DENO_NO_UPDATE_CHECK='1'; ";

/**
 * Splits a command into words separated by single spaces: a single-quoted word (quotes
 * escaped as {@link quoteForShell} does) or a bare word of letters, digits and `_ - . / = : @ %
 * + ,`. Anything else (`;`, `&&`, `|`, `#`, `$`, double quotes, redirections, tabs) fails.
 */
function splitCommandWords(shell: HookShell, command: string): CommandWord[] | undefined {
  const quoted = shell === 'powershell' ? "'((?:[^']|'')*)'" : "'((?:[^']|'\\\\'')*)'";
  const word = new RegExp(`(?:${quoted}|([A-Za-z0-9_\\-./=:@%+,&]+))(?: |$)`, 'uy');
  const words: CommandWord[] = [];
  while (word.lastIndex < command.length) {
    const match = word.exec(command);
    if (match === null) return undefined;
    if (match[1] !== undefined) words.push({ text: shell === 'powershell' ? match[1].replaceAll("''", "'") : match[1].replaceAll("'\\''", "'"), quoted: true });
    else words.push({ text: match[2]!, quoted: false });
  }
  return command.endsWith(' ') ? undefined : words;
}

/**
 * Reads a Hook command back into the request and launcher {@link hookCommand} would need to
 * print it, and accepts it only when printing those gives back exactly `command`: one
 * `exec`/`&` of the executable (or a runtime and the bundle) with `hook <subcommand>` and its
 * own flags, nothing before or after (no second command, comment or redirection).
 *
 * @param command The `command` of a Hook entry.
 * @param shell The shell the host runs it with.
 * @returns The request (kind, shell, config, server name, host, log) and launcher, or
 *   undefined when the command is not one `hook settings` prints.
 * @see docs/design/config.md §11
 */
export function parseHookCommand(command: string, shell: HookShell): ParsedHookCommand | undefined {
  const denoPowerShell = shell === 'powershell' && command.startsWith(POWERSHELL_DENO_PREFIX);
  const words = splitCommandWords(shell, denoPowerShell ? command.slice(POWERSHELL_DENO_PREFIX.length) : command);
  if (words === undefined || words[0]?.quoted !== false || words[0].text !== (shell === 'powershell' ? '&' : 'exec')) return undefined;
  const hookAt = words.findIndex((word) => !word.quoted && word.text === 'hook');
  if (hookAt < 2) return undefined;
  const launch = words.slice(1, hookAt);
  const paths = launch.filter((word) => word.quoted && !word.text.startsWith('--allow-write='));
  let launcher: HookLauncher;
  if (launch.some((word) => !word.quoted && word.text === 'run')) {
    if (paths.length !== 2) return undefined;
    launcher = { kind: 'deno-bundle', runtimePath: paths[0]!.text, bundlePath: paths[1]!.text };
  } else if (launch.length === 1 && paths.length === 1) {
    launcher = { kind: 'executable', path: paths[0]!.text };
  } else if (launch.length === 2 && paths.length === 2) {
    launcher = { kind: 'node-bundle', runtimePath: paths[0]!.text, bundlePath: paths[1]!.text };
  } else {
    return undefined;
  }
  const subcommand = words[hookAt + 1];
  if (subcommand?.quoted !== false || (subcommand.text !== 'auto-recall' && subcommand.text !== 'write-confirmation')) return undefined;
  const flags = new Map<string, string>();
  for (let at = hookAt + 2; at < words.length; at += 2) {
    const [name, value] = [words[at]!, words[at + 1]];
    if (name.quoted || !HOOK_COMMAND_FLAGS.has(name.text) || value === undefined || flags.has(name.text)) return undefined;
    flags.set(name.text, value.text);
  }
  const host = flags.get('--host');
  if (host !== undefined && !isHookHost(host)) return undefined;
  // A comma in a Deno Hook's log path grants write access to another path (logPathGrantable).
  if (!logPathGrantable(launcher, flags.get('--log'))) return undefined;
  const request: HookSettingsRequest = {
    kind: subcommand.text === 'auto-recall' ? 'auto-recall' : 'write',
    shell,
    config: flags.get('--config'),
    serverName: flags.get('--server-name'),
    host,
    log: flags.get('--log'),
  };
  return hookCommand(request, launcher) === command ? { request, launcher } : undefined;
}

/**
 * The settings fragment `{"hooks": {...}}` for the host's managed settings.
 *
 * Qwen Code (docs/design/hooks.md §5): `matcher` `*` or the exact tool name, `timeout` 8000, `name`
 * and `statusMessage`. Claude Code and Codex (§6.3): no matcher for `UserPromptSubmit`, the
 * anchored regular expression `^<tool>$` for `PreToolUse`, `timeout` 8 (seconds),
 * `statusMessage`; Claude Code also takes `"shell": "powershell"`. Gemini CLI (§6.3): events
 * `BeforeAgent` and `BeforeTool`, `matcher` `*` or `^<tool>$`, `name`, `timeout` 8000
 * (milliseconds) and `description`.
 *
 * @param request Kind, shell, host and options, already validated.
 * @param launcher How the Hook command starts the product.
 * @returns JSON with 2-space indentation and a trailing newline.
 * @see docs/design/hooks.md §5, §6.3
 */
export function hookSettingsFragment(request: HookSettingsRequest, launcher: HookLauncher): string {
  const write = request.kind === 'write';
  const host = request.host ?? DEFAULT_HOOK_HOST;
  const facts = HOOK_HOST_FACTS[host];
  const name = write ? 'external-context-memory-write-confirmation' : 'external-context-auto-recall';
  const status = write ? 'Confirming external memory write' : 'Retrieving external context';
  const command = hookCommand(request, launcher);
  const toolName = facts.rememberToolName(request.serverName ?? DEFAULT_SERVER_NAME);
  const event = write ? facts.toolEvent : facts.promptEvent;
  const shellKey = request.shell === 'powershell' && (host === 'qwen' || host === 'claude') ? { shell: 'powershell' } : {};
  let group: Record<string, unknown>;
  switch (host) {
    case 'qwen':
      // The matcher is the exact tool name: Qwen reads any other matcher as an unanchored regex.
      group = { matcher: write ? toolName : '*', hooks: [{ type: 'command', command, ...shellKey, timeout: facts.timeout, name, statusMessage: status }] };
      break;
    case 'gemini':
      group = { matcher: write ? `^${toolName}$` : '*', hooks: [{ type: 'command', command, name, timeout: facts.timeout, description: status }] };
      break;
    case 'claude':
    case 'codex': {
      const entry = { type: 'command', command, ...shellKey, timeout: facts.timeout, statusMessage: status };
      group = write ? { matcher: `^${toolName}$`, hooks: [entry] } : { hooks: [entry] };
      break;
    }
  }
  return `${JSON.stringify({ hooks: { [event]: [group] } }, null, 2)}\n`;
}
