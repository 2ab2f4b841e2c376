// The moment a long-running server becomes interactive (issue 10). Under Bun, the compiled
// executable starts with a JIT policy that keeps run-once start-up code in the interpreter
// (build/compile.ts, JIT_POLICY_SCALE); `serve --http` and `corpus serve` call this once
// listening so their steady-state requests get the normal policy. Deno and Node.js have
// nothing to do.
import { RUNTIME } from './runtime.ts';

let marked = false;

/**
 * Tells the runtime that start-up is over; only the first call does anything.
 *
 * @returns Resolves once the runtime has been told; never rejects (without the call only
 *   steady-state speed would suffer).
 */
export async function markInteractive(): Promise<void> {
  if (marked || RUNTIME !== 'bun') return;
  marked = true;
  try {
    const { restoreJitPolicyBun } = await import('./jit-bun.ts');
    restoreJitPolicyBun();
  } catch {
    // Nothing to report: the policy only changes speed.
  }
}
