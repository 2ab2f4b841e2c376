// The streams and environment a command runs with. Only main.ts builds one from `process`;
// tests build their own, so commands never read globals.
// A namespace import: a compiled Bun executable links named imports of node:fs about 1 ms of
// CPU slower at start (issue 18; test/bench/startup-breakdown.ts).
import * as fs from 'node:fs';
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
  /** The parent process id (`process.ppid`); the write-confirmation Hook reads its host from it (docs/design/hooks.md §6.2). */
  readonly parentPid?: number | undefined;
  /** Whether stderr is a terminal (progress lines only appear on a TTY). */
  readonly stderrIsTty: boolean;
  /**
   * The process's own stdio file descriptors, set only by main.ts (not on Windows) and only
   * while no stdio stream object exists. The Hooks read and write these instead of
   * `stdin`/`stdout`, and `writeOut`/`writeErr` write through them, because creating a
   * stream object costs a compiled Bun executable more than the whole `--version` run
   * (issues 10 and 18). Once a command touched a stream, its text goes through the streams,
   * so the order of writes is kept.
   */
  readonly stdioFds?: { readonly stdin: number; readonly stdout: number; readonly stderr?: number } | undefined;
}

/** Writes one line (a trailing `\n` is added) to a stream. */
export function writeLine(stream: Writable, line: string): void {
  stream.write(`${line}\n`);
}

/**
 * Writes `text` synchronously to `fd`; what a full non-blocking descriptor (`EAGAIN`) or a
 * failing write (`EPIPE`, `EBADF`) leaves unwritten goes to the stream instead, which
 * queues it or reports the failure exactly as it would have without the descriptor.
 */
function writeThroughFd(fd: number, text: string, stream: () => Writable): void {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  try {
    while (offset < bytes.byteLength) offset += fs.writeSync(fd, bytes, offset, bytes.byteLength - offset);
  } catch {
    stream().write(bytes.subarray(offset));
  }
}

/**
 * Writes command output to stdout: through `io.stdioFds` while set (no stream object is
 * created, issue 18), else through `io.stdout`.
 */
export function writeOut(io: Io, text: string): void {
  const fd = io.stdioFds?.stdout;
  if (fd === undefined) io.stdout.write(text);
  else writeThroughFd(fd, text, () => io.stdout);
}

/** Writes text for a person to stderr: through `io.stdioFds` while set, else `io.stderr`. */
export function writeErr(io: Io, text: string): void {
  const fd = io.stdioFds?.stderr;
  if (fd === undefined) io.stderr.write(text);
  else writeThroughFd(fd, text, () => io.stderr);
}

/** Writes `[external-context] <message>` to stderr, the one-line error form of every command. */
export function writeError(io: Io, message: string): void {
  writeErr(io, `[external-context] ${message}\n`);
}
