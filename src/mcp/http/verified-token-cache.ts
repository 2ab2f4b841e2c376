// The tokens the remote server has verified recently (docs/design/remote.md §1.6 step 5): a
// client sends the same Bearer token on every request until it expires, and its RS256 check
// cost about 0.1 ms of CPU per request (issue 18). Only fully valid tokens are kept, each until
// its `exp` (with the clock tolerance) or a fixed time passes, whichever is first.
import { CLOCK_TOLERANCE_SECONDS, VERIFIED_TOKEN_CACHE_ENTRIES, VERIFIED_TOKEN_CACHE_MS } from './remote-limits.ts';

/** A bounded map of token → the time, in ms since the epoch, until which it counts as valid. */
export class VerifiedTokenCache {
  readonly #until = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number;

  /**
   * @param maxEntries Tokens kept at most; the oldest entry goes first (default 256).
   * @param maxAgeMs Longest a token is kept, in ms (default 60000).
   */
  constructor(maxEntries = VERIFIED_TOKEN_CACHE_ENTRIES, maxAgeMs = VERIFIED_TOKEN_CACHE_MS) {
    this.#maxEntries = maxEntries;
    this.#maxAgeMs = maxAgeMs;
  }

  /**
   * Whether `token` was verified and still counts as valid at `nowMs`; a lapsed entry is removed.
   *
   * @param nowMs The current time, in ms since the epoch.
   */
  has(token: string, nowMs: number): boolean {
    const until = this.#until.get(token);
    if (until === undefined) return false;
    if (nowMs < until) return true;
    this.#until.delete(token);
    return false;
  }

  /**
   * Remembers a token that passed every check of §1.6 at `nowMs`.
   *
   * @param expSeconds Its `exp` claim, in seconds since the epoch; a non-finite value keeps nothing.
   * @param nowMs The current time, in ms since the epoch.
   */
  add(token: string, expSeconds: unknown, nowMs: number): void {
    if (typeof expSeconds !== 'number' || !Number.isFinite(expSeconds)) return;
    const until = Math.min(nowMs + this.#maxAgeMs, (expSeconds + CLOCK_TOLERANCE_SECONDS) * 1000);
    if (until <= nowMs) return;
    this.#until.delete(token);
    if (this.#until.size >= this.#maxEntries) {
      const oldest = this.#until.keys().next();
      if (oldest.done !== true) this.#until.delete(oldest.value);
    }
    this.#until.set(token, until);
  }

  /** Forgets every token (a new key set may lack the key one was checked with). */
  clear(): void {
    this.#until.clear();
  }

  /** Tokens currently kept. */
  get size(): number {
    return this.#until.size;
  }
}
