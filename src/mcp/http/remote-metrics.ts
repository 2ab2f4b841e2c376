// The metrics of `serve --http` (docs/design/remote.md §1.12): the metric names of issue 30, with
// label values from fixed sets only (outcome ids, failure classes, `ok`/`failed`), never a query,
// token, subject, credential or URL.
import { FAILURE_CLASSES } from '../../providers/failure.ts';
import { Counter, Gauge, Histogram, MetricsRegistry } from '../../util/metrics.ts';
import { COMMIT, VERSION } from '../../version.ts';
import { FIXED_REQUEST_OUTCOMES, type RequestOutcome } from './request-log.ts';

/** Every outcome id of the request log (docs/design/remote.md §1.10), the label values of `outcome`. */
export const REQUEST_OUTCOME_VALUES: readonly RequestOutcome[] = [
  ...FIXED_REQUEST_OUTCOMES,
  ...FAILURE_CLASSES.map((id) => `jwks-${id}` as const),
  ...FAILURE_CLASSES.map((id) => `provider-${id}` as const),
];

/** `result` of a configuration reload. */
export type ReloadResult = 'ok' | 'failed';

/** The counters a running `serve --http` (or `serve`) updates. */
export interface RemoteMetrics {
  readonly registry: MetricsRegistry;
  /** One answered request: its outcome and its duration in seconds. */
  request(outcome: RequestOutcome, seconds: number): void;
  /** One provider request (a tool call), in seconds. */
  provider(seconds: number): void;
  /** One key-set fetch: `ok` or its failure class. */
  jwksFetch(result: 'ok' | (typeof FAILURE_CLASSES)[number]): void;
  /** One configuration reload. */
  reload(result: ReloadResult): void;
}

/** What the gauges read on each scrape. */
export interface RemoteGaugeSources {
  /** `/mcp` requests admitted and not yet answered. */
  readonly inFlight: () => number;
  /** Tokens in the verified-token cache (0 without authentication). */
  readonly tokenCacheEntries: () => number;
}

/**
 * Builds the registry of `serve --http`.
 *
 * @param sources The gauges' readers.
 * @returns The metrics, registered in the order docs/design/remote.md §1.12 lists them.
 * @see docs/design/remote.md §1.12
 */
export function createRemoteMetrics(sources: RemoteGaugeSources): RemoteMetrics {
  const registry = new MetricsRegistry();
  const requests = registry.register(new Counter('external_context_requests_total', 'Answered HTTP requests by outcome id.', { name: 'outcome', values: REQUEST_OUTCOME_VALUES }));
  const duration = registry.register(new Histogram('external_context_request_duration_seconds', 'Time from arrival to answer, in seconds.'));
  const provider = registry.register(new Histogram('external_context_provider_duration_seconds', 'Time spent in provider requests (tool calls), in seconds.'));
  registry.register(new Gauge('external_context_in_flight_requests', 'Requests to /mcp admitted and not yet answered.', sources.inFlight));
  const refusals = registry.register(new Counter('external_context_concurrency_refusals_total', 'Requests refused with 503 at --max-concurrency.'));
  const jwks = registry.register(new Counter('external_context_jwks_fetches_total', 'Key-set fetches by result (ok or failure class).', { name: 'result', values: ['ok', ...FAILURE_CLASSES] }));
  registry.register(new Gauge('external_context_token_cache_entries', 'Verified tokens remembered.', sources.tokenCacheEntries));
  const reloads = registry.register(new Counter('external_context_config_reloads_total', 'Configuration reloads on SIGHUP by result.', { name: 'result', values: ['ok', 'failed'] }));
  registry.register(new Gauge('external_context_build_info', 'The running build; always 1.', () => 1, { version: VERSION, commit: COMMIT }));
  return {
    registry,
    request(outcome, seconds) {
      requests.inc(outcome);
      duration.observe(seconds);
      if (outcome === 'busy') refusals.inc();
    },
    provider: (seconds) => provider.observe(seconds),
    jwksFetch: (result) => jwks.inc(result),
    reload: (result) => reloads.inc(result),
  };
}
