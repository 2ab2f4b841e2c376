// Hook I/O (hooks.md §1, §2.4): stdin to EOF within 1 MiB, the budget counted from process
// start, stalled and oversized stdin destroyed, one stdout write; the same through raw file
// descriptors (regular files stand in for the process's pipes, which test/cli/hook.test.ts
// drives for real).
import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import {
  beforeAbort,
  HOOK_BUDGET_MS,
  HOOK_EXIT_MARGIN_MS,
  hookBudgetDelayMs,
  hookBudgetSignal,
  hookDeadlineMs,
  type HookIo,
  MAX_HOOK_STDIN_BYTES,
  readHookJson,
  readHookJsonFromFd,
  readHookStdin,
  writeHookAnswer,
  writeHookAnswerToFd,
  writeHookStdout,
} from '../../src/hooks/hook-io.ts';
import { recordingWritable } from '../support/recording-writable.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

const NEVER = new AbortController().signal;

describe('readHookJson()', () => {
  test('parses one JSON value read to EOF across chunks, including a multi-byte character split between chunks', async () => {
    const stdin = new PassThrough();
    const reading = readHookJson(stdin, NEVER);
    const bytes = Buffer.from('{"a":"ü🙂"}');
    stdin.write(bytes.subarray(0, 7));
    stdin.end(bytes.subarray(7));
    expect(await reading).toEqual({ ok: true, value: { a: 'ü🙂' } });
  });

  test('accepts exactly 1048576 bytes and rejects one more, destroying the stream', async () => {
    expect(MAX_HOOK_STDIN_BYTES).toBe(1048576);
    const exact = `"${'a'.repeat(MAX_HOOK_STDIN_BYTES - 2)}"`;
    const ok = new PassThrough();
    const reading = readHookJson(ok, NEVER);
    ok.end(exact);
    expect((await reading).ok).toBe(true);

    const over = new PassThrough();
    const rejected = readHookJson(over, NEVER);
    over.write(exact);
    over.write('x');
    expect(await rejected).toEqual({ ok: false });
    expect(over.destroyed).toBe(true);
  });

  test('invalid JSON, invalid UTF-8 and empty input are not usable', async () => {
    for (const body of [Buffer.from('{'), Buffer.from([0xc3, 0x28]), Buffer.alloc(0)]) {
      const stdin = new PassThrough();
      const reading = readHookJson(stdin, NEVER);
      stdin.end(body);
      expect(await reading).toEqual({ ok: false });
    }
  });

  test('a stalled stdin is destroyed when the budget signal aborts', async () => {
    const stdin = new PassThrough();
    const controller = new AbortController();
    const reading = readHookJson(stdin, controller.signal);
    stdin.write('{"hook_event_name":');
    controller.abort();
    expect(await reading).toEqual({ ok: false });
    expect(stdin.destroyed).toBe(true);
  });

  test('an already spent budget never reads', async () => {
    const stdin = new PassThrough();
    expect(await readHookJson(stdin, hookBudgetSignal(Date.now() - HOOK_BUDGET_MS - 1))).toEqual({ ok: false });
    expect(stdin.destroyed).toBe(true);
  });

  test('a stream error is not usable and never throws', async () => {
    const stdin = new PassThrough();
    const reading = readHookJson(stdin, NEVER);
    stdin.destroy(new Error('EIO'));
    expect(await reading).toEqual({ ok: false });
  });
});

describe('hookBudgetSignal()', () => {
  test('counts 6500 ms from process start, not from the call: a spent budget aborts, a fresh one does not', async () => {
    expect(HOOK_BUDGET_MS).toBe(6500);
    const spent = hookBudgetSignal(Date.now() - 7000);
    const fresh = hookBudgetSignal(Date.now());
    // The spent budget aborts at once or on its timer's first turn: wait for the event, not a
    // fixed delay (a hang here is caught by the test timeout).
    if (!spent.aborted) await new Promise((resolve) => spent.addEventListener('abort', resolve, { once: true }));
    expect(spent.aborted).toBe(true);
    expect(fresh.aborted).toBe(false);
  });
});

describe('hookDeadlineMs()', () => {
  test("is the 6500 ms budget less each runtime's measured exit margin (hooks.md §2.4)", () => {
    expect(HOOK_EXIT_MARGIN_MS).toEqual({ bun: 200, node: 150, deno: 250 });
    expect([hookDeadlineMs('bun'), hookDeadlineMs('node'), hookDeadlineMs('deno')]).toEqual([6300, 6350, 6250]);
    expect(hookDeadlineMs()).toBe(hookDeadlineMs('bun'));
  });

  test('the wait until the deadline counts from process start: 6300 ms on the executable at start, 0 once past', () => {
    expect(hookBudgetDelayMs(1_000, hookDeadlineMs('bun'), 1_000)).toBe(6300);
    expect(hookBudgetDelayMs(1_000, hookDeadlineMs('deno'), 3_000.5)).toBe(4250);
    expect(hookBudgetDelayMs(1_000, hookDeadlineMs('node'), 1_000 + 7_000)).toBe(0);
  });
});

describe('writeHookAnswer()', () => {
  test('writes the text once, without a newline, and returns 0', async () => {
    const { stream: stdout, writes } = recordingWritable();
    expect(await writeHookAnswer(stdout, '{}')).toBe(0);
    expect(writes).toEqual(['{}']);
  });

  test('returns 1 when the write fails', async () => {
    const stdout = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('ENOSPC'));
      },
    });
    expect(await writeHookAnswer(stdout, '{}')).toBe(1);
  });
});

describe('beforeAbort()', () => {
  test('resolves with the value, or with undefined once the signal aborts', async () => {
    expect(await beforeAbort(Promise.resolve(3), NEVER)).toBe(3);
    const controller = new AbortController();
    const pending = beforeAbort(new Promise<number>(() => undefined), controller.signal);
    controller.abort();
    expect(await pending).toBeUndefined();
    const late = Promise.reject(new Error('late'));
    expect(await beforeAbort(late, AbortSignal.abort())).toBeUndefined();
  });

  test('beforeAbort() passes a rejection of the work through while the signal has not aborted', async () => {
    await expect(beforeAbort(Promise.reject(new Error('work failed')), NEVER)).rejects.toThrow('work failed');
  });
});

/** Opens a new file holding `content` for reading; the descriptor is closed after `use`. */
async function withReadFd<T>(content: string | Uint8Array, use: (fd: number) => Promise<T>): Promise<T> {
  const file = path.join((await makeTempDir('ec-hook-fd-')).path, 'stdin');
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  try {
    return await use(fd);
  } finally {
    closeSync(fd);
  }
}

describe('readHookJsonFromFd()', () => {
  test('parses one JSON value read to EOF, multi-byte characters included', async () => {
    expect(await withReadFd('{"a":"ü🙂"}', (fd) => readHookJsonFromFd(fd, NEVER))).toEqual({ ok: true, value: { a: 'ü🙂' } });
  });

  test('accepts exactly 1048576 bytes across several reads and rejects one more', async () => {
    const exact = `"${'a'.repeat(MAX_HOOK_STDIN_BYTES - 2)}"`;
    expect((await withReadFd(exact, (fd) => readHookJsonFromFd(fd, NEVER))).ok).toBe(true);
    expect(await withReadFd(`${exact} `, (fd) => readHookJsonFromFd(fd, NEVER))).toEqual({ ok: false });
  });

  test('invalid JSON, invalid UTF-8 and empty input are not usable', async () => {
    for (const body of [Buffer.from('{'), Buffer.from([0xc3, 0x28]), Buffer.alloc(0)]) {
      expect(await withReadFd(body, (fd) => readHookJsonFromFd(fd, NEVER))).toEqual({ ok: false });
    }
  });

  test('an aborted budget never reads, and a closed descriptor is not usable', async () => {
    expect(await withReadFd('{}', (fd) => readHookJsonFromFd(fd, AbortSignal.abort()))).toEqual({ ok: false });
    const fd = await withReadFd('{}', async (open) => open);
    expect(await readHookJsonFromFd(fd, NEVER)).toEqual({ ok: false });
  });
});

describe('writeHookAnswerToFd()', () => {
  test('writes the text once, without a newline, and returns 0', async () => {
    const file = path.join((await makeTempDir('ec-hook-fd-')).path, 'stdout');
    const fd = openSync(file, 'w');
    try {
      expect(await writeHookAnswerToFd(fd, '{"a":"ü🙂"}')).toBe(0);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"a":"ü🙂"}');
  });

  test('returns 1 when the descriptor cannot be written', async () => {
    const file = path.join((await makeTempDir('ec-hook-fd-')).path, 'read-only');
    writeFileSync(file, '');
    const fd = openSync(file, 'r');
    try {
      expect(await writeHookAnswerToFd(fd, '{}')).toBe(1);
    } finally {
      closeSync(fd);
    }
  });
});

describe('readHookStdin() and writeHookStdout()', () => {
  test('use the descriptors when stdioFds is set and never touch the streams', async () => {
    const dir = (await makeTempDir('ec-hook-fd-')).path;
    writeFileSync(path.join(dir, 'stdin'), '{"from":"fd"}');
    const stdin = openSync(path.join(dir, 'stdin'), 'r');
    const stdout = openSync(path.join(dir, 'stdout'), 'w');
    const untouchable = (): never => {
      throw new Error('a stream was used');
    };
    const io = {
      get stdin() {
        return untouchable();
      },
      get stdout() {
        return untouchable();
      },
      env: {},
      startedAtMs: Date.now(),
      stdioFds: { stdin, stdout },
    } satisfies HookIo;
    try {
      expect(await readHookStdin(io, NEVER)).toEqual({ ok: true, value: { from: 'fd' } });
      expect(await writeHookStdout(io, '{}')).toBe(0);
    } finally {
      closeSync(stdin);
      closeSync(stdout);
    }
    expect(readFileSync(path.join(dir, 'stdout'), 'utf8')).toBe('{}');
  });

  test('use the streams when stdioFds is absent', async () => {
    const stdin = new PassThrough();
    const { stream: stdout, writes } = recordingWritable();
    const io: HookIo = { stdin, stdout, env: {}, startedAtMs: Date.now() };
    const reading = readHookStdin(io, NEVER);
    stdin.end('{"from":"stream"}');
    expect(await reading).toEqual({ ok: true, value: { from: 'stream' } });
    expect(await writeHookStdout(io, '{}')).toBe(0);
    expect(writes).toEqual(['{}']);
  });
});
