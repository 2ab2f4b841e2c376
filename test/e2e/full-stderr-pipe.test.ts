// A usage error into a full non-blocking stderr pipe (issue 25 §5): the fd write fails with
// EAGAIN, the line goes to the stderr stream's queue, and the process must not exit before the
// queue is written. Node.js lost the line that way (exit 2, nothing on stderr); the executable
// and Deno waited. Linux only: the pipe is a FIFO made with mkfifo, so both ends can be opened
// non-blocking from here and the write end handed to the child as its stderr.
import { afterAll, describe, expect, test } from 'bun:test';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { denoLauncher, nodeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath, requireBuilt } from '../support/paths.ts';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'ec-full-stderr-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const USAGE_LINE = '[external-context] Unknown option --bogus. Run "external-context check --help".\n';
/** Given to a wrong behaviour (exiting without the line) to show before the pipe is read; the pass never depends on it. */
const HEAD_START_MS = 2000;

async function usageErrorIntoFullPipe(command: string, args: readonly string[], name: string): Promise<{ code: number | null; tail: string }> {
  const fifo = path.join(dir, name);
  execFileSync('mkfifo', [fifo]);
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writer = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  const filler = new Uint8Array(4096).fill(0x2e);
  for (;;) {
    try {
      fs.writeSync(writer, filler);
    } catch {
      break; // EAGAIN: the pipe is full
    }
  }
  const child = spawn(command, [...args, 'check', '--bogus'], { stdio: ['ignore', 'ignore', writer], env: cleanEnv({ DENO_NO_UPDATE_CHECK: '1' }) });
  fs.closeSync(writer);
  let code: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', (exitCode) => resolve(void (code = exitCode))));
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, HEAD_START_MS))]);
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65_536);
  // Read until the child has exited and the pipe is empty (EAGAIN after exit) or at its end.
  for (let guard = 0; guard < 3000; guard++) {
    let read: number;
    try {
      read = fs.readSync(reader, buffer);
    } catch {
      if (code !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  await exited;
  fs.closeSync(reader);
  return { code: code ?? null, tail: Buffer.concat(chunks).toString('utf8').slice(-USAGE_LINE.length) };
}

const STDERR_DRAIN = proves('stderr-drain', ['executable', 'node-bundle', 'deno-bundle']);

describe.skipIf(process.platform !== 'linux')('a usage error into a full non-blocking stderr pipe', () => {
  const runs = [
    ['executable', 'executable', requireBuilt(exePath()), []],
    ['node bundle', 'node-bundle', nodeLauncher().command, nodeLauncher().args],
    ['deno bundle', 'deno-bundle', denoLauncher().command, denoLauncher().args],
  ] as const;
  for (const [label, id, command, args] of runs) {
    test(`${label}: the one line arrives once the pipe is read, and the exit code is 2 ${STDERR_DRAIN(id)}`, async () => {
      expect(await usageErrorIntoFullPipe(command, args, label.replace(' ', '-'))).toEqual({ code: 2, tail: USAGE_LINE });
    }, 60_000);
  }
});
