// What `GET /readyz` answers on `serve --http` (docs/design/remote.md §1.4a): ready unless the most
// recent key-set fetch or the most recent provider request failed within the last 30000 ms. A probe
// never sends a request of its own: it would carry the credential and multiply the provider's
// load by every replica's probe rate.
import type { FailureClass } from '../../providers/failure.ts';

/** How long a failure keeps the server not ready, in ms, unless a success comes first. */
export const READINESS_FAILURE_HOLD_MS = 30_000;

/** Why the server is not ready: `jwks-<class>` or `provider-<class>`. */
export type NotReadyReason = `jwks-${FailureClass}` | `provider-${FailureClass}`;

/** The most recent outcomes of the key set and the provider. */
export class Readiness {
  readonly #now: () => number;
  #jwks: { readonly failure: FailureClass; readonly atMs: number } | undefined;
  #provider: { readonly failure: FailureClass; readonly atMs: number } | undefined;

  /** @param now The clock, in ms (default `performance.now`; tests pass their own). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Records a key-set fetch: its failure class, or undefined when it succeeded. */
  jwksFetched(failure: FailureClass | undefined): void {
    this.#jwks = failure === undefined ? undefined : { failure, atMs: this.#now() };
  }

  /**
   * Records a provider request: its failure class, or undefined when the provider answered.
   * `cancelled` (the client went away) says nothing about the provider and is ignored.
   */
  providerAnswered(failure: FailureClass | undefined): void {
    if (failure === 'cancelled') return;
    this.#provider = failure === undefined ? undefined : { failure, atMs: this.#now() };
  }

  /**
   * Why the server is not ready now.
   *
   * @returns The key set's failure first, then the provider's, each only within
   *   {@link READINESS_FAILURE_HOLD_MS} of when it happened; undefined when ready.
   */
  notReadyReason(): NotReadyReason | undefined {
    const now = this.#now();
    if (this.#jwks !== undefined && now - this.#jwks.atMs < READINESS_FAILURE_HOLD_MS) return `jwks-${this.#jwks.failure}`;
    if (this.#provider !== undefined && now - this.#provider.atMs < READINESS_FAILURE_HOLD_MS) return `provider-${this.#provider.failure}`;
    return undefined;
  }
}
