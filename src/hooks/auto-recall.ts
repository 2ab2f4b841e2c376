// The auto-recall Hook (`UserPromptSubmit`, docs/design/hooks.md §2): provenance from `submitted_prompt`
// only, repository-root binding, the sanitized query, one search within the 6500 ms budget,
// and fail-open `{}` for everything else. Never imports the MCP SDK or mcp/.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { withDeadline } from '../util/with-deadline.ts';
import type { ConfigFlag } from '../config/locate.ts';
import type { ProviderFactoryOptions } from '../providers/types.ts';
import { missingPermission } from '../runtime/permissions.ts';
import { openBinding } from '../search/open-binding.ts';
import { runSearch } from '../search/run-search.ts';
import { failureLabel } from '../search/failure-class.ts';
import { beforeAbort, type HookArguments, hookBudgetSignal, type HookIo, readHookStdin, writeHookStdout } from './hook-io.ts';
import { appendHookLog, type AutoRecallSkipReason, type HookLogOutcome, hookLogLine } from './hook-log.ts';
import { sanitizeQuery } from './sanitize-query.ts';
import { isPlainObject } from '../util/plain-object.ts';

/** The fail-open answer: no context. */
export const NO_CONTEXT = '{}';

/** The three fields auto-recall reads, after the checks of docs/design/hooks.md §2.1. */
export interface AutoRecallInput {
  readonly submittedPrompt: string;
  readonly cwd: string;
}

/** Settings of one in-process auto-recall run. */
export interface AutoRecallOptions {
  /** `--config` as given on the command line (an absolute path), or undefined. */
  readonly configFlag: ConfigFlag;
  /** The process environment (configuration path, credential, proxy variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The Hook budget; its abort cancels whatever is in flight. */
  readonly signal: AbortSignal;
  /** Test-only provider factory options; no configuration field reaches them. */
  readonly factoryOptions?: Omit<ProviderFactoryOptions, 'env'>;
}

function ownField(record: object, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? (record as Record<string, unknown>)[name] : undefined;
}

/**
 * Reads `hook_event_name`, `submitted_prompt` and `cwd`, in that order, and nothing else: the
 * legacy `prompt` field is never accessed (docs/design/hooks.md §2.1).
 *
 * @param value The parsed stdin.
 * @returns The prompt and cwd, or undefined when any check fails.
 */
export function readAutoRecallInput(value: unknown): AutoRecallInput | undefined {
  if (!isPlainObject(value)) return undefined;
  if (ownField(value, 'hook_event_name') !== 'UserPromptSubmit') return undefined;
  const submittedPrompt = ownField(value, 'submitted_prompt');
  // Continuations after a tool result carry `prompt: ""` and no `submitted_prompt`: nothing.
  if (typeof submittedPrompt !== 'string' || submittedPrompt.trim() === '') return undefined;
  const cwd = ownField(value, 'cwd');
  if (typeof cwd !== 'string') return undefined;
  return { submittedPrompt, cwd };
}

/**
 * Whether `cwd` is the canonical repository root or inside it, decided on canonical paths
 * with `path.relative`, never by string prefix (docs/design/hooks.md §2.2 step 3).
 *
 * @param cwd The Hook's `cwd` field.
 * @param repositoryRoot The canonical root from the binding.
 * @returns False for a relative, missing or non-directory `cwd`, or one whose real path
 *   (symlinks resolved) lies outside the root.
 */
export async function isInsideRepositoryRoot(cwd: string, repositoryRoot: string): Promise<boolean> {
  if (!path.isAbsolute(cwd)) return false;
  try {
    const canonical = await realpath(cwd);
    if (!(await stat(canonical)).isDirectory()) return false;
    const relative = path.relative(repositoryRoot, canonical);
    if (relative === '') return true;
    return !path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..';
  } catch {
    return false;
  }
}

/** One auto-recall answer and, for the opt-in log, what led to it (docs/design/hooks.md §6). */
export interface AutoRecallResult {
  readonly answer: string;
  readonly outcome: HookLogOutcome;
}

const skipped = (reason: AutoRecallSkipReason): AutoRecallResult => ({ answer: NO_CONTEXT, outcome: { outcome: 'skipped', reason } });
const failed = (cls: string): AutoRecallResult => ({ answer: NO_CONTEXT, outcome: { outcome: 'failed', class: cls } });

/**
 * Why stdin did not yield an auto-recall input: a well-formed `UserPromptSubmit` object without
 * a usable `submitted_prompt` (a continuation) is skipped; anything else is an invalid input.
 */
function unusableInput(value: unknown): AutoRecallResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return failed('invalid-input');
  if (ownField(value, 'hook_event_name') !== 'UserPromptSubmit') return failed('invalid-input');
  const submittedPrompt = ownField(value, 'submitted_prompt');
  if (typeof submittedPrompt !== 'string' || submittedPrompt.trim() === '') return skipped('no-submitted-prompt');
  return failed('invalid-input');
}

/**
 * Runs auto-recall for one parsed Hook input, in-process.
 *
 * @param value The parsed stdin JSON.
 * @param options Configuration flag, environment, budget signal.
 * @returns The stdout text: `{}` or the `hookSpecificOutput.additionalContext` object whose
 *   context is the escaped envelope text `T` (no raw `<` or `>`). Never throws.
 * @see docs/design/hooks.md §2
 */
export async function autoRecall(value: unknown, options: AutoRecallOptions): Promise<string> {
  return (await autoRecallTraced(value, options)).answer;
}

/**
 * {@link autoRecall}, also saying why: `injected` with the item count, `skipped` with its
 * reason, or `failed` with a class (`invalid-input`, `permission`, `configuration`, `timeout`,
 * a provider class of docs/design/providers.md §1.3, or `internal`).
 *
 * @see docs/design/hooks.md §2, §6
 */
export async function autoRecallTraced(value: unknown, options: AutoRecallOptions): Promise<AutoRecallResult> {
  try {
    const input = readAutoRecallInput(value);
    // docs/design/hooks.md §2.1: checked before the configuration, credential, proxy or provider.
    if (input === undefined) return unusableInput(value);
    if (options.signal.aborted) return failed('timeout');
    if ((await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }])) !== undefined) return failed('permission');
    let opened;
    try {
      opened = await beforeAbort(openBinding(options.configFlag, options.env, options.factoryOptions ?? {}), options.signal);
    } catch {
      return failed('configuration');
    }
    if (opened === undefined) return failed('timeout');
    const { binding, provider } = opened;
    if (binding.version !== 2 || binding.autoRecall === undefined) return skipped('v1-config');
    if (!(await isInsideRepositoryRoot(input.cwd, binding.autoRecall.repositoryRoot))) return skipped('cwd-outside-root');
    const query = sanitizeQuery(input.submittedPrompt, binding.credential);
    if (query === '') return skipped('empty-after-sanitizing');
    if (options.signal.aborted) return failed('timeout');
    const deadline = withDeadline(options.signal, binding.autoRecall.timeoutMs);
    let outcome: Awaited<ReturnType<typeof runSearch>>;
    try {
      outcome = await runSearch(provider, { query }, deadline.signal);
    } finally {
      deadline.dispose();
    }
    if (outcome.status === 'invalid-input') return failed('invalid-input');
    if (outcome.status === 'failed') return failed(outcome.failure === undefined ? 'internal' : failureLabel(outcome.failure));
    if (outcome.itemCount === 0) return skipped('no-items');
    const answer = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: outcome.rendered.text },
    });
    return { answer, outcome: { outcome: 'injected', items: outcome.itemCount } };
  } catch {
    // docs/design/hooks.md §2.5: every failure is fail-open, with no detail anywhere.
    return failed('internal');
  }
}

/**
 * The `hook auto-recall` process run: budget from process start, stdin, one answer, then the
 * optional log line.
 *
 * @param configFlag `--config` as parsed (an absolute path, or undefined when absent), or
 *   invalid for any argument problem (then `{}` without reading stdin or the configuration).
 * @param io Streams, environment and process start.
 * @param logPath Absolute `--log` file, or undefined for no log (docs/design/hooks.md §6).
 * @returns 0, or 1 when stdout cannot be written; the log never changes either.
 */
export async function runAutoRecall(configFlag: HookArguments<ConfigFlag>, io: HookIo, logPath?: string): Promise<number> {
  let result: AutoRecallResult = failed('invalid-arguments');
  try {
    if (configFlag.valid) {
      const signal = hookBudgetSignal(io.startedAtMs);
      const stdin = await readHookStdin(io, signal);
      result = stdin.ok ? await autoRecallTraced(stdin.value, { configFlag: configFlag.value, env: io.env, signal }) : failed(signal.aborted ? 'timeout' : 'invalid-input');
    }
  } catch {
    // docs/design/hooks.md §2.5: an unexpected exception is fail-open too.
    result = failed('internal');
  }
  const decidedAtMs = Date.now();
  const code = await writeHookStdout(io, result.answer);
  if (logPath !== undefined) appendHookLog(logPath, hookLogLine('auto-recall', result.outcome, io.startedAtMs, decidedAtMs));
  return code;
}
