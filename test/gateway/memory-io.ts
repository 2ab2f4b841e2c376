// Test helper: an Io that collects stdout and stderr in memory, for run() in-process.
import { PassThrough, Writable } from 'node:stream';
import type { Io } from '../../src/cli/io.ts';

export interface MemoryIo {
  readonly io: Io;
  stdout(): string;
  stderr(): string;
}

export function memoryIo(env: Record<string, string> = {}): MemoryIo {
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
      env,
      cwd: process.cwd(),
      execPath: process.execPath,
      scriptPath: undefined,
      startedAtMs: Date.now(),
      stderrIsTty: false,
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
