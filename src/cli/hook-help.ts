// `--help` texts of `hook` and its three subcommands (docs/design/style.md, "CLI: dispatch, help, exit codes").
import { versionLine } from '../version.ts';

/** `hook --help`. */
export const HOOK_HELP = `${versionLine()}
Command Hooks for Qwen Code (default), Claude Code, Gemini CLI and Codex: auto-recall
(UserPromptSubmit; Gemini CLI BeforeAgent), write confirmation (PreToolUse; Gemini CLI
BeforeTool), and the settings fragment administrators put into the managed settings.

USAGE
  external-context hook auto-recall [--config <abs path>] [--host <host>] [--log <abs path>]
  external-context hook write-confirmation [--server-name <key>] [--host <host>] [--log <abs path>]
  external-context hook settings <auto-recall|write> [--host <host>] [--shell posix|powershell]
      [--executable <abs path>] [--config <abs path>] [--server-name <key>] [--log <abs path>]

OPTIONS
  --host <host>   qwen (default), claude, gemini or codex: the host's input, answer shapes and,
                  for settings, its format with the timeout in its unit (Qwen 8000, Claude Code
                  8 s, Gemini CLI 8000 ms, Codex 8 s).
  -h, --help      Show this help, or a subcommand's help with \`external-context hook <name> --help\`.

EXIT CODES
  Hook runs: 0 in every handled case (bad command lines included), 1 only when stdout cannot
  be written; never 2. hook settings: 0, or 2 on a usage error.

EXAMPLES
  external-context hook settings auto-recall --config /etc/external-context/auto-recall.json
  external-context hook settings auto-recall --host claude --config /etc/external-context/auto-recall.json
  external-context hook settings write --shell powershell --executable 'C:\\Program Files\\external-context\\external-context.exe'
`;

/** `hook auto-recall --help`. */
export const AUTO_RECALL_HELP = `${versionLine()}
UserPromptSubmit Hook: one search per user-submitted prompt (version 2 configuration), the
results injected as additional context. Reads one JSON object (at most 1048576 bytes) from
stdin and writes one JSON object to stdout: the context, or {} on any failure (fail-open).

USAGE
  external-context hook auto-recall [--config <abs path>] [--host <host>] [--log <abs path>]

OPTIONS
  --config <abs path>   Version 2 configuration (default: $QWEN_EXTERNAL_CONTEXT_CONFIG).
  --host <host>         qwen (default; reads submitted_prompt), claude or codex (prompt of
                        UserPromptSubmit), gemini (prompt of BeforeAgent; empty gives {}).
  --log <abs path>      Append one JSON line per run: time, outcome (injected with the item
                        count, skipped with the reason, failed with the class), durationMs.
                        Never the prompt, query or result. Created with mode 0600; a log that
                        cannot be written changes nothing. (default: the per-user log
                        $XDG_STATE_HOME/external-context/hook.log, else ~/.local/state/...,
                        64 KiB with one .1 rotation; EXTERNAL_CONTEXT_HOOK_LOG=<abs path> moves
                        it, =off turns it off; not on Deno)
  -h, --help            Show this help.

Budget: 6500 ms from process start for stdin, configuration and search; the search itself is
limited to autoRecall.timeoutMs (default 1500 ms). Any argument problem answers {}.

ENVIRONMENT
  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute configuration path when --config is not given.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied).

EXIT CODES
  0  every handled case, stdout {} or the context
  1  stdout could not be written

EXAMPLES
  echo '{"hook_event_name":"UserPromptSubmit","submitted_prompt":"release policy","cwd":"/repo"}' \\
    | external-context hook auto-recall --config /etc/external-context/auto-recall.json
`;

/** `hook write-confirmation --help`. */
export const WRITE_CONFIRMATION_HELP = `${versionLine()}
PreToolUse Hook for context_remember: shows the exact escaped memory text and asks before the
write runs; denies invalid requests, plan mode, unknown permission modes and every write no
person can confirm; passes ({}) any other tool. Reads no configuration or credential and makes
no network request.

USAGE
  external-context hook write-confirmation [--server-name <key>] [--host <host>] [--log <abs path>]

OPTIONS
  --server-name <key>   MCP server key, [A-Za-z0-9_-]{1,40}; the Hook handles the tool
                        mcp__<key>__context_remember (default: external-context; Gemini CLI:
                        mcp_<key>_context_remember; Codex: - in <key> becomes _).
  --host <host>         qwen (default), claude, gemini or codex: the host's event, permission
                        modes and answer shapes. Codex cannot ask: it defers to its own
                        approval only while /etc/codex/requirements.toml allows no reviewer
                        but the user, else denies. Gemini CLI: asks in an interactive
                        session only; headless (-p, --yolo without a terminal) it denies.
  --log <abs path>      Append one JSON line per run: time, outcome (pass, ask, or deny with
                        the reason), durationMs. Never the content. Created with mode 0600; a
                        log that cannot be written changes nothing. (default: the per-user
                        log, as for hook auto-recall)
  -h, --help            Show this help.

Stdin: one JSON object, at most 1048576 bytes, within 6500 ms of process start. Any argument
problem answers the invalid-request deny.

EXIT CODES
  0  every handled case (ask, deny or {})
  1  stdout could not be written

EXAMPLES
  external-context hook write-confirmation
  external-context hook write-confirmation --server-name ec
`;

/** `hook settings --help`. */
export const SETTINGS_HELP = `${versionLine()}
Print the settings fragment {"hooks": {...}} for one Hook in one host's format, to merge into
that host's administrator-owned settings:
  qwen (default)  Qwen Code system settings (QWEN_CODE_SYSTEM_SETTINGS_PATH)
  claude          Claude Code managed settings (/etc/claude-code/managed-settings.json)
  gemini          Gemini CLI system settings (/etc/gemini-cli/settings.json)
  codex           Codex managed configuration (/etc/codex/managed_config.toml), as TOML tables

USAGE
  external-context hook settings <auto-recall|write> [--host <host>] [--shell posix|powershell]
      [--executable <abs path>] [--config <abs path>] [--server-name <key>] [--log <abs path>]

OPTIONS
  --host <host>              qwen (default), claude, gemini or codex: that host's settings
                             format (Claude Code and Codex: timeout 8 in seconds; Gemini CLI:
                             BeforeAgent/BeforeTool, timeout 8000 in milliseconds). Always
                             JSON: for Codex that is hooks.json; its managed config.toml
                             takes the same keys as [[hooks.<event>]] and
                             [[hooks.<event>.hooks]] tables (contracts/examples/codex/).
  --shell posix|powershell   Shell the host runs the command with; paths are checked by its
                             rules, whatever the host (default: posix).
  --executable <abs path>    Executable the command starts (default: this executable, or the
                             runtime and bundle when run as the ESM bundle).
  --config <abs path>        auto-recall only: configuration passed with --config (default:
                             none; the Hook reads QWEN_EXTERNAL_CONTEXT_CONFIG).
  --server-name <key>        write only: MCP server key (default: external-context).
  --log <abs path>           Hook log file passed with --log; from the Deno bundle the command
                             also grants --allow-write to that file (default: none; the Hook
                             writes the per-user log, except on Deno, which logs only with
                             --log).
  -h, --help                 Show this help.

The Hook timeout is 8 s in the host's unit: 8000 for Qwen Code (8 s on every build: 0.24.4
reads 1000 or more as legacy milliseconds, older builds read milliseconds) and Gemini CLI, 8
for Claude Code and Codex. Regenerate a fragment per host; never copy one across.

EXIT CODES
  0  fragment printed
  2  usage error

EXAMPLES
  external-context hook settings auto-recall --executable /opt/external-context/bin/external-context \\
    --config /etc/external-context/auto-recall.json
  external-context hook settings write --host claude --executable /opt/external-context/bin/external-context
  external-context hook settings write --host gemini
  external-context hook settings write --host codex
  external-context hook settings write --shell powershell \\
    --executable 'C:\\Program Files\\external-context\\external-context.exe'
`;
