import { LIVENESS_MS } from './liveness.ts';
// Waiting for a condition another party brings about, with a generous deadline that guards
// against a hang and never decides a pass (docs/design/style.md, "Tests").

/** How long `eventually()` waits by default: generous, a hang guard that never decides a pass. */
export const EVENTUALLY_DEADLINE_MS = LIVENESS_MS;

/**
 * Polls `predicate` every 10 ms until it is true.
 *
 * @param predicate The condition awaited.
 * @param what What is awaited, in plain words, for the failure message.
 * @param deadlineMs The hang guard in milliseconds (default LIVENESS_MS): not an expectation of speed.
 * @throws Error `eventually: <what> did not happen within <n> ms` after the deadline.
 */
export async function eventually(predicate: () => boolean, what: string, deadlineMs = EVENTUALLY_DEADLINE_MS): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!predicate()) {
    if (performance.now() >= deadline) throw new Error(`eventually: ${what} did not happen within ${deadlineMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
