// The streams and environment a command runs with. Only main.ts builds one from `process`;
// tests build their own, so commands never read globals.
import type { Readable, Writable } from 'node:stream';

/** What a command receives instead of reading `process` itself. */
export interface Io {
  /** Standard input (MCP frames for `serve`, Hook JSON for `hook …`). */
  readonly stdin: Readable;
  /** Standard output: data only (MCP frames, Hook JSON, command output). */
  readonly stdout: Writable;
  /** Standard error: one-line messages for people and operator lines. */
  readonly stderr: Writable;
  /** The process environment; read with own-property lookups only. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Working directory of the process. */
  readonly cwd: string;
  /** Path of the running executable or runtime (`process.execPath`). */
  readonly execPath: string;
  /** Path of the ESM bundle when run as `node|deno … external-context.mjs`, else undefined. */
  readonly scriptPath: string | undefined;
  /** Milliseconds since the epoch at which the process started (Hook budgets count from it). */
  readonly startedAtMs: number;
  /** Whether stderr is a terminal (progress lines only appear on a TTY). */
  readonly stderrIsTty: boolean;
  /**
   * The process's own stdin and stdout file descriptors, set only by main.ts (and not on
   * Windows). The Hooks read and write these instead of `stdin`/`stdout`, whose stream
   * objects are costly to create (issue 10); every other command uses the streams.
   */
  readonly stdioFds?: { readonly stdin: number; readonly stdout: number } | undefined;
}

/** Writes one line (a trailing `\n` is added) to a stream. */
export function writeLine(stream: Writable, line: string): void {
  stream.write(`${line}\n`);
}

/** Writes `[external-context] <message>` to stderr, the one-line error form of every command. */
export function writeError(io: Io, message: string): void {
  writeLine(io.stderr, `[external-context] ${message}`);
}
