// Whether a person will confirm a context_remember on the hosts whose Hook input does not say so
// (docs/design/hooks.md §6.2): Codex (its `permission_mode` "default" is also sent when its
// automatic reviewer model approves) and Gemini CLI (no mode and no session kind in its input).
// Each check reads what only the administrator or the host process controls, and fails closed:
// whatever cannot be read or recognized means "no person".
import { readFileSync, readlinkSync, statSync } from 'node:fs';
import type { HookHost } from './hosts.ts';

/** The Codex requirements file: the layer Codex enforces over every user setting (Linux, macOS). */
export const CODEX_REQUIREMENTS_PATH = '/etc/codex/requirements.toml';

/** Largest requirements file read, in bytes. */
const MAX_REQUIREMENTS_BYTES = 65_536;

/** The one accepted form of the reviewer rule: a top-level line, as the shipped example has it. */
const REVIEWERS_USER_ONLY = /^allowed_approvals_reviewers\s*=\s*\[\s*"user"\s*\]\s*(?:#.*)?$/u;

/**
 * Whether Codex's requirements let only a person review approvals: `/etc/codex/requirements.toml`
 * is a regular file owned by root that no one else can write, and its top level (before any
 * `[table]`) sets `allowed_approvals_reviewers = ["user"]` on one line, and sets that key nowhere
 * else. Codex then refuses the automatic reviewer (`--approve-for-me`, `approvals_reviewer =
 * "auto_review"`) and falls back to the user.
 *
 * @param file The requirements path (tests pass another).
 * @param ownerUid The owner the file must have (root; tests pass their own).
 */
export function codexReviewerIsPerson(file: string = CODEX_REQUIREMENTS_PATH, ownerUid = 0): boolean {
  try {
    const stats = statSync(file);
    if (!stats.isFile() || stats.uid !== ownerUid || (stats.mode & 0o022) !== 0 || stats.size > MAX_REQUIREMENTS_BYTES) return false;
    const lines = readFileSync(file, 'utf8')
      .split(/\r?\n/u)
      .map((line) => line.trim());
    const tableAt = lines.findIndex((line) => line.startsWith('['));
    const topLevel = tableAt < 0 ? lines : lines.slice(0, tableAt);
    const mentions = lines.filter((line) => line.includes('allowed_approvals_reviewers'));
    return mentions.length === 1 && topLevel.some((line) => REVIEWERS_USER_ONLY.test(line));
  } catch {
    return false;
  }
}

/** Gemini CLI 0.61.0 options that take one value as the next word (so that word is no query). */
const GEMINI_VALUE_FLAGS = new Set(['-m', '--model', '--approval-mode', '-o', '--output-format', '-r', '--resume', '--session-file', '--session-id', '--delete-session', '-w', '--worktree']);

/** Gemini CLI 0.61.0 array options: every following word up to the next option is a value. */
const GEMINI_ARRAY_FLAGS = new Set(['-e', '--extensions', '--allowed-mcp-server-names', '--allowed-tools', '--include-directories', '--policy', '--admin-policy']);

/** Whether a file descriptor of a process is a terminal (its link names a tty device). */
function isTerminal(pid: number, fd: number, procRoot: string): boolean {
  try {
    return /^\/dev\/(?:pts\/\d+|tty\w*)$/u.test(readlinkSync(`${procRoot}/${pid}/fd/${fd}`));
  } catch {
    return false;
  }
}

/**
 * Whether the Gemini CLI that started this Hook is an interactive session, where a person
 * answers an `ask`: Gemini CLI's own rule (`isHeadlessMode`), read from the parent process on
 * Linux. Interactive means: `CI` and `GITHUB_ACTIONS` are not `true`, the parent's stdin and
 * stdout are terminals, and its arguments have no `-p`/`--prompt` and no query word
 * (`-i`/`--prompt-interactive` starts a session with a first prompt). Anything that cannot be
 * read (another platform, no `/proc`) counts as headless.
 *
 * @param env The Hook's environment (Gemini CLI passes its own on).
 * @param parentPid The Gemini CLI process (the Hook command `exec`s the executable in its shell),
 *   or undefined when unknown (then headless).
 * @param procRoot `/proc` (tests pass a fake tree).
 */
export function geminiSessionIsInteractive(env: Readonly<Record<string, string | undefined>>, parentPid: number | undefined, procRoot = '/proc'): boolean {
  if (parentPid === undefined) return false;
  if (env['CI'] === 'true' || env['GITHUB_ACTIONS'] === 'true') return false;
  let argv: string[];
  try {
    argv = readFileSync(`${procRoot}/${parentPid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return false;
  }
  if (!isTerminal(parentPid, 0, procRoot) || !isTerminal(parentPid, 1, procRoot)) return false;
  // argv[0] is node, then node's own options (Gemini CLI's relaunch adds a heap limit), then the
  // gemini script; the rest are Gemini CLI's own arguments.
  const scriptAt = argv.findIndex((word, at) => at > 0 && !word.startsWith('-'));
  if (scriptAt < 0) return false;
  const words = argv.slice(scriptAt + 1);
  let interactivePrompt = false;
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at]!;
    if (word === '-p' || word === '--prompt' || word.startsWith('--prompt=')) return false;
    if (word === '-i' || word === '--prompt-interactive' || word.startsWith('--prompt-interactive=')) {
      interactivePrompt = true;
      if (word === '-i' || word === '--prompt-interactive') at += 1;
      continue;
    }
    if (GEMINI_VALUE_FLAGS.has(word)) {
      at += 1;
      continue;
    }
    if (GEMINI_ARRAY_FLAGS.has(word)) {
      while (at + 1 < words.length && !words[at + 1]!.startsWith('-')) at += 1;
      continue;
    }
    if (word === '--') return interactivePrompt;
    if (!word.startsWith('-') && !interactivePrompt) return false; // a query word: headless
  }
  return true;
}

/**
 * Whether a person will confirm the write on `host`, for the hosts whose Hook input does not
 * say so; Qwen Code and Claude Code tell by `permission_mode` (true here).
 */
export function personWillConfirm(host: HookHost, env: Readonly<Record<string, string | undefined>>, parentPid: number | undefined): boolean {
  if (host === 'codex') return codexReviewerIsPerson();
  if (host === 'gemini') return geminiSessionIsInteractive(env, parentPid);
  return true;
}
