// Lets notifications already on their way (notably `notifications/cancelled` after an abort)
// reach the server before a connection closes: closing aborts every request of the transport,
// and a process that exits right after a cancelled call would otherwise never tell the server.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Longest wait for in-flight notifications when closing, in milliseconds. */
export const NOTIFICATION_DRAIN_MS = 1000;

/** A fetch that remembers its in-flight notification POSTs. */
export interface DrainableFetch {
  readonly fetch: FetchLike;
  /** Resolves when every in-flight notification settled, or after NOTIFICATION_DRAIN_MS. */
  drain(): Promise<void>;
}

/**
 * Wraps a fetch to track POSTs that carry only notifications.
 *
 * @param baseFetch The fetch that sends the request.
 * @returns The tracking fetch and its drain().
 */
export function drainableFetch(baseFetch: FetchLike): DrainableFetch {
  const inFlight = new Set<Promise<unknown>>();
  return {
    fetch: (url, init) => {
      const sent = baseFetch(url, init);
      if (init?.method === 'POST' && isNotificationOnly(init.body)) {
        const settled = sent.then(
          () => undefined,
          () => undefined,
        );
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
      }
      return sent;
    },
    async drain() {
      if (inFlight.size === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, NOTIFICATION_DRAIN_MS);
      });
      await Promise.race([Promise.all([...inFlight]), limit]);
      clearTimeout(timer);
    },
  };
}

function isNotificationOnly(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.every((message: unknown) => typeof message === 'object' && message !== null && 'method' in message && !('id' in message));
  } catch {
    return false;
  }
}
