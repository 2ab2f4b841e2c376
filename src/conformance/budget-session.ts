// The overall `--timeout` of a conformance run (docs/design/remote.md §2.1): a server that never
// answers used to cost 19 requests × 10 s in silence. Past the budget no request is sent and
// every later check fails at once; each answered request can be reported as progress.
import type { ConformanceSession, RequestOutcome } from './conformance-session.ts';

/**
 * Bounds every request of a session by one overall deadline.
 *
 * @param session The initialized session.
 * @param deadlineMs The wall-clock deadline, in ms since the epoch.
 * @param onSettled Called after each request with the number settled so far (progress).
 * @returns A session whose requests answer `over-budget` once the deadline has passed, or
 *   when it passes while they wait.
 * @see docs/design/remote.md §2.1
 */
export function withBudget(session: ConformanceSession, deadlineMs: number, onSettled: (settled: number) => void = () => {}): ConformanceSession {
  let settled = 0;
  return {
    async request(method, params) {
      const remaining = deadlineMs - Date.now();
      if (remaining <= 0) return { kind: 'over-budget' };
      // No deadline (an infinite one would fire at once: timers overflow past 2^31 - 1 ms).
      if (remaining > 2_147_483_647) {
        try {
          return await session.request(method, params);
        } finally {
          onSettled(++settled);
        }
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const budget = new Promise<RequestOutcome>((resolve) => {
        timer = setTimeout(() => resolve({ kind: 'over-budget' }), remaining);
      });
      try {
        return await Promise.race([session.request(method, params), budget]);
      } finally {
        clearTimeout(timer);
        onSettled(++settled);
      }
    },
    close: () => session.close(),
  };
}
