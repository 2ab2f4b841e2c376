// The coding agents whose command Hooks the executable answers (docs/design/hooks.md §6): for
// each host, the event names, the field that carries the user's prompt, the MCP tool name it
// gives context_remember, and the Hook timeout in that host's own unit. Pure data, no I/O.
import { rememberToolName } from './server-name.ts';

/** The hosts `--host` accepts; `qwen` is the default. */
export const HOOK_HOSTS = ['qwen', 'claude', 'gemini', 'codex'] as const;

/** One host of {@link HOOK_HOSTS}. */
export type HookHost = (typeof HOOK_HOSTS)[number];

/** The default `--host`. */
export const DEFAULT_HOOK_HOST: HookHost = 'qwen';

/** What differs between hosts for the two Hooks and their settings (docs/design/hooks.md §6). */
export interface HookHostFacts {
  /** The event auto-recall answers: `UserPromptSubmit`, or Gemini CLI's `BeforeAgent`. */
  readonly promptEvent: 'UserPromptSubmit' | 'BeforeAgent';
  /**
   * The input field holding the text the user submitted: Qwen's provenance field
   * `submitted_prompt` (its `prompt` is never read), `prompt` elsewhere.
   */
  readonly promptField: 'submitted_prompt' | 'prompt';
  /** The event write confirmation answers: `PreToolUse`, or Gemini CLI's `BeforeTool`. */
  readonly toolEvent: 'PreToolUse' | 'BeforeTool';
  /** The name the host gives `context_remember` of server `serverName` in the Hook input. */
  readonly rememberToolName: (serverName: string) => string;
  /** The Hook timeout written into settings, in {@link timeoutUnit}: 8 s on every host. */
  readonly timeout: number;
  /** The unit the host reads `timeout` in. */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
}

/**
 * The per-host facts, verified against Qwen Code 0.24.4, Claude Code 2.1.332, Gemini CLI 0.61.0
 * and Codex 0.169.0.
 *
 * Qwen's 8000 is read as 8 s by 0.24.4 (values of 1000 or more are legacy milliseconds) and as
 * 8000 ms by older builds (docs/design/hooks.md §5); Claude Code and Codex read seconds, Gemini
 * CLI milliseconds. A fragment copied to another host is therefore regenerated, never edited.
 */
export const HOOK_HOST_FACTS: Readonly<Record<HookHost, HookHostFacts>> = {
  qwen: { promptEvent: 'UserPromptSubmit', promptField: 'submitted_prompt', toolEvent: 'PreToolUse', rememberToolName, timeout: 8000, timeoutUnit: 'milliseconds' },
  claude: { promptEvent: 'UserPromptSubmit', promptField: 'prompt', toolEvent: 'PreToolUse', rememberToolName, timeout: 8, timeoutUnit: 'seconds' },
  // Gemini CLI names an MCP tool `mcp_<server>_<tool>` (one underscore).
  gemini: {
    promptEvent: 'BeforeAgent',
    promptField: 'prompt',
    toolEvent: 'BeforeTool',
    rememberToolName: (serverName) => `mcp_${serverName}_context_remember`,
    timeout: 8000,
    timeoutUnit: 'milliseconds',
  },
  // Codex names an MCP tool `mcp__<server>__<tool>` with `-` in the server key turned into `_`.
  codex: {
    promptEvent: 'UserPromptSubmit',
    promptField: 'prompt',
    toolEvent: 'PreToolUse',
    rememberToolName: (serverName) => rememberToolName(serverName.replaceAll('-', '_')),
    timeout: 8,
    timeoutUnit: 'seconds',
  },
};

/** Whether a `--host` value names a supported host. */
export function isHookHost(value: string): value is HookHost {
  return (HOOK_HOSTS as readonly string[]).includes(value);
}
