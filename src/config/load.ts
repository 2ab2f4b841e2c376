// Loading a configuration: locate → read → schema → semantic steps 2–5 of docs/design/config.md §6.
// Step 6 (origin policy, basePath) runs when providers/create-provider.ts builds the adapter.
import type { Binding } from './binding.ts';
import type { ProviderConfig } from './schema.ts';
import { ConfigError } from './config-error.ts';
import { resolveCredential } from './credential.ts';
import { type ConfigFlag, locateConfig } from './locate.ts';
import { PRESETS, SCOPE_KEYS } from './presets.ts';
import { readConfigJson } from './read-file.ts';
import { resolveRepositoryRoot } from './repository-root.ts';
import { validateConfig } from './validate.ts';

/**
 * Reads and validates the administrator's config file and resolves its credential.
 *
 * @param flag `--config` as parsed (undefined when absent, null when given without a value).
 * @param env Environment the path and credential are resolved from; values are never echoed.
 * @returns The validated binding with the credential resolved and the root canonical.
 * @throws {ConfigError} If the path is missing or relative, the file exceeds 64 KiB (65,536
 *   bytes), is not JSON, or breaks a rule; `fieldPath` names the offending field.
 * @see docs/design/config.md §2–§7
 */
export async function loadConfig(flag: ConfigFlag, env: Readonly<Record<string, string | undefined>>): Promise<Binding> {
  const configPath = locateConfig(flag, env);
  const config = validateConfig(await readConfigJson(configPath));
  checkScope(config.provider); // step 2
  if (config.writeEnabled && config.provider.type === 'generic-http-search-v1') {
    // Step 3 runs before the credential is read, so it wins even when the credential is missing.
    throw new ConfigError('External context memory writes require a Mem0 provider. Field: write.', 'write');
  }
  const credential = resolveProviderCredential(config.provider, env); // step 4
  const autoRecall = config.autoRecall === undefined ? undefined : { repositoryRoot: await resolveRepositoryRoot(config.autoRecall.repositoryRoot), timeoutMs: config.autoRecall.timeoutMs }; // step 5
  return {
    version: config.version,
    timeoutMs: config.timeoutMs,
    provider: config.provider,
    writeEnabled: config.writeEnabled,
    autoRecall,
    redactSecrets: config.redactSecrets,
    credential,
    configPath,
  };
}

function checkScope(provider: ProviderConfig): void {
  if (provider.type !== 'mem0') return;
  const preset = PRESETS[provider.preset];
  for (const key of SCOPE_KEYS) {
    const rule = preset.scope[key];
    const present = provider.scope[key] !== undefined;
    const prefix = 'External context Mem0 scope is invalid:';
    if (rule.requirement === 'required' && !present) {
      throw new ConfigError(`${prefix} preset "${preset.id}" requires "${key}". Field: provider.scope.${key}.`, `provider.scope.${key}`);
    }
    if (rule.requirement === 'absent' && present) {
      throw new ConfigError(`${prefix} preset "${preset.id}" does not use "${key}", so it must be omitted. Field: provider.scope.${key}.`, `provider.scope.${key}`);
    }
  }
}

function resolveProviderCredential(provider: ProviderConfig, env: Readonly<Record<string, string | undefined>>): string {
  switch (provider.type) {
    case 'generic-http-search-v1':
      return resolveCredential(env, provider.tokenEnv, 'tokenEnv');
    case 'mem0-platform-v3':
      return resolveCredential(env, provider.apiKeyEnv, 'apiKeyEnv');
    case 'mem0':
      return resolveCredential(env, provider.credentialEnv, 'credentialEnv');
  }
}
