// `hook settings`: the Qwen Code settings fragment for one Hook, exactly as docs/design/hooks.md §5 gives
// it (quoting per target shell, timeout 8000, names, status messages, bundle launch forms).
import path from 'node:path';
import { DEFAULT_SERVER_NAME, rememberToolName } from './server-name.ts';

/** The two fragments. */
export type HookSettingsKind = 'auto-recall' | 'write';
/** The shell Qwen runs the command with. */
export type HookShell = 'posix' | 'powershell';

/** Qwen's Hook timeout: 8 s under 0.24.4's legacy-milliseconds rule, 8000 ms on older builds. */
export const HOOK_TIMEOUT_SETTING = 8000;

/** What to generate. */
export interface HookSettingsRequest {
  readonly kind: HookSettingsKind;
  readonly shell: HookShell;
  /** Absolute path (under the target shell's rules); only `auto-recall`. */
  readonly config?: string | undefined;
  /** Validated server key; only `write` (default `external-context`). */
  readonly serverName?: string | undefined;
  /** Absolute Hook log file (docs/design/hooks.md §6), either kind; undefined for no log. */
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

function launchWords(launcher: HookLauncher, shell: HookShell, logPath: string | undefined): string[] {
  const quote = (word: string): string => quoteForShell(shell, word);
  switch (launcher.kind) {
    case 'executable':
      return [quote(launcher.path)];
    case 'node-bundle':
      return [quote(launcher.runtimePath), quote(launcher.bundlePath)];
    case 'deno-bundle':
      // The log is the one file a Hook writes: Deno gets write access to it alone.
      return [
        quote(launcher.runtimePath),
        ...DENO_RUN_ARGUMENTS,
        ...(logPath === undefined ? [] : [quote(`--allow-write=${logPath}`)]),
        quote(launcher.bundlePath),
      ];
  }
}

/**
 * The Hook command line: POSIX `exec '<exe>' hook …`, PowerShell `& '<exe>' hook …`.
 *
 * @see docs/design/hooks.md §5, "Rules"
 */
export function hookCommand(request: HookSettingsRequest, launcher: HookLauncher): string {
  const quote = (word: string): string => quoteForShell(request.shell, word);
  const words = [request.shell === 'powershell' ? '&' : 'exec', ...launchWords(launcher, request.shell, request.log), 'hook'];
  if (request.kind === 'auto-recall') {
    words.push('auto-recall');
    if (request.config !== undefined) words.push('--config', quote(request.config));
  } else {
    words.push('write-confirmation');
    const serverName = request.serverName ?? DEFAULT_SERVER_NAME;
    if (serverName !== DEFAULT_SERVER_NAME) words.push('--server-name', quote(serverName));
  }
  if (request.log !== undefined) words.push('--log', quote(request.log));
  return words.join(' ');
}

/**
 * The settings fragment `{"hooks": {...}}` for the managed system settings file.
 *
 * @param request Kind, shell and options, already validated.
 * @param launcher How the Hook command starts the product.
 * @returns JSON with 2-space indentation and a trailing newline.
 * @see docs/design/hooks.md §5
 */
export function hookSettingsFragment(request: HookSettingsRequest, launcher: HookLauncher): string {
  const write = request.kind === 'write';
  const entry = {
    type: 'command',
    command: hookCommand(request, launcher),
    ...(request.shell === 'powershell' ? { shell: 'powershell' } : {}),
    timeout: HOOK_TIMEOUT_SETTING,
    name: write ? 'external-context-memory-write-confirmation' : 'external-context-auto-recall',
    statusMessage: write ? 'Confirming external memory write' : 'Retrieving external context',
  };
  // The matcher is the exact tool name: Qwen reads any other matcher as an unanchored regex.
  const matcher = write ? rememberToolName(request.serverName ?? DEFAULT_SERVER_NAME) : '*';
  const event = write ? 'PreToolUse' : 'UserPromptSubmit';
  return `${JSON.stringify({ hooks: { [event]: [{ matcher, hooks: [entry] }] } }, null, 2)}\n`;
}
