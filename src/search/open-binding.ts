// Opening a binding for a surface: load the configuration, check the proxy environment for
// the provider origin, and build the adapter (config.md §6 step 6, §12). Shared by `serve`,
// `check` and the auto-recall Hook; no SDK, no output.
import type { Binding } from '../config/binding.ts';
import { loadConfig } from '../config/load.ts';
import type { ConfigFlag } from '../config/locate.ts';
import { createProvider } from '../providers/create-provider.ts';
import { checkProxyForTarget, type ProxyDecision } from '../providers/proxy.ts';
import type { BoundProvider, ProviderFactoryOptions } from '../providers/types.ts';

/** A loaded binding with its adapter and the proxy decision for its origin. */
export interface OpenBinding {
  readonly binding: Binding;
  readonly provider: BoundProvider;
  readonly proxy: ProxyDecision;
}

/**
 * Loads the configuration and builds the provider.
 *
 * @param flag `--config` as parsed.
 * @param env The process environment (path, credential and proxy variables).
 * @param options Test-only factory options; no configuration field reaches them.
 * @throws {ConfigError} Any configuration, adapter-construction or proxy error.
 */
export async function openBinding(
  flag: ConfigFlag,
  env: Readonly<Record<string, string | undefined>>,
  options: Omit<ProviderFactoryOptions, 'env'> = {},
): Promise<OpenBinding> {
  const binding = await loadConfig(flag, env);
  const provider = createProvider(binding, { ...options, env });
  const proxy = checkProxyForTarget(provider.origin, env);
  return { binding, provider, proxy };
}
