// Hook I/O (hooks.md §1, §2.4): stdin to EOF within 1 MiB, the budget counted from process
// start, stalled and oversized stdin destroyed, one stdout write.
import { describe, expect, test } from 'bun:test';
import { PassThrough, Writable } from 'node:stream';
import {
  beforeAbort,
  HOOK_BUDGET_MS,
  hookBudgetSignal,
  MAX_HOOK_STDIN_BYTES,
  readHookJson,
  writeHookAnswer,
} from '../../src/hooks/hook-io.ts';

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
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spent.aborted).toBe(true);
    expect(fresh.aborted).toBe(false);
  });
});

describe('writeHookAnswer()', () => {
  test('writes the text once, without a newline, and returns 0', async () => {
    const writes: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        callback();
      },
    });
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
});
