// What one `serve --http` process observes about itself: readiness for `/readyz`, the metrics of
// `--metrics-listen`, and the verified-token cache whose size is one of them
// (docs/design/remote.md §1.4a, §1.12).
import type { JwksFetch } from '../mcp/http/jwks-fetch.ts';
import type { Readiness } from '../mcp/http/readiness.ts';
import type { RemoteMetrics } from '../mcp/http/remote-metrics.ts';
import type { VerifiedTokenCache } from '../mcp/http/verified-token-cache.ts';
import { isFailureClass } from '../providers/failure.ts';

/** The readiness, metrics and token cache one server shares between its parts. */
export interface Observers {
  readonly readiness: Readiness;
  readonly metrics: RemoteMetrics | undefined;
  readonly tokenCache: VerifiedTokenCache;
}

/**
 * Builds the observers of one server.
 *
 * @param withMetrics Whether `--metrics-listen` was given.
 * @param inFlight `/mcp` requests in progress, read on each scrape.
 */
export async function createObservers(withMetrics: boolean, inFlight: () => number): Promise<Observers> {
  const { Readiness } = await import('../mcp/http/readiness.ts');
  const { VerifiedTokenCache } = await import('../mcp/http/verified-token-cache.ts');
  const tokenCache = new VerifiedTokenCache();
  const readiness = new Readiness();
  if (!withMetrics) return { readiness, tokenCache, metrics: undefined };
  const { createRemoteMetrics } = await import('../mcp/http/remote-metrics.ts');
  return { readiness, tokenCache, metrics: createRemoteMetrics({ inFlight, tokenCacheEntries: () => tokenCache.size }) };
}

/**
 * Wraps the JWKS fetch so each key-set fetch reports its result to /readyz and to
 * external_context_jwks_fetches_total (docs/design/remote.md §1.4a, §1.12); the answer or the
 * error passes through unchanged.
 */
export function observedJwksFetch(jwksFetch: JwksFetch, observers: Observers): JwksFetch {
  return async (url, init) => {
    try {
      const response = await jwksFetch(url, init);
      observers.readiness.jwksFetched(undefined);
      observers.metrics?.jwksFetch('ok');
      return response;
    } catch (error) {
      const failureClass = (error as { failureClass?: unknown }).failureClass;
      const id = isFailureClass(failureClass) ? failureClass : 'timeout';
      observers.readiness.jwksFetched(id);
      observers.metrics?.jwksFetch(id);
      throw error;
    }
  };
}
