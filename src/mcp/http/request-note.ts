// What one request to the remote server came to (docs/design/remote.md §1.10): its outcome, the
// provider's time and failure, for the request log line, the metrics and the readiness.
import type { ToolObservation } from '../tool.ts';
import type { Readiness } from './readiness.ts';
import type { RemoteAuth } from './remote-mcp-handler.ts';
import type { RemoteMetrics } from './remote-metrics.ts';
import type { RequestLogEntry, RequestOutcome } from './request-log.ts';

/**
 * Collects what one request came to, for its log entry and metrics (docs/design/remote.md §1.10,
 * §1.12) and the readiness it feeds (§1.4a).
 */
export class Note {
  #outcome: RequestOutcome | undefined;
  #providerMs = 0;
  #providerFailure: ToolObservation['failure'];
  readonly #metrics: RemoteMetrics | undefined;
  readonly #readiness: Readiness | undefined;

  constructor(metrics?: RemoteMetrics, readiness?: Readiness) {
    this.#metrics = metrics;
    this.#readiness = readiness;
  }

  /** Records a refusal or a probe's outcome (the first one wins) and hands the response through. */
  refuse(outcome: RequestOutcome, response: Response): Response {
    this.#outcome ??= outcome;
    return response;
  }

  /** A tool's observation; the first failure of a batch names the outcome. */
  readonly observe = (observation: ToolObservation): void => {
    this.#providerMs += observation.providerMs;
    this.#providerFailure ??= observation.failure;
    this.#metrics?.provider(observation.providerMs / 1000);
    this.#readiness?.providerAnswered(observation.failure?.id);
  };

  /** The outcome id: the recorded refusal, else `ok` or the first provider failure's. */
  outcome(): RequestOutcome {
    const failure = this.#providerFailure;
    return this.#outcome ?? (failure === undefined ? 'ok' : `provider-${failure.id}`);
  }

  entry(status: number, ms: number, auth: RemoteAuth | undefined): RequestLogEntry {
    const failure = this.#providerFailure;
    const outcome = this.outcome();
    return {
      time: new Date().toISOString(),
      status,
      outcome,
      ms: Math.round(ms),
      providerMs: Math.round(this.#providerMs),
      ...(this.#outcome === undefined && failure?.status !== undefined ? { providerStatus: failure.status } : {}),
      ...(outcome === 'auth-issuer' && auth !== undefined ? { expectedIssuer: auth.issuer } : {}),
      ...(outcome === 'auth-audience' && auth !== undefined ? { expectedAudience: auth.resource } : {}),
    };
  }
}

/** The note of a handler without a log: records nothing. */
export const SILENT_NOTE = new Note();
