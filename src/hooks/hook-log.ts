// The opt-in Hook log (docs/design/hooks.md §7): one JSON line per Hook run, appended to an
// administrator-named absolute file opened append-only with mode 0600. Only the outcome, a
// fixed reason or failure class, an item count and timings are written: never the prompt,
// query, result, configuration path or any message. Uses node:fs only (the Hook path stays lean).
import { closeSync, constants, openSync, writeSync } from 'node:fs';

/** Why auto-recall answered `{}` without a failure (docs/design/hooks.md §7). */
export type AutoRecallSkipReason = 'no-submitted-prompt' | 'v1-config' | 'cwd-outside-root' | 'empty-after-sanitizing' | 'no-items';

/** What one Hook run did; the `outcome` plus at most one detail field. */
export type HookLogOutcome =
  | { readonly outcome: 'injected'; readonly items: number }
  | { readonly outcome: 'skipped'; readonly reason: AutoRecallSkipReason }
  | { readonly outcome: 'failed'; readonly class: string }
  | { readonly outcome: 'pass' }
  | { readonly outcome: 'ask' }
  | { readonly outcome: 'deny'; readonly reason: 'invalid-request' | 'plan-mode' | 'unsupported-mode' };

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
 * Appends one line to the log file. Created with mode 0600 when missing (an existing file keeps
 * its mode); opened with O_APPEND so concurrent Hook runs never interleave within a line.
 * Every failure (missing directory, permission, a Deno run without `--allow-write`, a FIFO
 * nobody reads) is swallowed: the log never changes the Hook's answer or exit code.
 *
 * @param logPath Absolute path from `--log`.
 * @param line One line from {@link hookLogLine}.
 * @returns True when the line was written.
 */
export function appendHookLog(logPath: string, line: string): boolean {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of blocking the Hook in
    // open, where not even SIGTERM's handler can run; a regular file is unaffected.
    fd = openSync(logPath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0), 0o600);
    writeSync(fd, `${line}\n`);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // Nothing to report: the log is best-effort.
      }
    }
  }
}
