// The `mem0` preset adapter: one reviewed Mem0-family wire contract per preset (search and
// Direct Import write), driven by the preset table (docs/design/providers.md §5, §6; docs/design/mem0-services.md).
import { checkBasePath, joinRequestUrl } from '../config/base-path.ts';
import { applyOriginPolicy } from '../config/origin-policy.ts';
import { PRESETS, SCOPE_KEYS, SCOPE_WIRE_NAMES, type Placement, type Preset, type ScopeKey } from '../config/presets.ts';
import { classifyWriteError, classifyWriteResponse } from './classify-write.ts';
import { sendJsonRequest, type CredentialHeader } from './http-client.ts';
import { parseItems } from './parse-items.ts';
import { ProviderError } from './provider-error.ts';
import { decideRoute, type OutboundRoute, withOutboundDeadline } from './outbound.ts';
import { SEARCH_LIMIT_ITEMS } from './search-limit.ts';
import type { BoundProvider, ProviderFactory, ProviderItem, RememberRequest, RememberResult } from './types.ts';

/** What a bound Mem0 request needs: the preset, both URLs, the scope and the credential. */
export interface Mem0Target {
  readonly preset: Preset;
  readonly searchUrl: string;
  readonly writeUrl: string;
  /** Configured scope values (already trimmed); keys the preset does not use are ignored. */
  readonly scope: Readonly<Partial<Record<ScopeKey, string>>>;
  /** The resolved credential; it goes into the preset's one credential header only. */
  readonly credential: string;
}

/** A ready POST: URL, the one credential header and the exact body bytes (as a string). */
export interface Mem0Request {
  readonly url: string;
  readonly credential: CredentialHeader;
  readonly body: string;
}

function credentialHeader(target: Mem0Target): CredentialHeader {
  const { name, scheme } = target.preset.credentialHeader;
  return { name, value: scheme === '' ? target.credential : `${scheme} ${target.credential}` };
}

/**
 * Splits the configured scope into root and `filters` entries for one placement column,
 * each in the wire order `user_id`, `agent_id`, `app_id` (docs/design/providers.md §5.3, §5.4).
 */
function placeScope(target: Mem0Target, column: 'search' | 'write'): { root: [string, string][]; filters: [string, string][] } {
  const root: [string, string][] = [];
  const filters: [string, string][] = [];
  for (const key of SCOPE_KEYS) {
    const value = target.scope[key];
    const placement: Placement = target.preset.scope[key][column];
    if (value === undefined || placement === 'omit') continue;
    const wireName = SCOPE_WIRE_NAMES[key];
    if (placement === 'body' || placement === 'body-and-filters') root.push([wireName, value]);
    if (placement === 'filters' || placement === 'body-and-filters') filters.push([wireName, value]);
  }
  return { root, filters };
}

/**
 * Builds the search request. Pure.
 *
 * Key order: `query`, the limit field, the fixed options in table order, root scope keys,
 * then `filters` (only when a key is placed there).
 *
 * @param target The bound preset, URLs, scope and credential.
 * @param query The normalized query, sent unmodified.
 * @param limit Requested items; `min(limit, 5)` is sent (callers pass 5).
 * @returns The request, its body byte-for-byte as docs/design/providers.md §5.4 gives it.
 * @see docs/design/providers.md §5.2–§5.4
 */
export function buildSearchRequest(target: Mem0Target, query: string, limit: number): Mem0Request {
  const preset = target.preset;
  const body: Record<string, unknown> = { query, [preset.limitField]: Math.min(limit, SEARCH_LIMIT_ITEMS) };
  for (const [name, value] of preset.fixedSearchOptions) body[name] = value;
  const { root, filters } = placeScope(target, 'search');
  for (const [name, value] of root) body[name] = value;
  if (filters.length > 0) body['filters'] = Object.fromEntries(filters);
  return { url: target.searchUrl, credential: credentialHeader(target), body: JSON.stringify(body) };
}

/**
 * Builds the Direct Import write request. Pure.
 *
 * @param target The bound preset, URLs, scope and credential.
 * @param content The approved memory text, sent unmodified.
 * @returns The request with body `{"messages":[{"role":"user","content":…}],"infer":false,…}`
 *   followed by the root scope keys (docs/design/providers.md §5.4).
 * @see docs/design/providers.md §5.4
 */
export function buildWriteRequest(target: Mem0Target, content: string): Mem0Request {
  const body: Record<string, unknown> = { messages: [{ role: 'user', content }], infer: false };
  const { root, filters } = placeScope(target, 'write');
  for (const [name, value] of root) body[name] = value;
  if (filters.length > 0) body['filters'] = Object.fromEntries(filters);
  return { url: target.writeUrl, credential: credentialHeader(target), body: JSON.stringify(body) };
}

/**
 * Parses a Mem0-family search answer into items. Pure.
 *
 * @param value The parsed JSON of a 2xx answer.
 * @param preset The preset's content fields and Direct Import decoding (PolarDB).
 * @returns At most 5 items in provider order; invalid elements removed before the cap.
 * @throws {ProviderError} `invalid-response` unless `value` is an object with a `results` array.
 * @see docs/design/providers.md §2, §5.5
 */
export function parseSearchResponse(value: unknown, preset: Preset): ProviderItem[] {
  return parseItems(value, {
    collection: 'results',
    contentFields: preset.contentFields,
    directImportDecoding: preset.directImportDecoding,
  });
}

/**
 * Binds a Mem0-family adapter to a checked origin and prefix. Shared by the `mem0` type and
 * the legacy `mem0-platform-v3` type.
 *
 * @param target The bound preset, URLs, scope and credential.
 * @param options The origin for `check`, whether writes are enabled, and the route.
 * @returns The bound provider; `remember` only when `writeEnabled`.
 * @see docs/design/providers.md §4, §5, §6
 */
export function bindMem0Adapter(target: Mem0Target, options: { readonly origin: string; readonly writeEnabled: boolean; readonly proxy: OutboundRoute }): BoundProvider {
  const { proxy } = options;
  async function remember({ content, signal, timeoutMs }: RememberRequest): Promise<RememberResult> {
    const request = buildWriteRequest(target, content);
    let value: unknown;
    try {
      // The write timeout starts once the fetch is warmed (docs/design/providers.md §1.4).
      value = (await withOutboundDeadline({ signal, timeoutMs }, (bounded) => sendJsonRequest({ method: 'POST', ...request, signal: bounded, proxy }))).value;
    } catch (error) {
      if (error instanceof ProviderError) return classifyWriteError(error);
      throw error;
    }
    return classifyWriteResponse(value, target.preset, content);
  }
  return {
    origin: options.origin,
    searchUrl: target.searchUrl,
    writeUrl: target.writeUrl,
    proxy: proxy.mode === 'direct' ? 'direct' : 'proxied',
    remember: options.writeEnabled ? remember : undefined,
    async search({ query, limit, signal }) {
      const request = buildSearchRequest(target, query, limit);
      const response = await sendJsonRequest({ method: 'POST', ...request, signal, proxy });
      return parseSearchResponse(response.value, target.preset);
    },
  };
}

/**
 * Binds a `mem0` provider: origin policy, then basePath, then the proxy decision.
 *
 * @throws {ConfigError} Origin policy (`Field: provider.endpoint.origin.`), basePath
 *   (`Field: provider.endpoint.basePath.`) and proxy errors, in that order.
 * @throws {TypeError} If the binding holds another provider type (a programmer error).
 * @see docs/design/providers.md §5; docs/design/config.md §6 step 6, §8, §9, §12
 */
export const createMem0PresetProvider: ProviderFactory = (binding, options = {}): BoundProvider => {
  const provider = binding.provider;
  if (provider.type !== 'mem0') throw new TypeError('Expected a mem0 binding.');
  const origin = applyOriginPolicy(provider.endpoint.origin, {
    caller: 'mem0',
    allowInsecureHttp: provider.endpoint.allowInsecureHttp,
    fieldPath: 'provider.endpoint.origin',
  });
  const prefix = checkBasePath(provider.endpoint.basePath, 'provider.endpoint.basePath');
  const preset = PRESETS[provider.preset];
  const target: Mem0Target = {
    preset,
    searchUrl: joinRequestUrl(origin, prefix, preset.searchPath),
    writeUrl: joinRequestUrl(origin, prefix, preset.writePath),
    scope: provider.scope,
    credential: binding.credential,
  };
  const proxy = decideRoute(target.searchUrl, options.env ?? {}, options.runtime);
  return bindMem0Adapter(target, { origin, writeEnabled: binding.writeEnabled, proxy });
};
