// The auto-recall Hook (`UserPromptSubmit`, docs/design/hooks.md §2): provenance from `submitted_prompt`
// only, repository-root binding, the sanitized query, one search within the 6500 ms budget,
// and fail-open `{}` for everything else. Never imports the MCP SDK or mcp/.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { withDeadline } from '../util/with-deadline.ts';
import { prepareRuntimeFetch } from '../runtime/runtime-fetch.ts';
import type { ConfigFlag } from '../config/locate.ts';
import type { ProviderFactoryOptions } from '../providers/types.ts';
import { missingPermission } from '../runtime/permissions.ts';
import { openBinding } from '../search/open-binding.ts';
import { runSearch } from '../search/run-search.ts';
import { beforeAbort, type HookArguments, hookBudgetSignal, type HookIo, readHookStdin, writeHookStdout } from './hook-io.ts';
import { DEFAULT_HOOK_HOST, HOOK_HOST_FACTS, type HookHost } from './hosts.ts';
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

function ownField(record: object, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? (record as Record<string, unknown>)[name] : undefined;
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
  try {
    const host = options.host ?? DEFAULT_HOOK_HOST;
    const input = readAutoRecallInput(value, host);
    // docs/design/hooks.md §2.1: checked before the configuration, credential, proxy or provider.
    if (input === undefined || options.signal.aborted) return NO_CONTEXT;
    if ((await missingPermission([{ name: 'read' }, { name: 'env' }, { name: 'net' }])) !== undefined) return NO_CONTEXT;
    const opened = await beforeAbort(openBinding(options.configFlag, options.env, options.factoryOptions ?? {}), options.signal);
    if (opened === undefined) return NO_CONTEXT;
    const { binding, provider } = opened;
    if (binding.version !== 2 || binding.autoRecall === undefined) return NO_CONTEXT;
    if (!(await isInsideRepositoryRoot(input.cwd, binding.autoRecall.repositoryRoot))) return NO_CONTEXT;
    const query = sanitizeQuery(input.submittedPrompt, binding.credential);
    if (query === '' || options.signal.aborted) return NO_CONTEXT;
    await prepareRuntimeFetch(); // the timeout starts when the request can be sent (docs/design/providers.md §1.4)
    const deadline = withDeadline(options.signal, binding.autoRecall.timeoutMs);
    let outcome: Awaited<ReturnType<typeof runSearch>>;
    try {
      outcome = await runSearch(provider, { query }, deadline.signal);
    } finally {
      deadline.dispose();
    }
    if (outcome.status !== 'ok' || outcome.itemCount === 0) return NO_CONTEXT;
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: HOOK_HOST_FACTS[host].promptEvent, additionalContext: outcome.rendered.text },
    });
  } catch {
    // docs/design/hooks.md §2.5: every failure is fail-open, with no detail anywhere.
    return NO_CONTEXT;
  }
}

/**
 * The `hook auto-recall` process run: budget from process start, stdin, one answer.
 *
 * @param args `--config` (an absolute path, or undefined when absent) and `--host`, or invalid
 *   for any argument problem (then `{}` without reading stdin or the configuration).
 * @param io Streams, environment and process start.
 * @returns 0, or 1 when stdout cannot be written.
 */
export async function runAutoRecall(args: HookArguments<AutoRecallArguments>, io: HookIo): Promise<number> {
  let answer = NO_CONTEXT;
  try {
    if (args.valid) {
      const signal = hookBudgetSignal(io.startedAtMs);
      const stdin = await readHookStdin(io, signal);
      if (stdin.ok) answer = await autoRecall(stdin.value, { configFlag: args.value.config, host: args.value.host, env: io.env, signal });
    }
  } catch {
    // docs/design/hooks.md §2.5: an unexpected exception is fail-open too.
    answer = NO_CONTEXT;
  }
  return writeHookStdout(io, answer);
}
