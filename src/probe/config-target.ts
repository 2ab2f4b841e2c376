// The probe target from `--config`: the same load as every other reader (docs/design/config.md §2–§7),
// then the mem0 type check, then origin policy, basePath and proxy with `Field:` suffixes.
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load.ts';
import { PRESETS } from '../config/presets.ts';
import type { ProxyEnvironment } from '../providers/proxy.ts';
import type { ProxyRuntime } from '../runtime/proxy-runtime.ts';
import { MEM0_PLATFORM_ORIGIN } from '../providers/mem0-platform-v3.ts';
import { bindProbeTarget, type ProbeTarget } from './probe-target.ts';

/**
 * Loads a version 1 or 2 configuration and builds the target from its `mem0` provider, or
 * from a legacy `mem0-platform-v3` provider (the Platform preset at https://api.mem0.ai).
 *
 * The configuration is loaded exactly as the server loads it, so every message is the
 * docs/design/config.md one; the probe uses its preset, endpoint, scope and credential, not its timeouts.
 *
 * @param path The `--config` value.
 * @param env The process environment (configuration variable, credential, proxies).
 * @param runtime The runtime facts of the proxy decision.
 * @returns The validated target.
 * @throws {ConfigError} Any docs/design/config.md message (with its `Field:` suffix), `The probe requires
 *   a "mem0" provider configuration.`, and the proxy messages of docs/design/config.md §12.
 * @see docs/design/probe.md §1, §1.1
 */
export async function configTarget(path: string, env: ProxyEnvironment, runtime: ProxyRuntime): Promise<ProbeTarget> {
  const binding = await loadConfig(path, env);
  const provider = binding.provider;
  if (provider.type === 'mem0-platform-v3') {
    // The legacy type is the Platform preset at its fixed origin with scope {appId} (docs/design/providers.md §4).
    return bindProbeTarget(PRESETS['mem0-platform-v3'], { origin: MEM0_PLATFORM_ORIGIN, basePath: '', allowInsecureHttp: false, caller: 'mem0' }, { appId: provider.appId }, binding.credential, {
      env,
      runtime,
    });
  }
  if (provider.type !== 'mem0') throw new ConfigError('The probe requires a "mem0" provider configuration.');
  return bindProbeTarget(
    PRESETS[provider.preset],
    {
      origin: provider.endpoint.origin,
      basePath: provider.endpoint.basePath,
      allowInsecureHttp: provider.endpoint.allowInsecureHttp,
      caller: 'mem0',
      fieldPaths: { origin: 'provider.endpoint.origin', basePath: 'provider.endpoint.basePath' },
    },
    provider.scope,
    binding.credential,
    { env, runtime },
  );
}
