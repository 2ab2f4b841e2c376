// The deadline for reading a Hook's stdin (docs/design/hooks.md §1): the budget, with a grace so
// that a start-up, a stop or CPU starvation that a loaded machine stretched past the budget never
// turns input the host has written into an unreadable one.

/**
 * The grace of docs/design/hooks.md §1, in ms: how long stdin is still read after the
 * first read, or after a budget expiry the Hook noticed late, so that a start-up or a stop
 * that a loaded machine stretched past the budget never turns input the host has written
 * into an unreadable one.
 */
export const STDIN_GRACE_MS = 2000;

/**
 * How late, in ms, the Hook may notice its budget's expiry and still count as having been
 * waiting for stdin when it came; later, the process was not running (stopped, or starved of
 * CPU) and a new {@link STDIN_GRACE_MS} starts.
 */
export const STDIN_LATE_MS = 500;

/**
 * The signal that ends reading stdin (docs/design/hooks.md §1). It aborts when `budget` aborts,
 * but never before {@link STDIN_GRACE_MS} after this call (the first read), nor, when the
 * abort came more than {@link STDIN_LATE_MS} after `dueAtMs`, before {@link STDIN_GRACE_MS}
 * after the abort. A Hook that was running when its budget ran out stops at the budget.
 *
 * @param budget The Hook budget.
 * @param dueAtMs When the budget is due, in ms since the epoch.
 * @param graceMs The grace (default {@link STDIN_GRACE_MS}).
 * @param firstReadAtMs When reading began, in ms since the epoch (default now).
 * @returns The signal, and dispose, which stops listening and any timer.
 */
export function stdinDeadline(budget: AbortSignal, dueAtMs: number, graceMs: number = STDIN_GRACE_MS, firstReadAtMs: number = Date.now()): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onBudget = (): void => {
    const nowMs = Date.now();
    const lateGraceEndMs = nowMs - dueAtMs > STDIN_LATE_MS ? nowMs + graceMs : 0;
    const waitMs = Math.ceil(Math.max(firstReadAtMs + graceMs, lateGraceEndMs) - nowMs);
    if (waitMs <= 0) controller.abort();
    else timer = setTimeout(() => controller.abort(), waitMs);
  };
  if (budget.aborted) onBudget();
  else budget.addEventListener('abort', onBudget, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      budget.removeEventListener('abort', onBudget);
    },
  };
}
