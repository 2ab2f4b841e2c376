// withDeadline(): a caller's signal bounded by a timer, strongly held so that garbage collection
// cannot lose the timeout (nodejs/node#57736, which AbortSignal.any + AbortSignal.timeout hit).
import { expect, test } from 'bun:test';
import { withDeadline } from '../../src/util/with-deadline.ts';

function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

test('withDeadline() aborts with a TimeoutError DOMException after a full GC, with or without a parent', async () => {
  for (const parent of [new AbortController().signal, undefined]) {
    const deadline = withDeadline(parent, 30);
    const fired = aborted(deadline.signal);
    Bun.gc(true);
    const reason = await fired;
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('TimeoutError');
    deadline.dispose();
  }
});

test("withDeadline() passes the parent's abort and reason on, and an already aborted parent at once", async () => {
  const controller = new AbortController();
  const deadline = withDeadline(controller.signal, 60_000);
  controller.abort(new Error('stop'));
  expect(((await aborted(deadline.signal)) as Error).message).toBe('stop');
  deadline.dispose();
  const early = withDeadline(AbortSignal.abort(new Error('early')), 60_000);
  expect(early.signal.aborted).toBe(true);
  expect((early.signal.reason as Error).message).toBe('early');
  early.dispose();
});

test('withDeadline() dispose() stops the timer and unlinks the parent', async () => {
  const controller = new AbortController();
  const deadline = withDeadline(controller.signal, 20);
  deadline.dispose();
  await Bun.sleep(60);
  controller.abort();
  expect(deadline.signal.aborted).toBe(false);
});
