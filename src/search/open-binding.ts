// Opening a binding for a surface: load the configuration, then build the adapter, which runs
// the origin policy, the basePath rules and the per-target proxy decision (docs/design/config.md §6
// step 6, §12). Shared by `serve`, `check` and the auto-recall Hook; no SDK, no output.
import type { Binding } from '../config/binding.ts';
import { loadConfig } from '../config/load.ts';
import type { ConfigFlag } from '../config/locate.ts';
import { createProvider } from '../providers/create-provider.ts';
import type { BoundProvider, ProviderFactoryOptions } from '../providers/types.ts';

/** A loaded binding with its adapter; `provider.proxy` is the decision for its origin. */
export interface OpenBinding {
  readonly binding: Binding;
  readonly provider: BoundProvider;
}

/**
 * Loads the configuration and builds the provider.
 *
 * @param flag `--config` as parsed.
 * @param env The process environment (path, credential and proxy variables).
 * @param options Runtime facts and test-only factory options; no configuration field reaches them.
 * @returns The binding and its adapter.
 * @throws {ConfigError} Any configuration, adapter-construction or proxy error.
 * @see docs/design/config.md §6, §12
 */
export async function openBinding(flag: ConfigFlag, env: Readonly<Record<string, string | undefined>>, options: Omit<ProviderFactoryOptions, 'env'> = {}): Promise<OpenBinding> {
  const binding = await loadConfig(flag, env);
  const provider = createProvider(binding, { ...options, env });
  return { binding, provider };
}
