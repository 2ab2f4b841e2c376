// The metrics of `corpus serve` (docs/design/providers.md §8.2a): the names `serve --http` uses
// (docs/design/remote.md §1.12) where they apply, with label values from fixed sets only.
import { Counter, Gauge, Histogram, MetricsRegistry } from '../../util/metrics.ts';
import { CORPUS_OUTCOMES, type CorpusOutcome } from './corpus-request-log.ts';

/** The counters a running `corpus serve` updates. */
export interface CorpusMetrics {
  readonly registry: MetricsRegistry;
  /** One answered request: its outcome and its duration in seconds. */
  request(outcome: CorpusOutcome, seconds: number): void;
  /** One index re-open on SIGHUP. */
  reload(result: 'ok' | 'failed'): void;
}

/**
 * Builds the registry of `corpus serve`.
 *
 * @param build The version and commit of the running build (`external_context_build_info`).
 * @param inFlight Requests being answered now.
 * @see docs/design/providers.md §8.2a
 */
export function createCorpusMetrics(build: { readonly version: string; readonly commit: string }, inFlight: () => number): CorpusMetrics {
  const registry = new MetricsRegistry();
  const requests = registry.register(new Counter('external_context_requests_total', 'Answered HTTP requests by outcome id.', { name: 'outcome', values: CORPUS_OUTCOMES }));
  const duration = registry.register(new Histogram('external_context_request_duration_seconds', 'Time from arrival to answer, in seconds.'));
  registry.register(new Gauge('external_context_in_flight_requests', 'Requests being answered.', inFlight));
  const reloads = registry.register(new Counter('external_context_config_reloads_total', 'Index re-opens on SIGHUP by result.', { name: 'result', values: ['ok', 'failed'] }));
  registry.register(new Gauge('external_context_build_info', 'The running build; always 1.', () => 1, { version: build.version, commit: build.commit }));
  return {
    registry,
    request(outcome, seconds) {
      requests.inc(outcome);
      duration.observe(seconds);
    },
    reload: (result) => reloads.inc(result),
  };
}
