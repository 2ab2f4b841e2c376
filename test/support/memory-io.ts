// An Io whose stdout and stderr are collected in memory, for driving commands through run()
// in-process (the shared form of what corpus, gateway, check, probe and examples tests built).
import { PassThrough } from 'node:stream';
import type { Io } from '../../src/cli/io.ts';
import { recordingWritable } from './recording-writable.ts';

/** An Io plus what was written to it. */
export interface MemoryIo {
  readonly io: Io;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/** What differs between tests; the rest is fixed (no TTY, no bundle script, started now). */
export interface MemoryIoOptions {
  /** The complete environment (default empty). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The working directory (default `process.cwd()`). */
  readonly cwd?: string;
  /** Whether stderr claims to be a terminal (default false). */
  readonly stderrIsTty?: boolean;
  /** What stdin holds before it ends (default: nothing). */
  readonly stdin?: string | Uint8Array;
}

/** Builds an Io with the given environment, working directory and stdin (default empty). */
export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const out = recordingWritable();
  const err = recordingWritable();
  const stdin = new PassThrough();
  stdin.end(options.stdin);
  return {
    io: {
      stdin,
      stdout: out.stream,
      stderr: err.stream,
      env: options.env ?? {},
      cwd: options.cwd ?? process.cwd(),
      execPath: process.execPath,
      scriptPath: undefined,
      startedAtMs: Date.now(),
      stderrIsTty: options.stderrIsTty ?? false,
    },
    stdout: out.text,
    stderr: err.text,
  };
}

/** What a command run in memory returned and wrote. */
export interface CapturedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command's `run(args, io)` (or the dispatcher's) with a fresh memory Io.
 *
 * @param run The command entry point.
 * @param args The command line after the program name.
 * @param options The Io's environment, working directory and TTY flag.
 * @returns The exit code and everything written to stdout and stderr.
 */
export async function runInMemory(run: (args: string[], io: Io) => Promise<number>, args: readonly string[], options: MemoryIoOptions = {}): Promise<CapturedRun> {
  const memory = memoryIo(options);
  const code = await run([...args], memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}
