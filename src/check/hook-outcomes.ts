// The `hook-log` checklist item (docs/design/config.md §11): the last Hook outcomes from the
// per-user Hook log (docs/design/hooks.md §7.1), so an administrator finds out why auto-recall
// answered `{}` without having opted in beforehand. Only the validated fields of a line are
// shown (time, Hook, outcome, its detail), never anything else the file may hold.
import * as fs from 'node:fs';
import { failureHint, isFailureClass } from '../providers/failure.ts';
import { USER_LOG_VARIABLE, userHookLogPath } from '../hooks/user-log.ts';
import { type CheckItem, item, printable } from './check-item.ts';

/** How many outcomes the item shows, newest last. */
export const SHOWN_OUTCOMES = 5;

/** How much of the end of the log is read: far more than {@link SHOWN_OUTCOMES} lines. */
const TAIL_BYTES = 8192;

/** One validated log line. */
interface Outcome {
  readonly time: string;
  readonly hook: 'auto-recall' | 'write-confirmation';
  readonly outcome: string;
  /** `items`, `reason` or `class`, already formatted (`3 items`, `no-items`, `http-status 401`). */
  readonly detail?: string;
  /** The failure class, for a `failed` line. */
  readonly failedClass?: string;
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WORD = /^[a-z][a-z0-9-]{0,39}( \d{1,3})?$/;
const OUTCOMES = new Set(['injected', 'skipped', 'failed', 'pass', 'ask', 'deny']);

/**
 * The `hook-log` item: the last {@link SHOWN_OUTCOMES} outcomes with time and class; `warn` with
 * the class's hint when the newest one is a failure, or when the file cannot be read; no item
 * when the log is turned off (`EXTERNAL_CONTEXT_HOOK_LOG=off`) or neither `XDG_STATE_HOME` nor
 * `HOME` is an absolute path.
 *
 * @param env `check`'s environment; the path is resolved as the Hook resolves it.
 * @see docs/design/config.md §11
 */
export function hookOutcomesItem(env: Readonly<Record<string, string | undefined>>): CheckItem | undefined {
  const where = userHookLogPath(env);
  // Turned off, or no home to resolve it in: the Hooks of this environment write no per-user log.
  if (!('path' in where)) return undefined;
  const shown = printable(where.path);
  const tail = readTail(where.path);
  if (tail === 'missing') return item('hook-log', 'ok', `No Hook run logged yet in ${shown}.`, 'Submit a prompt in the coding agent, then run check again. A Hook on Deno logs only with --log.');
  if (tail === 'unreadable')
    return item('hook-log', 'warn', `The Hook log ${shown} is not a readable regular file.`, `Remove it (the next Hook run creates it with mode 0600), or point ${USER_LOG_VARIABLE} elsewhere.`);
  const outcomes = tail.flatMap((line) => {
    const parsed = parseLine(line);
    return parsed === undefined ? [] : [parsed];
  });
  const last = outcomes.slice(-SHOWN_OUTCOMES);
  const newest = last.at(-1);
  if (newest === undefined) return item('hook-log', 'ok', `No Hook run logged yet in ${shown}.`);
  const listed = last.map((entry) => `${entry.time} ${entry.hook} ${entry.outcome}${entry.detail === undefined ? '' : ` ${entry.detail}`}`).join('; ');
  const message = `Last ${last.length} Hook outcome${last.length === 1 ? '' : 's'} in ${shown} (newest last): ${listed}.`;
  return newest.failedClass === undefined ? item('hook-log', 'ok', message) : item('hook-log', 'warn', message, classHint(newest.failedClass));
}

/** The last lines of the log, or why there are none; never follows a symlink, never blocks. */
function readTail(file: string): readonly string[] | 'missing' | 'unreadable' {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return 'unreadable';
    const length = Math.min(stat.size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, stat.size - length);
    const lines = buffer.subarray(0, read).toString('utf8').split('\n');
    // A read that starts inside the file starts inside a line: that first piece is dropped.
    return stat.size > length ? lines.slice(1) : lines;
  } catch (error) {
    return (error as { code?: unknown }).code === 'ENOENT' ? 'missing' : 'unreadable';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A log line of docs/design/hooks.md §7, validated field by field; anything else is skipped. */
function parseLine(line: string): Outcome | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const { time, hook, outcome } = record;
  if (typeof time !== 'string' || !TIME.test(time)) return undefined;
  if (hook !== 'auto-recall' && hook !== 'write-confirmation') return undefined;
  if (typeof outcome !== 'string' || !OUTCOMES.has(outcome)) return undefined;
  if (outcome === 'injected') {
    const items = record['items'];
    return typeof items === 'number' && Number.isInteger(items) && items >= 0 && items <= 99 ? { time, hook, outcome, detail: `${items} item${items === 1 ? '' : 's'}` } : undefined;
  }
  if (outcome === 'skipped' || outcome === 'deny') {
    const reason = record['reason'];
    return typeof reason === 'string' && WORD.test(reason) ? { time, hook, outcome, detail: reason } : undefined;
  }
  if (outcome === 'failed') {
    const failedClass = record['class'];
    return typeof failedClass === 'string' && WORD.test(failedClass) ? { time, hook, outcome, detail: failedClass, failedClass } : undefined;
  }
  return { time, hook, outcome };
}

/** What to do about the newest failure (docs/design/hooks.md §7, the `failed` rows). */
function classHint(failedClass: string): string {
  const [id, status] = failedClass.split(' ');
  switch (id) {
    case 'credential':
      return 'The credential variable the configuration names is unset or unusable where the Hook runs: set it in the environment of the coding agent (the credential item above checks this shell only).';
    case 'configuration':
      return 'The Hook could not load the configuration: fix what the configuration item above names (run check with the configuration the Hook uses).';
    case 'untrusted-configuration':
      return 'Other users can change the configuration or a folder above it: fix its owner and mode (config-file item above).';
    case 'invalid-arguments':
      return 'The Hook command line is wrong: regenerate it with external-context hook settings and check it with check --settings.';
    case 'invalid-input':
      return "The host's input was unusable or the query was refused: check that the Hook's event and --host match the coding agent (check --settings).";
    case 'permission':
      return 'A Deno permission is missing: regenerate the Hook command with hook settings from the Deno bundle.';
    case 'timeout':
      return "The search did not finish in time (the Hook's 6500 ms budget or timeoutMs): check the service's latency with check --search.";
    case 'internal':
      return 'An unexpected error: run check --search with the same configuration, and report it if it persists.';
    default: {
      if (!isFailureClass(id)) return 'Run check --search with the configuration the Hook uses.';
      const code = status === undefined ? undefined : Number(status);
      return failureHint(id, code === undefined ? {} : { status: code });
    }
  }
}
