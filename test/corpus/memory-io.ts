// Test helper: an Io whose stdout and stderr are collected in memory, for driving commands
// through run() in-process.
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../../src/cli/io.ts';

/** An Io plus what was written to it. */
export interface MemoryIo {
  readonly io: Io;
  stdout(): string;
  stderr(): string;
}

/** Builds an Io with the given environment and working directory; stdin is empty. */
export function memoryIo(options: { env?: Record<string, string>; cwd?: string; stderrIsTty?: boolean } = {}): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (target: string[]): Writable =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        target.push(String(chunk));
        callback();
      },
    });
  const stdin = new PassThrough();
  stdin.end();
  return {
    io: {
      stdin,
      stdout: sink(out),
      stderr: sink(err),
      env: options.env ?? {},
      cwd: options.cwd ?? process.cwd(),
      execPath: process.execPath,
      scriptPath: undefined,
      startedAtMs: Date.now(),
      stderrIsTty: options.stderrIsTty ?? false,
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
