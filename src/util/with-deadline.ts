// A caller's signal bounded by a timeout, without AbortSignal.any/AbortSignal.timeout: on Node a
// composite signal can be garbage-collected together with its timeout source, so the timeout
// never fires and a stalled provider hangs the call forever (nodejs/node#57736). Here one
// AbortController is strongly held by the returned object and by its own timer. It imports
// nothing from src/.

/** A deadline-bounded signal; call dispose() in a `finally` once the bounded work settles. */
export interface Deadline {
  /** Aborts when the parent aborts (with its reason) or when the timeout elapses. */
  readonly signal: AbortSignal;
  /** Clears the timer and unlinks the parent; the signal stays as it is. */
  dispose(): void;
}

/**
 * Links a new signal to `parent` and to a timer of `timeoutMs`.
 *
 * @param parent The caller's signal, or undefined for a timeout only.
 * @param timeoutMs The bound in ms; on expiry the reason is a DOMException named `TimeoutError`
 *   (what `AbortSignal.timeout` sets, so providers/response-body.ts still names it `timeout`).
 * @returns The signal and its dispose().
 */
export function withDeadline(parent: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParentAbort = (): void => {
    controller.abort(parent?.reason as unknown);
  };
  const dispose = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    parent?.removeEventListener('abort', onParentAbort);
  };
  if (parent?.aborted === true) {
    controller.abort(parent.reason as unknown);
    return { signal: controller.signal, dispose };
  }
  parent?.addEventListener('abort', onParentAbort, { once: true });
  timer = setTimeout(
    () => {
      timer = undefined;
      parent?.removeEventListener('abort', onParentAbort);
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    },
    Math.max(0, timeoutMs),
  );
  controller.signal.addEventListener('abort', dispose, { once: true });
  return { signal: controller.signal, dispose };
}
