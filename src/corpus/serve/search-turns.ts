// Turns on the event loop for the searches of `corpus serve` (docs/design/providers.md §8.2): a
// search runs one SQLite statement per turn, and between turns the event loop answers I/O first,
// then gives the next turn to the waiting search that has used the least time so far. A simple
// query arriving beside an expensive one waits for at most one statement, never a whole query;
// a search passed over MAX_PASSED_OVER times gets the next turn, so none starves.
import { setImmediate } from 'node:timers';

/** Waits for the next turn; call it before each statement. */
export type Turn = () => Promise<void>;

/** Most turns given to others while a search waits; then it comes next (oldest first). */
export const MAX_PASSED_OVER = 16;

interface Task {
  readonly order: number;
  spent: number;
  passedOver: number;
  grantedAt: number;
  resolve: () => void;
}

/** The turns of one process. */
export interface SearchTurns {
  /**
   * Runs one search: `work` calls `turn()` before each statement it runs. The first `turn()`
   * resolves at once when no other search holds or waits for a turn.
   *
   * @param work The search.
   * @returns What `work` returns.
   */
  run<T>(work: (turn: Turn) => Promise<T>): Promise<T>;
}

/**
 * Creates a scheduler: one statement runs at a time; the next turn goes, after pending I/O
 * (setImmediate), to a search passed over MAX_PASSED_OVER times (oldest first), else to the
 * waiting search with the least time spent (oldest first on a tie).
 *
 * @returns The scheduler.
 */
export function createSearchTurns(): SearchTurns {
  const waiting: Task[] = [];
  let holder: Task | undefined;
  let scheduled = false;
  let next = 0;
  const grant = (): void => {
    scheduled = false;
    if (holder !== undefined || waiting.length === 0) return;
    let best = 0;
    for (let i = 1; i < waiting.length; i++) if (before(waiting[i] as Task, waiting[best] as Task)) best = i;
    const task = waiting.splice(best, 1)[0] as Task;
    for (const other of waiting) other.passedOver++;
    holder = task;
    task.grantedAt = performance.now();
    task.resolve();
  };
  const schedule = (): void => {
    if (scheduled || holder !== undefined || waiting.length === 0) return;
    scheduled = true;
    setImmediate(grant);
  };
  const release = (task: Task): void => {
    if (holder !== task) return;
    task.spent += performance.now() - task.grantedAt;
    holder = undefined;
  };
  return {
    async run(work) {
      const task: Task = { order: next++, spent: 0, passedOver: 0, grantedAt: 0, resolve: () => {} };
      const turn: Turn = () => {
        // A search's first turn, when no other search holds or waits for one, begins at once:
        // the request was just read, so no I/O waits behind it.
        if (waiting.length === 0 && holder === undefined) {
          holder = task;
          task.grantedAt = performance.now();
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          release(task);
          task.passedOver = 0;
          task.resolve = resolve;
          waiting.push(task);
          schedule();
        });
      };
      try {
        return await work(turn);
      } finally {
        release(task);
        schedule();
      }
    },
  };
}

// Whether a gets the turn before b: a starving search first, then the least time spent, then the oldest.
function before(a: Task, b: Task): boolean {
  const aStarved = a.passedOver >= MAX_PASSED_OVER;
  const bStarved = b.passedOver >= MAX_PASSED_OVER;
  if (aStarved !== bStarved) return aStarved;
  if (aStarved) return a.order < b.order;
  return a.spent < b.spent || (a.spent === b.spent && a.order < b.order);
}

/** The scheduler every index of this process shares. */
export const searchTurns: SearchTurns = createSearchTurns();
