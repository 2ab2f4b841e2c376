// The default per-user Hook log (docs/design/hooks.md §7.1): without `--log`, a Hook run
// appends its line to `$XDG_STATE_HOME/external-context/hook.log` (or
// `$HOME/.local/state/external-context/hook.log`), resolved when the Hook runs, bounded at
// {@link USER_LOG_MAX_BYTES} with one `.1` rotation. `EXTERNAL_CONTEXT_HOOK_LOG` overrides the
// path or, as `off`, turns it off. `check` reads the same path (check/hook-outcomes.ts).
// Uses node:fs only (the Hook path stays lean).
import * as fs from 'node:fs';
import { RUNTIME } from '../runtime/runtime.ts';
import { trustFacts } from '../runtime/trust-facts.ts';
import { ownEnv } from '../util/own-env.ts';
import { appendHookLog } from './hook-log.ts';

/** The variable that moves (an absolute path) or turns off (`off`) the per-user Hook log. */
export const USER_LOG_VARIABLE = 'EXTERNAL_CONTEXT_HOOK_LOG';

/** Size at which the log is rotated to `<path>.1` (the one older generation kept). */
export const USER_LOG_MAX_BYTES = 64 * 1024;

/** A POSIX-absolute or Windows-drive-absolute path, without node:path (Hook start-up). */
function isAbsolutePath(value: string): boolean {
  return value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value);
}

/**
 * Where the per-user Hook log lives for this environment.
 *
 * @param env The Hook's (or `check`'s) environment.
 * @returns `{ path }` (absolute), `{ off: 'disabled' }` for `EXTERNAL_CONTEXT_HOOK_LOG=off`, or
 *   `{ off: 'no-home' }` when neither an absolute `XDG_STATE_HOME` nor an absolute `HOME` is set
 *   (a relative override counts as unset, as XDG says).
 * @see docs/design/hooks.md §7.1
 */
export function userHookLogPath(env: Readonly<Record<string, string | undefined>>): { readonly path: string } | { readonly off: 'disabled' | 'no-home' } {
  const override = ownEnv(env, USER_LOG_VARIABLE);
  if (override === 'off') return { off: 'disabled' };
  if (override !== undefined && isAbsolutePath(override)) return { path: override };
  const state = ownEnv(env, 'XDG_STATE_HOME');
  if (state !== undefined && isAbsolutePath(state)) return { path: `${state.replace(/[\\/]+$/, '')}/external-context/hook.log` };
  const home = ownEnv(env, 'HOME');
  if (home !== undefined && isAbsolutePath(home)) return { path: `${home.replace(/[\\/]+$/, '')}/.local/state/external-context/hook.log` };
  return { off: 'no-home' };
}

/**
 * Appends one line to the per-user log: creates its folder (mode 0700) when missing and writes
 * only when that folder is this user's and not group- or world-writable, rotates a
 * file at or over {@link USER_LOG_MAX_BYTES} to `<path>.1` (replacing the older one), then
 * appends with every rule of {@link appendHookLog}. Every failure is swallowed.
 *
 * @returns True when the line was written.
 */
export function appendUserHookLog(env: Readonly<Record<string, string | undefined>>, line: string): boolean {
  const where = userHookLogPath(env);
  if (!('path' in where)) return false;
  const file = where.path;
  try {
    const folder = file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')));
    if (folder !== '') {
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      if (!ownFolder(folder)) return false;
    }
    rotateWhenFull(file);
  } catch {
    return false;
  }
  return appendHookLog(file, line);
}

/**
 * Whether the log's own folder is a real folder (not a symlink) of this user that neither the
 * group nor others can write: otherwise another user could plant the file and read the lines.
 * On Windows only the symlink rule applies; where the runtime does not tell the user, the owner
 * is not compared.
 */
function ownFolder(folder: string): boolean {
  const stat = fs.lstatSync(folder);
  if (!stat.isDirectory()) return false;
  const { uid, windows } = trustFacts();
  if (windows) return true;
  return (uid === -1 || stat.uid === uid) && (stat.mode & 0o022) === 0;
}

/** Renames a regular file at or over the bound to `<path>.1`; a symlink or anything else is left alone. */
function rotateWhenFull(file: string): void {
  let size: number;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return;
    size = stat.size;
  } catch {
    return;
  }
  if (size >= USER_LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
}

/**
 * Writes a Hook run's log line: to the `--log` file when one was given, else to the per-user log
 * — except on Deno, whose Hook command grants `--allow-write` only to a `--log` file named at
 * `hook settings` time (docs/design/hooks.md §7.1), so the Deno bundle logs only with `--log`.
 *
 * @param logPath The valid `--log` file, or undefined.
 * @returns True when the line was written.
 */
export function writeHookLogLine(logPath: string | undefined, env: Readonly<Record<string, string | undefined>>, line: string): boolean {
  if (logPath !== undefined) return appendHookLog(logPath, line);
  return RUNTIME === 'deno' ? false : appendUserHookLog(env, line);
}
