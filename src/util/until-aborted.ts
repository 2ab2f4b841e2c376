// Bounds any promise by an AbortSignal, for work that takes no signal of its own: the gateway's
// SDK steps (the `initialized` notification; a stalled server must not outlive the discovery
// budget) and the auto-recall Hook's config read (docs/design/hooks.md §2.4). It imports nothing from src/.

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as `signal` aborts.
 *
 * @param promise The work to wait for (it keeps running; the caller closes what it started).
 * @param signal The bound.
 * @returns The promise's value.
 * @throws The signal's reason when it aborts first, else whatever `promise` rejects with.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The work's own later rejection is expected and must not surface as unhandled.
    promise.catch(() => {});
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
