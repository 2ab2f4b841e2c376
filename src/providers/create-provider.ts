// The provider factory: the only switch on `provider.type`. Adding a provider means a
// reviewed adapter plus an explicit case here; there is no plugin loading (docs/design/providers.md).
import { createGenericHttpSearchV1Provider } from './generic-http-search-v1.ts';
import { createMem0PlatformV3Provider } from './mem0-platform-v3.ts';
import { createMem0PresetProvider } from './mem0-preset.ts';
import type { BoundProvider, ProviderFactory } from './types.ts';

/**
 * Builds the bound adapter for a loaded binding.
 *
 * Construction runs the origin policy, the basePath rules and the proxy decision, so every
 * configuration error of docs/design/config.md §6 step 6 and §12 surfaces here, before any request.
 *
 * @param binding The loaded configuration with its credential resolved.
 * @param options `env` for the proxy decision (entry points pass the process environment),
 *   `runtime` facts, and the test-only Platform origin.
 * @returns The adapter with its origin, search URL, write URL (Mem0 family) and route;
 *   `remember` is present only when writes are enabled.
 * @throws {ConfigError} Origin policy (` Field: provider.baseUrl.` or
 *   ` Field: provider.endpoint.origin.`), basePath (` Field: provider.endpoint.basePath.`),
 *   an invalid proxy variable, or a proxy refused on Node.js.
 * @see docs/design/providers.md §3–§5; docs/design/config.md §6 step 6, §8, §9, §12
 */
export const createProvider: ProviderFactory = (binding, options = {}): BoundProvider => {
  const adapter = createAdapter(binding, options);
  // `redactSecrets` travels with the adapter, so every surface's runSearch sees it.
  return binding.redactSecrets === true ? { ...adapter, redactSecrets: true } : adapter;
};

const createAdapter: ProviderFactory = (binding, options = {}): BoundProvider => {
  switch (binding.provider.type) {
    case 'generic-http-search-v1':
      return createGenericHttpSearchV1Provider(binding, options);
    case 'mem0-platform-v3':
      return createMem0PlatformV3Provider(binding, options);
    case 'mem0':
      return createMem0PresetProvider(binding, options);
  }
};
