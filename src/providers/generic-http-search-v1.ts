// Generic HTTP Search V1: `POST <origin>/v1/context/search` with a Bearer token and
// `{"query","limit":5}`, answered by `{"items":[…]}` (docs/design/providers.md §3, §2).
import { applyOriginPolicy } from '../config/origin-policy.ts';
import { checkBasePath, joinRequestUrl } from '../config/base-path.ts';
import { sendJsonRequest, type CredentialHeader } from './http-client.ts';
import { parseItems, type ItemMapping } from './parse-items.ts';
import { decideRoute } from './outbound.ts';
import { SEARCH_LIMIT_ITEMS } from './search-limit.ts';
import type { BoundProvider, ProviderFactory, ProviderItem } from './types.ts';

/** The fixed search path under the configured origin. */
export const GENERIC_SEARCH_PATH = '/v1/context/search';

/** The response envelope: `items` holds the elements (docs/design/providers.md §2). */
const ITEM_MAPPING: ItemMapping = { collection: 'items', contentFields: ['content'], directImportDecoding: false };

/** A ready POST: URL, the one credential header and the exact body bytes (as a string). */
export interface GenericSearchRequest {
  readonly url: string;
  readonly credential: CredentialHeader;
  readonly body: string;
}

/**
 * Builds the search request. Pure.
 *
 * @param searchUrl The bound search URL (`<origin>/v1/context/search`).
 * @param credential The resolved token; it goes into `authorization: Bearer <token>` only.
 * @param query The normalized query, sent unmodified.
 * @param limit Requested items; `min(limit, 5)` is sent (callers pass 5).
 * @returns The request with body exactly `{"query":"<query>","limit":5}`: no tenant,
 *   repository, namespace or filter field.
 * @see docs/design/providers.md §3
 */
export function buildSearchRequest(searchUrl: string, credential: string, query: string, limit: number = SEARCH_LIMIT_ITEMS): GenericSearchRequest {
  return {
    url: searchUrl,
    credential: { name: 'authorization', value: `Bearer ${credential}` },
    body: JSON.stringify({ query, limit: Math.min(limit, SEARCH_LIMIT_ITEMS) }),
  };
}

/**
 * Parses a Generic HTTP answer into items. Pure.
 *
 * @param value The parsed JSON of a 2xx answer.
 * @returns At most 5 items in provider order; invalid elements removed before the cap.
 * @throws {ProviderError} `invalid-response` unless `value` is an object with an `items` array.
 * @see docs/design/providers.md §2, §3
 */
export function parseSearchResponse(value: unknown): ProviderItem[] {
  return parseItems(value, ITEM_MAPPING);
}

/**
 * Binds a `generic-http-search-v1` provider: search only, no writer.
 *
 * @throws {ConfigError} Origin policy (`Field: provider.baseUrl.`), basePath
 *   (`Field: provider.basePath.`) and proxy errors, in that order.
 * @throws {TypeError} If the binding holds another provider type (a programmer error).
 * @see docs/design/providers.md §3; docs/design/config.md §8, §12
 */
export const createGenericHttpSearchV1Provider: ProviderFactory = (binding, options = {}): BoundProvider => {
  const provider = binding.provider;
  if (provider.type !== 'generic-http-search-v1') throw new TypeError('Expected a generic-http-search-v1 binding.');
  const origin = applyOriginPolicy(provider.baseUrl, {
    caller: 'generic-http-search-v1',
    allowInsecureHttp: false,
    fieldPath: 'provider.baseUrl',
  });
  const prefix = checkBasePath(provider.basePath, 'provider.basePath', 'Generic HTTP basePath');
  const searchUrl = joinRequestUrl(origin, prefix, GENERIC_SEARCH_PATH);
  const proxy = decideRoute(searchUrl, options.env ?? {}, options.runtime);
  const credential = binding.credential;
  return {
    origin,
    searchUrl,
    writeUrl: undefined,
    remember: undefined,
    proxy: proxy.mode === 'direct' ? 'direct' : 'proxied',
    async search({ query, limit, signal }) {
      const request = buildSearchRequest(searchUrl, credential, query, limit);
      const response = await sendJsonRequest({ method: 'POST', ...request, signal, proxy });
      return parseSearchResponse(response.value);
    },
  };
};
