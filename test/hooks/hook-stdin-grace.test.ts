// The stdin grace (hooks.md §1): a budget that start-up already spent (a loaded machine) does
// not turn input the host has written into the invalid request. Measured before this rule,
// the Node.js bundle niced next to a CPU hog answered write-confirmation's invalid-request deny
// to 10 of 10 valid inputs, each with a log durationMs of 8-35 s: the budget ran out before the
// first read. Here the budget is spent by construction (its start lies 7 s in the past), so the
// outcome follows from events alone; only the stalled case waits, for the grace itself.
import { afterAll, describe, expect, test } from 'bun:test';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { hookBudgetSignal, type HookIo, readHookStdin } from '../../src/hooks/hook-io.ts';
import { STDIN_GRACE_MS, STDIN_LATE_MS, stdinDeadline } from '../../src/hooks/stdin-deadline.ts';
import { recordingWritable } from '../support/recording-writable.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

const INPUT = '{"hook_event_name":"PreToolUse","tool_input":{"content":"ü🙂"}}';
const spentBudget = (): AbortSignal => hookBudgetSignal(Date.now() - 7000);

function streamIo(stdin: PassThrough): HookIo {
  return { stdin, stdout: recordingWritable().stream, env: {}, startedAtMs: Date.now() - 7000 };
}

describe('readHookStdin() with a budget start-up already spent', () => {
  test('reads complete input from a descriptor', async () => {
    const file = path.join((await makeTempDir('ec-hook-grace-')).path, 'stdin');
    writeFileSync(file, INPUT);
    const fd = openSync(file, 'r');
    try {
      const io: HookIo = { ...streamIo(new PassThrough()), stdioFds: { stdin: fd, stdout: 1 } };
      expect(await readHookStdin(io, spentBudget())).toEqual({ ok: true, value: JSON.parse(INPUT) });
    } finally {
      closeSync(fd);
    }
  });

  test('reads complete input from a stream, also when it arrives in chunks after the read began', async () => {
    const stdin = new PassThrough();
    const reading = readHookStdin(streamIo(stdin), spentBudget());
    const bytes = Buffer.from(INPUT);
    stdin.write(bytes.subarray(0, 5));
    stdin.end(bytes.subarray(5));
    expect(await reading).toEqual({ ok: true, value: JSON.parse(INPUT) });
  });

  test('still gives up on a stalled stdin once the grace is over (a liveness bound, not a timing assertion)', async () => {
    const stdin = new PassThrough();
    stdin.write('{"hook_event_name":');
    expect(await readHookStdin(streamIo(stdin), spentBudget())).toEqual({ ok: false });
    expect(stdin.destroyed).toBe(true);
  });
});

describe('stdinDeadline()', () => {
  test('a budget that aborts while the Hook runs ends reading at once, once the first-read grace is over', () => {
    expect(STDIN_GRACE_MS).toBe(2000);
    const budget = new AbortController();
    const deadline = stdinDeadline(budget.signal, Date.now() + 60_000, 0);
    expect(deadline.signal.aborted).toBe(false);
    budget.abort();
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  test('a budget spent before the first read waits for the grace', () => {
    const deadline = stdinDeadline(AbortSignal.abort(), Date.now() + 60_000);
    expect(deadline.signal.aborted).toBe(false);
    deadline.dispose();
  });

  test('a budget expiry noticed late (the process stopped or starved) starts a new grace; one noticed on time does not', () => {
    expect(STDIN_LATE_MS).toBe(500);
    // Reading began a minute ago, so the first-read grace is over in both cases.
    const late = stdinDeadline(AbortSignal.abort(), Date.now() - 10_000, STDIN_GRACE_MS, Date.now() - 60_000);
    expect(late.signal.aborted).toBe(false);
    late.dispose();
    const onTime = stdinDeadline(AbortSignal.abort(), Date.now(), STDIN_GRACE_MS, Date.now() - 60_000);
    expect(onTime.signal.aborted).toBe(true);
    onTime.dispose();
  });
});
