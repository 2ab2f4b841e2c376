// A real agent on a pseudo-terminal, driven by what it draws (agents.md §4, issue 29): util-linux
// `script` gives the command a terminal, the test reads the bytes drawn, answers the terminal
// queries a terminal emulator answers (cursor position, device attributes, keyboard protocol,
// colours), and types keys once the text it waits for is on the screen. The screen is the one
// xterm.js's headless terminal renders from those bytes: an agent that redraws only the cells
// that changed (Claude Code does) leaves a text on the screen that the byte stream never holds in
// one piece. Every wait is an event under the LIVENESS_MS guard; the guard only ends a run that
// would otherwise hang.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { Terminal } from '@xterm/headless';
import { LIVENESS_MS } from '../support/liveness.ts';
import type { ToolTier } from '../support/tool-tier.ts';

/** The gate of the terminal rows: util-linux `script` (Debian's Essential package bsdutils). */
export function terminalTier(name: string): ToolTier {
  const present = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  return { name, missing: present ? undefined : 'util-linux script (a pseudo-terminal) is not installed', remedy: 'apt-get install bsdutils' };
}

/** How long a declining key may go without effect before the person presses it again. */
const DECLINE_REPEAT_MS = 10_000;

const COLUMNS = 160;
const ROWS = 40;

/** Terminal queries and the answers of a plain 160×40 xterm-like emulator. */
const QUERY_ANSWERS: readonly (readonly [string, string])[] = [
  ['\x1b[6n', '\x1b[1;1R'],
  ['\x1b[c', '\x1b[?62c'],
  ['\x1b[?u', '\x1b[?0u'],
  ['\x1b]10;?', '\x1b]10;rgb:ffff/ffff/ffff\x1b\\'],
  ['\x1b]11;?', '\x1b]11;rgb:0000/0000/0000\x1b\\'],
];

/** The drawn bytes as text: control sequences removed, whitespace folded (wrapped lines join). */
export function plainText(drawn: string): string {
  return drawn
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/gu, ' ')
    .replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/gu, ' ')
    .replace(/\x1b[()][0-9A-Za-z]/gu, ' ')
    .replace(/\s+/gu, ' ');
}

/** The rendered lines of `terminal` (scrollback, then the visible rows), wrapped rows joined, whitespace folded. */
function renderedText(terminal: Terminal): string {
  const buffer = terminal.buffer.active;
  let text = '';
  for (let row = 0; row < buffer.length; row += 1) {
    const line = buffer.getLine(row);
    if (line === undefined) continue;
    text += `${line.isWrapped ? '' : ' '}${line.translateToString(true)}`;
  }
  return text.replace(/\s+/gu, ' ');
}

/** The visible rows of `terminal` as rendered, trailing blanks removed: the screen a failed wait shows. */
function visibleRows(terminal: Terminal): string {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let row = buffer.viewportY; row < buffer.viewportY + terminal.rows; row += 1) rows.push(buffer.getLine(row)?.translateToString(true) ?? '');
  return rows.join('\n').trimEnd();
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** One program on a pseudo-terminal. */
export interface TerminalSession {
  /** Every byte drawn so far, as UTF-8 text. */
  drawn(): string;
  /**
   * The text on the terminal now, as rendered (scrollback, then the visible rows; whitespace
   * folded): what a person reads, where `plainText(drawn())` is every text ever drawn.
   */
  screen(): string;
  /** The visible rows only, as rendered (whitespace folded): the state a person sees now. */
  visibleScreen(): string;
  /** Types `keys` (written to the terminal as a person's keystrokes). */
  type(keys: string): void;
  /**
   * Resolves with `probe`'s first defined value, polled as the screen changes; rejects when the
   * program exits first or after the liveness guard.
   */
  until<T>(what: string, probe: () => T | undefined): Promise<T>;
  /**
   * Types `keys` and resolves like `until`; while `probe` is still undefined and `stillAsking()`
   * holds, types them again every DECLINE_REPEAT_MS: a person pressing a key again that the UI
   * dropped while it was still drawing its prompt (seen once each for Codex's Esc and Claude
   * Code's "3. No" on a run of every row). Only for keys that decline and mean the same pressed
   * twice: a repeat can never approve, and the liveness guard still bounds the wait.
   */
  pressToDecline<T>(keys: string, what: string, probe: () => T | undefined, stillAsking: () => boolean): Promise<T>;
  /** Ends the program and everything it started (SIGKILL to the `script` process group). */
  close(): Promise<void>;
}

/**
 * Starts `command args` on a 160×40 pseudo-terminal below `cwd` with exactly `env`.
 *
 * @param command The program (run without a shell: every word is quoted).
 */
export function startTerminal(command: string, args: readonly string[], options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> }): TerminalSession {
  const line = `stty rows ${ROWS} cols ${COLUMNS} && exec ${[command, ...args].map(quote).join(' ')}`;
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-q', '-e', '-c', line, '/dev/null'], { cwd: options.cwd, env: { ...options.env }, stdio: 'pipe', detached: true });
  let drawn = '';
  const rendered = new Terminal({ cols: COLUMNS, rows: ROWS, scrollback: 10_000, allowProposedApi: true });
  let exited = false;
  const closed = new Promise<void>((resolve) => child.on('close', () => ((exited = true), resolve())));
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    drawn += text;
    rendered.write(chunk);
    for (const [query, answer] of QUERY_ANSWERS) if (text.includes(query)) child.stdin.write(answer);
  });
  const until = async <T>(what: string, probe: () => T | undefined): Promise<T> => {
    const deadline = Date.now() + LIVENESS_MS;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (exited || Date.now() > deadline)
        throw new Error(
          `no ${what} ${exited ? 'before the program exited' : 'within the liveness guard'}; the screen:\n${visibleRows(rendered)}\nthe last bytes drawn: ${plainText(drawn.slice(-1500))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    drawn: () => drawn,
    screen: () => renderedText(rendered),
    visibleScreen: () => visibleRows(rendered).replace(/\s+/gu, ' '),
    type: (keys) => void child.stdin.write(keys),
    until,
    pressToDecline(keys, what, probe, stillAsking) {
      child.stdin.write(keys);
      let again = Date.now() + DECLINE_REPEAT_MS;
      return until(what, () => {
        const value = probe();
        if (value === undefined && Date.now() >= again && stillAsking()) {
          child.stdin.write(keys);
          again = Date.now() + DECLINE_REPEAT_MS;
        }
        return value;
      });
    },
    async close() {
      if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      await closed;
      rendered.dispose();
    },
  };
}
