// The write-confirmation Hook (`PreToolUse`, docs/design/hooks.md §3): decides pass, deny or ask for a
// context_remember call, showing the exact escaped content. Reads no configuration and no
// credential, and never contacts the provider.
import { checkRememberContent } from '../contract/remember-content.ts';
import { displayContent } from './display-content.ts';
import { type HookArguments, hookBudgetSignal, type HookIo, readHookStdin, writeHookStdout } from './hook-io.ts';
import { type HookLogOutcome, hookLogLine } from './hook-log.ts';
import { writeHookLogLine } from './user-log.ts';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost } from './hosts.ts';
import { DEFAULT_SERVER_NAME, SERVER_NAME_PATTERN } from './server-name.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { ownField } from '../util/own-field.ts';

/** Exact deny and ask reasons (docs/design/hooks.md §3.2). */
export const WRITE_CONFIRMATION_REASONS = {
  invalid: 'External context memory write confirmation request is invalid.',
  plan: 'External context memory writes are not allowed in plan mode.',
  unsupportedMode: 'External context memory write permission mode is unsupported.',
  noPerson: 'External context memory writes need a person to confirm them, and no person can confirm in this session.',
  ask: 'Save this exact content to the bound Mem0 repository memory? Nothing has been saved yet. If no person approves this, it stays unsaved: do not retry; tell the user the memory was not saved.',
} as const;

/**
 * Permission modes in which the Hook asks (row 5), per host that sends `permission_mode`
 * (docs/design/hooks.md §6.2). Gemini CLI sends none; Codex cannot ask, so it defers to its own
 * per-tool approval in the modes listed and denies in the others.
 */
const ASKING_MODES: Readonly<Record<Exclude<HookHost, 'gemini'>, ReadonlySet<string>>> = {
  qwen: new Set(['default', 'auto', 'auto_edit', 'auto-edit', 'yolo']),
  claude: new Set(['default', 'acceptEdits', 'auto', 'bypassPermissions', 'dontAsk']),
  codex: new Set(['default', 'acceptEdits']),
};

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

/**
 * The deny answer in the host's shape (docs/design/hooks.md §6.2): Qwen's (§3.4); Claude Code and
 * Codex accept only `approve`/`block` as the top-level decision, so `block` stands beside the
 * `hookSpecificOutput` deny; Gemini CLI reads the top-level `decision` and `reason` only.
 */
export function hostDenyAnswer(host: HookHost, reason: string): string {
  switch (host) {
    case 'qwen':
      return denyAnswer(reason);
    case 'gemini':
      return JSON.stringify({ decision: 'deny', reason });
    case 'claude':
    case 'codex':
      return JSON.stringify({
        decision: 'block',
        reason,
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
      });
  }
}

/**
 * The ask answer in the host's shape: Qwen's and Claude Code's `hookSpecificOutput` (§3.4);
 * Gemini CLI's top-level `decision: "ask"`, whose confirmation shows `systemMessage`. Codex
 * 0.169 rejects `ask` (it passes instead, to its own approval prompt).
 */
function hostAskAnswer(host: HookHost, reason: string): string {
  if (host === 'gemini') return JSON.stringify({ decision: 'ask', reason, systemMessage: reason });
  if (host === 'codex') return PASS;
  return askAnswer(reason);
}

/**
 * Decides one parsed Hook input, rows 1–6 of docs/design/hooks.md §3.2 in order, with the host's
 * event, tool name, permission modes and answer shapes (docs/design/hooks.md §6.2).
 *
 * @param value The parsed stdin JSON (`undefined` when stdin was unreadable, over 1 MiB or
 *   not JSON).
 * @param serverName The validated `--server-name` (default `external-context`).
 * @param host The coding agent (default `qwen`).
 * @param personConfirms Asked only at row 6 on Gemini CLI and Codex, whose input does not say
 *   whether a person will answer (docs/design/hooks.md §6.2): whether one will. The default
 *   reads nothing and says no, so a caller that does not check denies.
 * @returns The stdout text: the deny, pass or ask answer.
 * @see docs/design/hooks.md §3.2
 */
export function decideWriteConfirmation(value: unknown, serverName: string = DEFAULT_SERVER_NAME, host: HookHost = DEFAULT_HOOK_HOST, personConfirms: () => boolean = () => false): string {
  const deny = (reason: string): string => hostDenyAnswer(host, reason);
  const facts = HOOK_HOST_FACTS[host];
  if (!isPlainObject(value)) return deny(WRITE_CONFIRMATION_REASONS.invalid); // row 1
  if (ownField(value, 'hook_event_name') !== facts.toolEvent || ownField(value, 'tool_name') !== facts.rememberToolName(serverName)) {
    return PASS; // row 2
  }
  // Gemini CLI sends no permission mode; its plan mode never offers a write tool.
  const mode = host === 'gemini' ? 'default' : ownField(value, 'permission_mode');
  const toolInput = ownField(value, 'tool_input');
  if (typeof mode !== 'string' || !isPlainObject(toolInput)) return deny(WRITE_CONFIRMATION_REASONS.invalid); // row 3
  const content = checkRememberContent(ownField(toolInput, 'content'));
  if (!content.ok) return deny(WRITE_CONFIRMATION_REASONS.invalid); // row 3
  if (mode === 'plan') return deny(WRITE_CONFIRMATION_REASONS.plan); // row 4
  if (host !== 'gemini' && !ASKING_MODES[host].has(mode)) return deny(WRITE_CONFIRMATION_REASONS.unsupportedMode); // row 5
  // Gemini CLI and Codex: an ask nobody can answer hangs Gemini; Codex's "default" may be its reviewer model.
  if ((host === 'gemini' || host === 'codex') && !personConfirms()) return deny(WRITE_CONFIRMATION_REASONS.noPerson);
  return hostAskAnswer(host, `${WRITE_CONFIRMATION_REASONS.ask}\n${displayContent(content.content)}`); // row 6
}

/** `hook write-confirmation` arguments as parsed: `--server-name` and `--host`. */
export interface WriteConfirmationArguments {
  readonly serverName: string;
  readonly host: HookHost;
}

/**
 * The log outcome of a write-confirmation answer in the host's shape (docs/design/hooks.md §7).
 * A host that cannot ask (Codex) passes, and is logged as `pass`.
 */
function writeOutcome(answer: string, host: HookHost): HookLogOutcome {
  if (answer === PASS) return { outcome: 'pass' };
  if (answer === hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.plan)) return { outcome: 'deny', reason: 'plan-mode' };
  if (answer === hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.unsupportedMode)) return { outcome: 'deny', reason: 'unsupported-mode' };
  if (answer === hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.invalid)) return { outcome: 'deny', reason: 'invalid-request' };
  if (answer === hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.noPerson)) return { outcome: 'deny', reason: 'no-person' };
  return { outcome: 'ask' };
}

/**
 * The `hook write-confirmation` process run.
 *
 * @param args The `--server-name` value (default `external-context`) and `--host` (default
 *   `qwen`), or invalid for any argument problem, including a value outside
 *   `^[A-Za-z0-9_-]{1,40}$` (then the invalid-request deny without reading stdin, in the
 *   `--host` shape when that flag was valid, else Qwen's).
 * @param io Streams and process start. A stdin that stalls past the 6500 ms budget counts as
 *   unreadable (row 1), so the Hook answers before Qwen's own timeout lets the write proceed.
 * @param logPath Absolute `--log` file, or undefined for the per-user log (docs/design/hooks.md §7, §7.1).
 * @returns 0, or 1 when stdout cannot be written; the log never changes either.
 */
export async function runWriteConfirmation(args: HookArguments<WriteConfirmationArguments> & { readonly host?: HookHost }, io: HookIo, logPath?: string): Promise<number> {
  const host = args.valid ? args.value.host : (args.host ?? DEFAULT_HOOK_HOST);
  let answer = hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.invalid);
  try {
    if (args.valid && SERVER_NAME_PATTERN.test(args.value.serverName)) {
      const stdin = await readHookStdin(io, hookBudgetSignal(io.startedAtMs));
      // Only Gemini CLI and Codex ask whether a person will confirm (row 6): the Qwen and Claude
      // Code runs do not load the module that reads their session facts.
      const personWillConfirm = host === 'gemini' || host === 'codex' ? (await import('./person-confirms.ts')).personWillConfirm : undefined;
      answer = decideWriteConfirmation(stdin.ok ? stdin.value : undefined, args.value.serverName, host, () => personWillConfirm?.(host, io.env, io.parentPid) === true);
    }
  } catch {
    answer = hostDenyAnswer(host, WRITE_CONFIRMATION_REASONS.invalid);
  }
  const decidedAtMs = Date.now();
  const code = await writeHookStdout(io, answer);
  writeHookLogLine(logPath, io.env, hookLogLine('write-confirmation', writeOutcome(answer, host), io.startedAtMs, decidedAtMs));
  return code;
}
