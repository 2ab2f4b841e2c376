// Legacy `mem0-platform-v3` type: the preset adapter with preset `mem0-platform-v3`, the fixed
// origin https://api.mem0.ai and scope {appId}, so its requests equal §5.4 (docs/design/providers.md §4).
import { joinRequestUrl } from '../config/base-path.ts';
import { PRESETS } from '../config/presets.ts';
import { bindMem0Adapter, type Mem0Target } from './mem0-preset.ts';
import { decideRoute } from './outbound.ts';
import type { BoundProvider, ProviderFactory } from './types.ts';

/** The fixed Platform origin; no configuration field or environment variable changes it. */
export const MEM0_PLATFORM_ORIGIN = 'https://api.mem0.ai';

/**
 * Binds a `mem0-platform-v3` provider.
 *
 * The fixed origin passes the origin policy by construction and has no basePath. Only
 * `options.platformOriginForTests` (an in-process test seam) replaces it.
 *
 * @throws {ConfigError} Proxy errors (docs/design/config.md §12).
 * @throws {TypeError} If the binding holds another provider type (a programmer error).
 * @see docs/design/providers.md §4
 */
export const createMem0PlatformV3Provider: ProviderFactory = (binding, options = {}): BoundProvider => {
  const provider = binding.provider;
  if (provider.type !== 'mem0-platform-v3') throw new TypeError('Expected a mem0-platform-v3 binding.');
  const origin = new URL(options.platformOriginForTests ?? MEM0_PLATFORM_ORIGIN).origin;
  const preset = PRESETS['mem0-platform-v3'];
  const target: Mem0Target = {
    preset,
    searchUrl: joinRequestUrl(origin, '', preset.searchPath),
    writeUrl: joinRequestUrl(origin, '', preset.writePath),
    scope: { appId: provider.appId },
    credential: binding.credential,
  };
  const proxy = decideRoute(target.searchUrl, options.env ?? {}, options.runtime);
  return bindMem0Adapter(target, { origin, writeEnabled: binding.writeEnabled, proxy });
};
