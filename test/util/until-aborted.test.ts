// untilAborted(): a promise bounded by an AbortSignal, rejecting with the signal's reason.
import { expect, test } from 'bun:test';
import { untilAborted } from '../../src/util/until-aborted.ts';

test('untilAborted() passes values and rejections through', async () => {
  expect(await untilAborted(Promise.resolve(3), new AbortController().signal)).toBe(3);
  await expect(untilAborted(Promise.reject(new Error('x')), new AbortController().signal)).rejects.toThrow('x');
});

test('untilAborted() rejects with the reason when the signal aborts first, or already aborted', async () => {
  const controller = new AbortController();
  const pending = untilAborted(new Promise(() => {}), controller.signal);
  controller.abort(new Error('stop'));
  await expect(pending).rejects.toThrow('stop');
  await expect(untilAborted(Promise.resolve(1), AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
});
