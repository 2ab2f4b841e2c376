// Bindings for provider tests, built the way config/load.ts produces them (config.md §4),
// so adapter tests need no configuration file. Credentials are canaries a test can grep for.
import type { Binding } from '../../src/config/binding.ts';
import type { Mem0PresetProviderConfig } from '../../src/config/schema.ts';
import type { PresetId, ScopeKey } from '../../src/config/presets.ts';

/** A credential that must never appear in any output, message or recorded error. */
export const CANARY_CREDENTIAL = 'canary-credential-7f3e9b';

/** A version 1 Generic HTTP binding. */
export function genericBinding(baseUrl: string, credential: string = CANARY_CREDENTIAL): Binding {
  return {
    version: 1,
    timeoutMs: 5000,
    provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: 'CONTEXT_TOKEN', basePath: '' },
    writeEnabled: false,
    autoRecall: undefined,
    redactSecrets: false,
    credential,
    configPath: '/etc/external-context/test.json',
  };
}

/** A version 1 `mem0` preset binding. */
export function mem0Binding(
  preset: PresetId,
  origin: string,
  scope: Readonly<Partial<Record<ScopeKey, string>>>,
  options: { basePath?: string; allowInsecureHttp?: boolean; writeEnabled?: boolean; credential?: string } = {},
): Binding {
  const provider: Mem0PresetProviderConfig = {
    type: 'mem0',
    preset,
    endpoint: { origin, basePath: options.basePath ?? '', allowInsecureHttp: options.allowInsecureHttp ?? false },
    credentialEnv: 'MEM0_API_KEY',
    scope,
  };
  return {
    version: 1,
    timeoutMs: 5000,
    provider,
    writeEnabled: options.writeEnabled ?? true,
    autoRecall: undefined,
    redactSecrets: false,
    credential: options.credential ?? CANARY_CREDENTIAL,
    configPath: '/etc/external-context/test.json',
  };
}

/** A version 1 legacy `mem0-platform-v3` binding. */
export function platformBinding(appId: string, options: { writeEnabled?: boolean; credential?: string } = {}): Binding {
  return {
    version: 1,
    timeoutMs: 5000,
    provider: { type: 'mem0-platform-v3', apiKeyEnv: 'MEM0_API_KEY', appId },
    writeEnabled: options.writeEnabled ?? true,
    autoRecall: undefined,
    redactSecrets: false,
    credential: options.credential ?? CANARY_CREDENTIAL,
    configPath: '/etc/external-context/test.json',
  };
}

/** A signal that never aborts on its own, with a generous hang guard (not a timing assertion). */
export function testSignal(): AbortSignal {
  return AbortSignal.timeout(20000);
}
