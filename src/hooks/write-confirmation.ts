// The write-confirmation Hook (`PreToolUse`, docs/design/hooks.md §3): decides pass, deny or ask for a
// context_remember call, showing the exact escaped content. Reads no configuration and no
// credential, and never contacts the provider.
import { checkRememberContent } from '../contract/remember-content.ts';
import { displayContent } from './display-content.ts';
import { type HookArguments, hookBudgetSignal, type HookIo, readHookStdin, writeHookStdout } from './hook-io.ts';
import { appendHookLog, type HookLogOutcome, hookLogLine } from './hook-log.ts';
import { DEFAULT_SERVER_NAME, rememberToolName, SERVER_NAME_PATTERN } from './server-name.ts';
import { isPlainObject } from '../util/plain-object.ts';

/** Exact deny and ask reasons (docs/design/hooks.md §3.2). */
export const WRITE_CONFIRMATION_REASONS = {
  invalid: 'External context memory write confirmation request is invalid.',
  plan: 'External context memory writes are not allowed in plan mode.',
  unsupportedMode: 'External context memory write permission mode is unsupported.',
  ask: 'Save this exact content to the bound Mem0 repository memory?',
} as const;

/** Permission modes in which the Hook asks (row 5). */
const ASKING_MODES: ReadonlySet<string> = new Set(['default', 'auto', 'auto_edit', 'auto-edit', 'yolo']);

/** The pass answer (row 2). */
export const PASS = '{}';

/**
 * The deny answer with both the top-level and the `hookSpecificOutput` decision set, because
 * a later Hook may overwrite `hookSpecificOutput` while a top-level deny still wins.
 *
 * @see docs/design/hooks.md §3.4
 */
export function denyAnswer(reason: string): string {
  return JSON.stringify({
    decision: 'deny',
    reason,
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}

/** The ask answer (docs/design/hooks.md §3.4). */
export function askAnswer(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: reason },
  });
}

function ownField(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/**
 * Decides one parsed Hook input, rows 1–6 of docs/design/hooks.md §3.2 in order.
 *
 * @param value The parsed stdin JSON (`undefined` when stdin was unreadable, over 1 MiB or
 *   not JSON).
 * @param serverName The validated `--server-name` (default `external-context`).
 * @returns The stdout text: the deny, pass or ask answer.
 * @see docs/design/hooks.md §3.2
 */
export function decideWriteConfirmation(value: unknown, serverName: string = DEFAULT_SERVER_NAME): string {
  if (!isPlainObject(value)) return denyAnswer(WRITE_CONFIRMATION_REASONS.invalid); // row 1
  if (ownField(value, 'hook_event_name') !== 'PreToolUse' || ownField(value, 'tool_name') !== rememberToolName(serverName)) {
    return PASS; // row 2
  }
  const mode = ownField(value, 'permission_mode');
  const toolInput = ownField(value, 'tool_input');
  if (typeof mode !== 'string' || !isPlainObject(toolInput)) return denyAnswer(WRITE_CONFIRMATION_REASONS.invalid); // row 3
  const content = checkRememberContent(ownField(toolInput, 'content'));
  if (!content.ok) return denyAnswer(WRITE_CONFIRMATION_REASONS.invalid); // row 3
  if (mode === 'plan') return denyAnswer(WRITE_CONFIRMATION_REASONS.plan); // row 4
  if (!ASKING_MODES.has(mode)) return denyAnswer(WRITE_CONFIRMATION_REASONS.unsupportedMode); // row 5
  return askAnswer(`${WRITE_CONFIRMATION_REASONS.ask}\n${displayContent(content.content)}`); // row 6
}

/** The log outcome of a write-confirmation answer (docs/design/hooks.md §6). */
function writeOutcome(answer: string): HookLogOutcome {
  if (answer === PASS) return { outcome: 'pass' };
  if (answer === denyAnswer(WRITE_CONFIRMATION_REASONS.plan)) return { outcome: 'deny', reason: 'plan-mode' };
  if (answer === denyAnswer(WRITE_CONFIRMATION_REASONS.unsupportedMode)) return { outcome: 'deny', reason: 'unsupported-mode' };
  if (answer === denyAnswer(WRITE_CONFIRMATION_REASONS.invalid)) return { outcome: 'deny', reason: 'invalid-request' };
  return { outcome: 'ask' };
}

/**
 * The `hook write-confirmation` process run.
 *
 * @param serverName The `--server-name` value (default `external-context`), or invalid for
 *   any argument problem, including a value outside `^[A-Za-z0-9_-]{1,40}$` (then the
 *   invalid-request deny without reading stdin).
 * @param io Streams and process start. A stdin that stalls past the 6500 ms budget counts as
 *   unreadable (row 1), so the Hook answers before Qwen's own timeout lets the write proceed.
 * @param logPath Absolute `--log` file, or undefined for no log (docs/design/hooks.md §6).
 * @returns 0, or 1 when stdout cannot be written; the log never changes either.
 */
export async function runWriteConfirmation(serverName: HookArguments<string>, io: HookIo, logPath?: string): Promise<number> {
  let answer = denyAnswer(WRITE_CONFIRMATION_REASONS.invalid);
  try {
    if (serverName.valid && SERVER_NAME_PATTERN.test(serverName.value)) {
      const stdin = await readHookStdin(io, hookBudgetSignal(io.startedAtMs));
      answer = decideWriteConfirmation(stdin.ok ? stdin.value : undefined, serverName.value);
    }
  } catch {
    answer = denyAnswer(WRITE_CONFIRMATION_REASONS.invalid);
  }
  const decidedAtMs = Date.now();
  const code = await writeHookStdout(io, answer);
  if (logPath !== undefined) appendHookLog(logPath, hookLogLine('write-confirmation', writeOutcome(answer), io.startedAtMs, decidedAtMs));
  return code;
}
