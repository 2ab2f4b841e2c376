// The `--max-concurrency` limit on `/mcp` (docs/design/remote.md §1.5 step 4).

/** Counts requests in progress and refuses admission at the limit. */
export class ConcurrencyGate {
  readonly #max: number;
  #active = 0;
  #idleWaiters: (() => void)[] = [];

  /** @param max Requests allowed at the same time (1…1024). */
  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('The concurrency limit must be a positive integer.');
    this.#max = max;
  }

  /** Requests admitted and not yet left. */
  get active(): number {
    return this.#active;
  }

  /**
   * Admits one request unless the limit is reached.
   *
   * @returns True when admitted; the caller must call {@link leave} exactly once afterwards.
   */
  tryEnter(): boolean {
    if (this.#active >= this.#max) return false;
    this.#active += 1;
    return true;
  }

  /** Ends one admitted request. */
  leave(): void {
    this.#active -= 1;
    if (this.#active > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no request is in progress (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }
}
