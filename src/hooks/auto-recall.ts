// The auto-recall Hook (`UserPromptSubmit`, docs/design/hooks.md §2): provenance from `submitted_prompt`
// only, repository-root binding, the sanitized query, one search within the 6500 ms budget,
// and fail-open `{}` for everything else. Never imports the MCP SDK or mcp/.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigFlag } from '../config/locate.ts';
import { isCredentialUnavailable } from '../config/credential.ts';
import { configWritableByOthers } from '../config/trusted-config.ts';
import { trustFacts } from '../runtime/trust-facts.ts';
import type { ProviderFactoryOptions } from '../providers/types.ts';
import { missingPermission } from '../runtime/permissions.ts';
import { openBinding } from '../search/open-binding.ts';
import { runPreparedSearch } from '../search/run-search.ts';
import { failureLabel } from '../providers/failure.ts';
import { beforeAbort, type HookArguments, hookBudgetSignal, type HookIo, readHookStdin, writeHookStdout } from './hook-io.ts';
import { writeHookLogLine } from './user-log.ts';
import { type AutoRecallSkipReason, type HookLogOutcome, hookLogLine } from './hook-log.ts';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost } from './hosts.ts';
import { sanitizeQuery } from './sanitize-query.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { ownField } from '../util/own-field.ts';

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
  /** The coding agent running the Hook (default `qwen`): its event, prompt field and output. */
  readonly host?: HookHost;
  /** Test-only provider factory options; no configuration field reaches them. */
  readonly factoryOptions?: Omit<ProviderFactoryOptions, 'env'>;
}

/** `hook auto-recall` arguments as parsed: `--config` and `--host`. */
export interface AutoRecallArguments {
  readonly config: ConfigFlag;
  readonly host: HookHost;
}

/**
 * Reads `hook_event_name`, the host's prompt field and `cwd`, in that order, and nothing else.
 * On Qwen the prompt field is `submitted_prompt` and the legacy `prompt` field is never accessed
 * (docs/design/hooks.md §2.1); Claude Code and Codex send `prompt` with `UserPromptSubmit`, Gemini
 * CLI with `BeforeAgent` (docs/design/hooks.md §6.1).
 *
 * @param value The parsed stdin.
 * @param host The coding agent (default `qwen`).
 * @returns The prompt and cwd, or undefined when any check fails.
 */
export function readAutoRecallInput(value: unknown, host: HookHost = DEFAULT_HOOK_HOST): AutoRecallInput | undefined {
  if (!isPlainObject(value)) return undefined;
  const facts = HOOK_HOST_FACTS[host];
  if (ownField(value, 'hook_event_name') !== facts.promptEvent) return undefined;
  const submittedPrompt = ownField(value, facts.promptField);
  // Qwen's continuations after a tool result carry `prompt: ""` and no `submitted_prompt`;
  // Gemini CLI re-fires BeforeAgent with an empty prompt: nothing, and no search.
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

/** One auto-recall answer and, for the opt-in log, what led to it (docs/design/hooks.md §7). */
export interface AutoRecallResult {
  readonly answer: string;
  readonly outcome: HookLogOutcome;
}

const skipped = (reason: AutoRecallSkipReason): AutoRecallResult => ({ answer: NO_CONTEXT, outcome: { outcome: 'skipped', reason } });
const failed = (cls: string): AutoRecallResult => ({ answer: NO_CONTEXT, outcome: { outcome: 'failed', class: cls } });

/**
 * Why stdin did not yield an auto-recall input: a well-formed prompt event of the host without
 * a usable prompt field (Qwen's continuation, Gemini's re-fired BeforeAgent) is skipped;
 * anything else is an invalid input.
 */
function unusableInput(value: unknown, host: HookHost): AutoRecallResult {
  if (!isPlainObject(value)) return failed('invalid-input');
  const facts = HOOK_HOST_FACTS[host];
  if (ownField(value, 'hook_event_name') !== facts.promptEvent) return failed('invalid-input');
  const prompt = ownField(value, facts.promptField);
  if (typeof prompt !== 'string' || prompt.trim() === '') return skipped('no-submitted-prompt');
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
 * a failure class of docs/design/providers.md §1.6, or `internal`).
 *
 * @see docs/design/hooks.md §2, §7
 */
export async function autoRecallTraced(value: unknown, options: AutoRecallOptions): Promise<AutoRecallResult> {
  try {
    const host = options.host ?? DEFAULT_HOOK_HOST;
    const input = readAutoRecallInput(value, host);
    // docs/design/hooks.md §2.1: checked before the configuration, credential, proxy or provider.
    if (input === undefined) return unusableInput(value, host);
    if (options.signal.aborted) return failed('timeout');
    if ((await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }])) !== undefined) return failed('permission');
    let opened;
    try {
      opened = await beforeAbort(openBinding(options.configFlag, options.env, options.factoryOptions ?? {}), options.signal);
    } catch (error) {
      // An unset credential is fixed in the environment, a wrong field in the file: the log tells them apart.
      return failed(isCredentialUnavailable(error) ? 'credential' : 'configuration');
    }
    if (opened === undefined) return failed('timeout');
    const { binding, provider } = opened;
    // A configuration other users can change must not pick the corpus (docs/design/hooks.md §7).
    if (await configWritableByOthers(binding.configPath, trustFacts())) return failed('untrusted-configuration');
    if (binding.version !== 2 || binding.autoRecall === undefined) return skipped('v1-config');
    if (!(await isInsideRepositoryRoot(input.cwd, binding.autoRecall.repositoryRoot))) return skipped('cwd-outside-root');
    const query = sanitizeQuery(input.submittedPrompt, binding.credential);
    if (query === '') return skipped('empty-after-sanitizing');
    if (options.signal.aborted) return failed('timeout');
    // The sanitized query goes in as it is: the MCP normalisation would trim it again (§2.3 step 9).
    const outcome = await runPreparedSearch(provider, query, { signal: options.signal, timeoutMs: binding.autoRecall.timeoutMs });
    if (outcome.status === 'invalid-input') return failed('invalid-input');
    if (outcome.status === 'failed') return failed(outcome.failure === undefined ? 'internal' : failureLabel(outcome.failure));
    if (outcome.itemCount === 0) return skipped('no-items');
    const answer = JSON.stringify({
      hookSpecificOutput: { hookEventName: HOOK_HOST_FACTS[host].promptEvent, additionalContext: outcome.rendered.text },
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
 * @param args `--config` (an absolute path, or undefined when absent) and `--host`, or invalid
 *   for any argument problem (then `{}` without reading stdin or the configuration).
 * @param io Streams, environment and process start.
 * @param logPath Absolute `--log` file, or undefined for the per-user log (docs/design/hooks.md §7, §7.1).
 * @returns 0, or 1 when stdout cannot be written; the log never changes either.
 */
export async function runAutoRecall(args: HookArguments<AutoRecallArguments>, io: HookIo, logPath?: string): Promise<number> {
  let result: AutoRecallResult = failed('invalid-arguments');
  try {
    if (args.valid) {
      const signal = hookBudgetSignal(io.startedAtMs);
      const stdin = await readHookStdin(io, signal);
      result = stdin.ok ? await autoRecallTraced(stdin.value, { configFlag: args.value.config, host: args.value.host, env: io.env, signal }) : failed(signal.aborted ? 'timeout' : 'invalid-input');
    }
  } catch {
    // docs/design/hooks.md §2.5: an unexpected exception is fail-open too.
    result = failed('internal');
  }
  const decidedAtMs = Date.now();
  const code = await writeHookStdout(io, result.answer);
  writeHookLogLine(logPath, io.env, hookLogLine('auto-recall', result.outcome, io.startedAtMs, decidedAtMs));
  return code;
}
