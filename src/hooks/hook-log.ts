// The opt-in Hook log (docs/design/hooks.md §7): one JSON line per Hook run, appended to an
// administrator-named absolute file opened append-only with mode 0600. Only the outcome, a
// fixed reason or failure class, an item count and timings are written: never the prompt,
// query, result, configuration path or any message. Uses node:fs only (the Hook path stays lean).
import * as fs from 'node:fs';

/** Why auto-recall answered `{}` without a failure (docs/design/hooks.md §7). */
export type AutoRecallSkipReason = 'no-submitted-prompt' | 'v1-config' | 'cwd-outside-root' | 'empty-after-sanitizing' | 'no-items';

/** What one Hook run did; the `outcome` plus at most one detail field. */
export type HookLogOutcome =
  | { readonly outcome: 'injected'; readonly items: number }
  | { readonly outcome: 'skipped'; readonly reason: AutoRecallSkipReason }
  | { readonly outcome: 'failed'; readonly class: string }
  | { readonly outcome: 'pass' }
  | { readonly outcome: 'ask' }
  | { readonly outcome: 'deny'; readonly reason: 'invalid-request' | 'plan-mode' | 'unsupported-mode' | 'no-person' };

/** The Hook a log line belongs to. */
export type HookLogName = 'auto-recall' | 'write-confirmation';

/**
 * The log line of one run, without the trailing newline.
 *
 * @param hook Which Hook ran.
 * @param outcome What it answered, and why.
 * @param startedAtMs Process start, ms since the epoch.
 * @param nowMs When the answer was decided, ms since the epoch.
 * @returns `{"time":<ISO 8601 UTC>,"hook","outcome",<detail>?,"durationMs":<integer ms>}`.
 * @see docs/design/hooks.md §7
 */
export function hookLogLine(hook: HookLogName, outcome: HookLogOutcome, startedAtMs: number, nowMs: number): string {
  const durationMs = Math.max(0, Math.round(nowMs - startedAtMs));
  return JSON.stringify({ time: new Date(nowMs).toISOString(), hook, ...outcome, durationMs });
}

/**
 * Open flags of the log (docs/design/hooks.md §7): append-only, created when missing, never
 * through a symlink at the last component (`O_NOFOLLOW`: ELOOP), and never waiting for a peer
 * (`O_NONBLOCK`: a FIFO without a reader fails at once with ENXIO instead of blocking the Hook).
 * Bun, Node.js and Deno all honour both flags on POSIX; Windows has neither (0 there).
 */
const LOG_OPEN_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Appends one line to the log file. Created with mode 0600 when missing (an existing file keeps
 * its mode); opened with {@link LOG_OPEN_FLAGS} so the open never blocks and never follows a
 * symlink; the descriptor is then `fstat`ed and written only when it is a regular file (a FIFO
 * with a reader, a terminal, a socket or a device is closed unwritten), and `lstat` must find
 * that same regular file (device and inode) at the path before anything is written. O_APPEND keeps
 * concurrent Hook runs from interleaving within a line. Every failure (missing directory,
 * permission, a symlink, a Deno run without `--allow-write`) is swallowed: the log never
 * changes the Hook's answer, its exit code or its empty stderr.
 *
 * @param logPath Absolute path from `--log`.
 * @param line One line from {@link hookLogLine}.
 * @returns True when the line was written.
 * @see docs/design/hooks.md §7
 */
export function appendHookLog(logPath: string, line: string): boolean {
  let fd: number | undefined;
  try {
    // Deno with a path-scoped --allow-write opens the symlink-resolved path, so O_NOFOLLOW alone
    // does not hold there: the name is also checked with lstat before (nothing is created through
    // a symlink) and after the open (the name still is this very regular file, not a link to it).
    if (!isRegularOrMissing(logPath)) return false;
    fd = fs.openSync(logPath, LOG_OPEN_FLAGS, 0o600);
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return false;
    const named = fs.lstatSync(logPath);
    if (!named.isFile() || named.dev !== opened.dev || named.ino !== opened.ino) return false;
    fs.writeSync(fd, `${line}\n`);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // Nothing to report: the log is best-effort.
      }
    }
  }
}

/** Whether `lstat` finds a regular file or nothing (ENOENT) at the path; any other error is false. */
function isRegularOrMissing(logPath: string): boolean {
  try {
    return fs.lstatSync(logPath).isFile();
  } catch (error) {
    return (error as { code?: unknown }).code === 'ENOENT';
  }
}
