// The JIT policy restore of the HTTP servers (src/runtime/jit.ts, jit-bun.ts; issue 10): the
// pinned Bun has the API the compiled executable's start-up policy relies on, and the restore
// asks for the normal scale exactly once.
import { afterEach, describe, expect, spyOn, test } from 'bun:test';
import { restoreJitPolicyBun } from '../../src/runtime/jit-bun.ts';
import { markInteractive } from '../../src/runtime/jit.ts';

describe('JIT policy restore', () => {
  let spy: ReturnType<typeof spyOn> | undefined;
  afterEach(() => spy?.mockRestore());

  test('the pinned Bun has Bun.unsafe.setJITPolicy (build/compile.ts sets compile.jitPolicy)', () => {
    expect(typeof Bun.unsafe.setJITPolicy).toBe('function');
  });

  test('restoreJitPolicyBun() sets the normal policy, scale 1', () => {
    spy = spyOn(Bun.unsafe, 'setJITPolicy');
    restoreJitPolicyBun();
    expect(spy.mock.calls).toEqual([[1]]);
  });

  test('markInteractive() resolves, and only its first call in the process restores the policy', async () => {
    spy = spyOn(Bun.unsafe, 'setJITPolicy');
    await expect(markInteractive()).resolves.toBeUndefined();
    await expect(markInteractive()).resolves.toBeUndefined();
    // Test files share one module registry: another file may have made the first call.
    expect([[], [[1]]]).toContainEqual(spy.mock.calls);
  });
});
