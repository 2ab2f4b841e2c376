// Bun's JIT policy (issue 10): the executable starts with tier-up thresholds scaled by
// `compile.jitPolicy` (build/compile.ts); `Bun.unsafe.setJITPolicy(1)` restores the normal ones.

/** The part of `Bun.unsafe` used here. */
interface BunUnsafe {
  setJITPolicy?: (scale: number) => void;
}

/**
 * Restores JavaScriptCore's normal tier-up thresholds (scale 1). Does nothing on a Bun
 * without `Bun.unsafe.setJITPolicy`.
 */
export function restoreJitPolicyBun(): void {
  const bun = (globalThis as { Bun?: { unsafe?: BunUnsafe } }).Bun;
  bun?.unsafe?.setJITPolicy?.(1);
}
