// validateConfig(): every reason of config.md §5, the field paths, defaults, and the §5 check
// order (inputs where two failures compete; the first in spec order must win).
import { describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { thrownBy } from '../support/thrown-error.ts';
import { genericConfig, platformConfig, presetConfig } from './temp-config.ts';

const PREFIX = 'External context config is invalid: ';

/** The message validateConfig throws for `root` (fails the test when it does not throw). */
function failure(root: unknown): ConfigError {
  return thrownBy(ConfigError, () => validateConfig(root));
}

function message(root: unknown): string {
  return failure(root).message;
}

function expectInvalid(root: unknown, tail: string): void {
  const error = failure(root);
  expect(error.message).toBe(`${PREFIX}${tail}.`);
  expect(error.fieldPath).toBe(tail.slice(0, tail.indexOf(' ')));
}

const GENERIC_PROVIDER = genericConfig()['provider'] as Record<string, unknown>;

function v2(autoRecall: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 2, provider: GENERIC_PROVIDER, autoRecall, ...extra };
}

function mem0Provider(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return presetConfig('mem0-server-rest-2026-08', fields)['provider'] as Record<string, unknown>;
}

describe('validateConfig() defaults', () => {
  test('validateConfig() defaults timeoutMs to 5000 ms and leaves writes disabled', () => {
    const config = validateConfig(genericConfig());
    expect(config.version).toBe(1);
    expect(config.timeoutMs).toBe(5000);
    expect(config.writeEnabled).toBe(false);
    expect(config.autoRecall).toBeUndefined();
    expect(config.provider).toEqual({
      type: 'generic-http-search-v1',
      baseUrl: 'https://search.example',
      tokenEnv: 'CONTEXT_TOKEN',
    });
  });

  test('validateConfig() accepts timeoutMs 15000, 1 and 30000', () => {
    for (const timeoutMs of [15000, 1, 30000]) {
      expect(validateConfig(genericConfig({ timeoutMs })).timeoutMs).toBe(timeoutMs);
    }
  });

  test('validateConfig() defaults basePath to "" and allowInsecureHttp to false for mem0', () => {
    const config = validateConfig(presetConfig('polardb-mysql-2026-08'));
    expect(config.provider).toEqual({
      type: 'mem0',
      preset: 'polardb-mysql-2026-08',
      endpoint: { origin: 'https://mem0.example', basePath: '', allowInsecureHttp: false },
      credentialEnv: 'MEM0_KEY',
      scope: { userId: 'u1' },
    });
  });

  test('validateConfig() keeps basePath and allowInsecureHttp when given', () => {
    const config = validateConfig(
      presetConfig('mem0-server-rest-2026-08', {
        endpoint: { origin: 'http://192.0.2.1:8080', basePath: '/mem0', allowInsecureHttp: true },
      }),
    );
    expect(config.provider).toMatchObject({
      endpoint: { origin: 'http://192.0.2.1:8080', basePath: '/mem0', allowInsecureHttp: true },
    });
  });

  test('validateConfig() trims appId and scope values before use', () => {
    const platform = validateConfig(platformConfig({ provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: '  app \n' } }));
    expect(platform.provider).toMatchObject({ appId: 'app' });
    const preset = validateConfig(presetConfig('mem0-server-rest-2026-08', { scope: { userId: '\tu1 ', agentId: ' qwen-code ' } }));
    expect(preset.provider).toMatchObject({ scope: { userId: 'u1', agentId: 'qwen-code' } });
  });

  test('validateConfig() counts code points: 256 astral characters are accepted, 257 rejected', () => {
    const ok = validateConfig(platformConfig({ provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: '😀'.repeat(256) } }));
    expect(ok.provider).toMatchObject({ appId: '😀'.repeat(256) });
    expectInvalid(platformConfig({ provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: '😀'.repeat(257) } }), 'provider.appId must contain 1 to 256 characters after trimming');
  });

  test('validateConfig() accepts write {enabled:true} for mem0-platform-v3 and each preset', () => {
    expect(validateConfig(platformConfig({ write: { enabled: true } })).writeEnabled).toBe(true);
    for (const preset of ['mem0-platform-v3', 'mem0-server-rest-2026-08', 'polardb-mysql-2026-08'] as const) {
      expect(validateConfig(presetConfig(preset, {}, { write: { enabled: true } })).writeEnabled).toBe(true);
    }
  });

  test('validateConfig() version 2 defaults autoRecall.timeoutMs to 1500 ms and accepts 1 and 5000', () => {
    expect(validateConfig(v2({ repositoryRoot: '/repo' })).autoRecall).toEqual({ repositoryRoot: '/repo', timeoutMs: 1500 });
    expect(validateConfig(v2({ repositoryRoot: '/repo', timeoutMs: 1 })).autoRecall?.timeoutMs).toBe(1);
    expect(validateConfig(v2({ repositoryRoot: '/repo', timeoutMs: 5000 })).autoRecall?.timeoutMs).toBe(5000);
    // The top-level timeoutMs is accepted for compatibility in version 2.
    expect(validateConfig(v2({ repositoryRoot: '/repo' }, { timeoutMs: 100 })).timeoutMs).toBe(100);
  });
});

describe('validateConfig() reason table (config.md §5)', () => {
  test('"must be an object" for the root and every nested object', () => {
    for (const root of [null, [], 'x', 1, true, [genericConfig()]]) expectInvalid(root, 'config must be an object');
    expectInvalid(genericConfig({ provider: [] }), 'provider must be an object');
    expectInvalid(genericConfig({ provider: null }), 'provider must be an object');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: 'https://mem0.example' }) }, 'provider.endpoint must be an object');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: [] }) }, 'provider.endpoint must be an object');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: null }) }, 'provider.scope must be an object');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: ['u1'] }) }, 'provider.scope must be an object');
    expectInvalid(genericConfig({ write: true }), 'write must be an object');
    expectInvalid(genericConfig({ write: [] }), 'write must be an object');
    expectInvalid(v2(1), 'autoRecall must be an object');
    expectInvalid(v2(null), 'autoRecall must be an object');
  });

  test('"is required" for every missing required key', () => {
    expectInvalid({}, 'version is required');
    expectInvalid({ version: 1 }, 'provider is required');
    expectInvalid({ version: 1, provider: {} }, 'provider.type is required');
    expectInvalid({ version: 1, provider: { type: 'generic-http-search-v1', tokenEnv: 'T' } }, 'provider.baseUrl is required');
    expectInvalid({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'https://a.example' } }, 'provider.tokenEnv is required');
    expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', appId: 'a' } }, 'provider.apiKeyEnv is required');
    expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K' } }, 'provider.appId is required');
    const { preset: _preset, ...noPreset } = mem0Provider();
    expectInvalid({ version: 1, provider: noPreset }, 'provider.preset is required');
    const { endpoint: _endpoint, ...noEndpoint } = mem0Provider();
    expectInvalid({ version: 1, provider: noEndpoint }, 'provider.endpoint is required');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: {} }) }, 'provider.endpoint.origin is required');
    const { credentialEnv: _credentialEnv, ...noCredential } = mem0Provider();
    expectInvalid({ version: 1, provider: noCredential }, 'provider.credentialEnv is required');
    const { scope: _scope, ...noScope } = mem0Provider();
    expectInvalid({ version: 1, provider: noScope }, 'provider.scope is required');
    expectInvalid(genericConfig({ write: {} }), 'write.enabled is required');
    expectInvalid({ version: 2, provider: GENERIC_PROVIDER }, 'autoRecall is required');
    expectInvalid(v2({}), 'autoRecall.repositoryRoot is required');
    expectInvalid(v2({ timeoutMs: 100 }), 'autoRecall.repositoryRoot is required');
  });

  test('"is not a supported field" for unknown keys at every level, shown verbatim when plain', () => {
    expectInvalid(genericConfig({ remote: { listen: '127.0.0.1:0' } }), 'remote is not a supported field');
    expectInvalid(genericConfig({ repositoryRoot: '/repo' }), 'repositoryRoot is not a supported field');
    expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, allowInsecureHttp: true } }, 'provider.allowInsecureHttp is not a supported field');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { origin: 'https://m.example', path: '/x' } }) }, 'provider.endpoint.path is not a supported field');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { userId: 'u1', runId: 'r' } }) }, 'provider.scope.runId is not a supported field');
    expectInvalid(genericConfig({ write: { enabled: true, mode: 'unsafe' } }), 'write.mode is not a supported field');
    expectInvalid(v2({ repositoryRoot: '/repo', extra: 1 }), 'autoRecall.extra is not a supported field');
    expectInvalid(genericConfig({ 'a-b_$9': 1 }), 'a-b_$9 is not a supported field');
    expectInvalid(genericConfig({ ['k'.repeat(64)]: 1 }), `${'k'.repeat(64)} is not a supported field`);
  });

  test('an unknown key that is not short and plain is shown as "?"', () => {
    expectInvalid(genericConfig({ ['k'.repeat(65)]: 1 }), '? is not a supported field');
    expectInvalid(genericConfig({ 'bad key': 1 }), '? is not a supported field');
    expectInvalid(genericConfig({ 'a.b': 1 }), '? is not a supported field');
    expectInvalid(genericConfig({ '': 1 }), '? is not a supported field');
    expectInvalid(genericConfig({ 'sk-CANARY\u0000secret': 1 }), '? is not a supported field');
    expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, 'Bearer x': 1 } }, 'provider.? is not a supported field');
    expect(message(genericConfig({ 'CANARY value!': 1 }))).not.toContain('CANARY');
  });

  test('"__proto__" and "constructor" keys are unknown keys, not prototype lookups', () => {
    expectInvalid(JSON.parse('{"version":1,"__proto__":{"x":1},"provider":{}}'), '__proto__ is not a supported field');
    expectInvalid(JSON.parse(`{"version":1,"provider":${JSON.stringify(GENERIC_PROVIDER).slice(0, -1)},"__proto__":1}}`), 'provider.__proto__ is not a supported field');
    expectInvalid(genericConfig({ constructor: 1 }), 'constructor is not a supported field');
    expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, toString: 'x' } }, 'provider.toString is not a supported field');
  });

  test('version-specific top-level blocks', () => {
    expectInvalid(genericConfig({ autoRecall: { repositoryRoot: '/repo' } }), 'autoRecall is not allowed in a version 1 configuration');
    expectInvalid(v2({ repositoryRoot: '/repo' }, { write: { enabled: true } }), 'write is not allowed in a version 2 configuration');
  });

  test('"must be 1 or 2" for every other version value', () => {
    for (const version of [3, 0, -1, 1.5, '1', '2', null, true, [1], { v: 1 }]) {
      expectInvalid(genericConfig({ version }), 'version must be 1 or 2');
    }
  });

  test('"must be a string" for every string field given another type', () => {
    expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, baseUrl: 1 } }, 'provider.baseUrl must be a string');
    expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, tokenEnv: true } }, 'provider.tokenEnv must be a string');
    expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: null, appId: 'a' } }, 'provider.apiKeyEnv must be a string');
    expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: 5 } }, 'provider.appId must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ preset: 1 }) }, 'provider.preset must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { origin: ['https://m.example'] } }) }, 'provider.endpoint.origin must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { origin: 'https://m.example', basePath: 1 } }) }, 'provider.endpoint.basePath must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ credentialEnv: {} }) }, 'provider.credentialEnv must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { userId: null } }) }, 'provider.scope.userId must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { userId: 'u1', agentId: 7 } }) }, 'provider.scope.agentId must be a string');
    expectInvalid(v2({ repositoryRoot: 1 }), 'autoRecall.repositoryRoot must be a string');
  });

  test('"must be a boolean" for allowInsecureHttp', () => {
    for (const allowInsecureHttp of ['true', 1, null]) {
      expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { origin: 'https://m.example', allowInsecureHttp } }) }, 'provider.endpoint.allowInsecureHttp must be a boolean');
    }
  });

  test('"must be true" for write.enabled other than true', () => {
    for (const enabled of [false, 'true', 1, null]) expectInvalid(platformConfig({ write: { enabled } }), 'write.enabled must be true');
  });

  test('"must be an integer from 1 to 30000" for timeoutMs, with the field path', () => {
    for (const timeoutMs of [0, 30001, -1, 1.5, '5000', null, 1e400]) {
      expectInvalid(genericConfig({ timeoutMs }), 'timeoutMs must be an integer from 1 to 30000');
    }
  });

  test('"must be an integer from 1 to 5000" for autoRecall.timeoutMs, with the field path', () => {
    for (const timeoutMs of [0, 5001, 1.5, '1500', null]) {
      expectInvalid(v2({ repositoryRoot: '/repo', timeoutMs }), 'autoRecall.timeoutMs must be an integer from 1 to 5000');
    }
  });

  test('provider.type lists the three supported types', () => {
    for (const type of ['dataworks-bff-memory-v1', 'Mem0', 'mem0-v3', '']) {
      expectInvalid({ version: 1, provider: { type } }, 'provider.type must be one of: generic-http-search-v1, mem0-platform-v3, mem0');
    }
  });

  test('an unknown preset lists the three accepted presets', () => {
    for (const preset of ['mem0-server-rest-2026-09', 'MEM0-PLATFORM-V3', '']) {
      expectInvalid({ version: 1, provider: mem0Provider({ preset }) }, 'provider.preset must be one of: mem0-platform-v3, mem0-server-rest-2026-08, polardb-mysql-2026-08');
    }
  });

  test('each retired preset id names its replacement', () => {
    const retired: Record<string, string> = {
      'mem0-oss-rest-2026-08': 'mem0-server-rest-2026-08',
      'mem0-oss-2026-08': 'mem0-server-rest-2026-08',
      'aliyun-polardb-mysql-2026-08': 'polardb-mysql-2026-08',
      'mem0-v2': 'polardb-mysql-2026-08',
      'mem0-v3': 'mem0-platform-v3',
    };
    for (const [id, replacement] of Object.entries(retired)) {
      expectInvalid({ version: 1, provider: mem0Provider({ preset: id }) }, `provider.preset "${id}" is retired; use "${replacement}"`);
    }
    expect(message({ version: 1, provider: mem0Provider({ preset: 'mem0-oss-rest-2026-08' }) })).toBe(
      'External context config is invalid: provider.preset "mem0-oss-rest-2026-08" is retired; use "mem0-server-rest-2026-08".',
    );
  });

  test('inherited object keys are never taken for retired preset ids', () => {
    for (const preset of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expectInvalid({ version: 1, provider: mem0Provider({ preset }) }, 'provider.preset must be one of: mem0-platform-v3, mem0-server-rest-2026-08, polardb-mysql-2026-08');
    }
  });

  test('"must be an environment variable name" for tokenEnv, apiKeyEnv and credentialEnv', () => {
    for (const name of ['1ABC', 'A-B', 'A B', '', '${TOKEN}', 'É']) {
      expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, tokenEnv: name } }, 'provider.tokenEnv must be an environment variable name');
      expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: name, appId: 'a' } }, 'provider.apiKeyEnv must be an environment variable name');
      expectInvalid({ version: 1, provider: mem0Provider({ credentialEnv: name }) }, 'provider.credentialEnv must be an environment variable name');
    }
    for (const name of ['_', 'a', 'A_1', '__proto__']) {
      expect(validateConfig({ version: 1, provider: { ...GENERIC_PROVIDER, tokenEnv: name } }).provider).toMatchObject({ tokenEnv: name });
    }
  });

  test('"must contain 1 to 256 characters after trimming" for appId and scope values', () => {
    for (const value of ['', '   ', '\n\t', 'x'.repeat(257)]) {
      expectInvalid({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: value } }, 'provider.appId must contain 1 to 256 characters after trimming');
      expectInvalid({ version: 1, provider: mem0Provider({ scope: { userId: value } }) }, 'provider.scope.userId must contain 1 to 256 characters after trimming');
      expectInvalid({ version: 1, provider: mem0Provider({ scope: { userId: 'u', agentId: value } }) }, 'provider.scope.agentId must contain 1 to 256 characters after trimming');
      expectInvalid({ version: 1, provider: { ...mem0Provider({ preset: 'mem0-platform-v3' }), scope: { appId: value } } }, 'provider.scope.appId must contain 1 to 256 characters after trimming');
    }
    // 256 after trimming is accepted even when the raw value is longer.
    expect(validateConfig({ version: 1, provider: mem0Provider({ scope: { userId: `  ${'x'.repeat(256)}  ` } }) }).provider).toMatchObject({
      scope: { userId: 'x'.repeat(256) },
    });
  });

  test('"must be an absolute URL" for baseUrl and endpoint.origin that do not parse', () => {
    for (const url of ['search.example', '/v1', '', 'https://', '//host.example']) {
      expectInvalid({ version: 1, provider: { ...GENERIC_PROVIDER, baseUrl: url } }, 'provider.baseUrl must be an absolute URL');
      expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { origin: url } }) }, 'provider.endpoint.origin must be an absolute URL');
    }
  });

  test('the origin policy is not part of the schema: any parsable URL passes validateConfig()', () => {
    // Policy and basePath run at adapter construction (config.md §6 step 6).
    expect(() => validateConfig({ version: 1, provider: { ...GENERIC_PROVIDER, baseUrl: 'ftp://u:p@x.example/path?q#f' } })).not.toThrow();
    expect(() => validateConfig({ version: 1, provider: mem0Provider({ endpoint: { origin: 'http://192.0.2.1', basePath: 'no-slash' } }) })).not.toThrow();
  });

  test('"must not be empty" for autoRecall.repositoryRoot ""', () => {
    expectInvalid(v2({ repositoryRoot: '' }), 'autoRecall.repositoryRoot must not be empty');
  });

  test('historical shapes fail the schema', () => {
    expectInvalid({ version: 1, provider: { type: 'mem0', baseUrl: 'https://m.example', apiKeyEnv: 'K', userId: 'u' } }, 'provider.preset is required');
    expectInvalid({ version: 1, provider: { type: 'dataworks-bff-memory-v1' } }, 'provider.type must be one of: generic-http-search-v1, mem0-platform-v3, mem0');
    expectInvalid({ version: 2, provider: GENERIC_PROVIDER, repositoryRoot: '/repo' }, 'repositoryRoot is not a supported field');
  });

  test('messages never echo values', () => {
    const canary = 'CANARY-9d1e';
    const inputs = [
      genericConfig({ timeoutMs: canary }),
      { version: 1, provider: { ...GENERIC_PROVIDER, baseUrl: canary } },
      { version: 1, provider: { ...GENERIC_PROVIDER, tokenEnv: canary } },
      { version: 1, provider: { type: canary } },
      { version: 1, provider: mem0Provider({ preset: canary }) },
      genericConfig({ write: { enabled: canary } }),
      genericConfig({ version: canary }),
    ];
    for (const input of inputs) expect(message(input)).not.toContain(canary);
  });
});

describe('validateConfig() check order (config.md §5)', () => {
  test('step 1 before 2: a non-object root wins over everything', () => {
    expectInvalid([{ version: 3 }], 'config must be an object');
  });

  test('step 2 before 3: version is checked before top-level keys that come first in the file', () => {
    expectInvalid({ remote: 1, version: 3 }, 'version must be 1 or 2');
    expectInvalid({ remote: 1, provider: 'x' }, 'version is required');
    expectInvalid({ autoRecall: {}, version: '1' }, 'version must be 1 or 2');
  });

  test('step 3: top-level keys are checked in file order', () => {
    expectInvalid({ version: 1, zeta: 1, alpha: 2 }, 'zeta is not a supported field');
    expectInvalid({ version: 1, autoRecall: {}, remote: {} }, 'autoRecall is not allowed in a version 1 configuration');
    expectInvalid({ version: 1, remote: {}, autoRecall: {} }, 'remote is not a supported field');
    expectInvalid({ write: {}, version: 2, extra: 1 }, 'write is not allowed in a version 2 configuration');
    expectInvalid({ version: 2, extra: 1, write: {} }, 'extra is not a supported field');
  });

  test('step 3 before 4–7: an unknown top-level key wins over every later failure', () => {
    expectInvalid({ version: 1, timeoutMs: 0, provider: {}, write: {}, extra: 1 }, 'extra is not a supported field');
    expectInvalid({ provider: { type: 'x' }, version: 2, autoRecall: 1, remote: 1 }, 'remote is not a supported field');
  });

  test('step 4 before 5: timeoutMs wins over provider even when it comes later in the file', () => {
    expectInvalid({ version: 1, provider: { type: 'nope' }, timeoutMs: 0 }, 'timeoutMs must be an integer from 1 to 30000');
    expectInvalid({ provider: {}, version: 1, timeoutMs: 30001 }, 'timeoutMs must be an integer from 1 to 30000');
  });

  test('step 5 before 6: provider wins over write', () => {
    expectInvalid({ version: 1, write: {}, provider: { ...GENERIC_PROVIDER, baseUrl: 'x' } }, 'provider.baseUrl must be an absolute URL');
    expectInvalid({ version: 1, write: { enabled: false } }, 'provider is required');
  });

  test('step 5 before 7: provider wins over autoRecall', () => {
    expectInvalid({ version: 2, autoRecall: { repositoryRoot: '' }, provider: { type: 'x' } }, 'provider.type must be one of: generic-http-search-v1, mem0-platform-v3, mem0');
    expectInvalid({ version: 2, autoRecall: 1 }, 'provider is required');
  });

  test('step 5: provider object → type → fields in table order → unknown keys in file order', () => {
    expectInvalid({ version: 1, provider: { baseUrl: 1, tokenEnv: 2, type: 'nope' } }, 'provider.type must be one of: generic-http-search-v1, mem0-platform-v3, mem0');
    expectInvalid({ version: 1, provider: { extra: 1, baseUrl: 1 } }, 'provider.type is required');
    // baseUrl precedes tokenEnv in the table, whatever the file order.
    expectInvalid({ version: 1, provider: { tokenEnv: '1', type: 'generic-http-search-v1', baseUrl: 'x' } }, 'provider.baseUrl must be an absolute URL');
    expectInvalid({ version: 1, provider: { tokenEnv: '1', type: 'generic-http-search-v1' } }, 'provider.baseUrl is required');
    // apiKeyEnv precedes appId.
    expectInvalid({ version: 1, provider: { appId: ' ', type: 'mem0-platform-v3', apiKeyEnv: '-' } }, 'provider.apiKeyEnv must be an environment variable name');
    // Known fields before unknown keys, even when the unknown key comes first in the file.
    expectInvalid({ version: 1, provider: { zzz: 1, type: 'generic-http-search-v1', baseUrl: 'x', tokenEnv: 'T' } }, 'provider.baseUrl must be an absolute URL');
    expectInvalid({ version: 1, provider: { zzz: 1, type: 'generic-http-search-v1', tokenEnv: 'T' } }, 'provider.baseUrl is required');
    // Unknown keys in file order.
    expectInvalid({ version: 1, provider: { zeta: 1, ...GENERIC_PROVIDER, alpha: 2 } }, 'provider.zeta is not a supported field');
  });

  test('step 5: mem0 fields in table order, endpoint and scope checked at their position', () => {
    // preset before endpoint.
    expectInvalid({ version: 1, provider: { endpoint: {}, type: 'mem0', preset: 'mem0-v3' } }, 'provider.preset "mem0-v3" is retired; use "mem0-platform-v3"');
    // endpoint (with its own unknown key) before credentialEnv.
    expectInvalid({ version: 1, provider: mem0Provider({ credentialEnv: '1', endpoint: { origin: 'https://m.example', port: 1 } }) }, 'provider.endpoint.port is not a supported field');
    // endpoint: origin → basePath → allowInsecureHttp → unknown keys.
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { extra: 1, allowInsecureHttp: 'no', basePath: 1, origin: 'x' } }) }, 'provider.endpoint.origin must be an absolute URL');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { extra: 1, allowInsecureHttp: 'no', basePath: 1, origin: 'https://m.example' } }) }, 'provider.endpoint.basePath must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ endpoint: { extra: 1, allowInsecureHttp: 'no', origin: 'https://m.example' } }) }, 'provider.endpoint.allowInsecureHttp must be a boolean');
    // credentialEnv before scope.
    expectInvalid({ version: 1, provider: mem0Provider({ scope: 1, credentialEnv: '' }) }, 'provider.credentialEnv must be an environment variable name');
    // scope: userId → agentId → appId → unknown keys.
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { extra: 1, appId: '', agentId: ' ', userId: 1 } }) }, 'provider.scope.userId must be a string');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { extra: 1, appId: '', agentId: ' ' } }) }, 'provider.scope.agentId must contain 1 to 256 characters after trimming');
    expectInvalid({ version: 1, provider: mem0Provider({ scope: { extra: 1, appId: '' } }) }, 'provider.scope.appId must contain 1 to 256 characters after trimming');
    // scope (a known field) before an unknown provider key that comes first in the file.
    expectInvalid({ version: 1, provider: { extra: 1, ...mem0Provider({ scope: { userId: '' } }) } }, 'provider.scope.userId must contain 1 to 256 characters after trimming');
  });

  test('step 6: write is checked after the provider and reports its own fields in order', () => {
    expectInvalid(platformConfig({ write: { mode: 'unsafe', enabled: false } }), 'write.enabled must be true');
    expectInvalid(platformConfig({ write: { mode: 'unsafe', enabled: true } }), 'write.mode is not a supported field');
  });

  test('step 7: autoRecall object → repositoryRoot → timeoutMs → unknown keys', () => {
    expectInvalid(v2({ extra: 1, timeoutMs: 0, repositoryRoot: '' }), 'autoRecall.repositoryRoot must not be empty');
    expectInvalid(v2({ extra: 1, timeoutMs: 0 }), 'autoRecall.repositoryRoot is required');
    expectInvalid(v2({ extra: 1, timeoutMs: 0, repositoryRoot: '/repo' }), 'autoRecall.timeoutMs must be an integer from 1 to 5000');
    expectInvalid(v2({ extra: 1, repositoryRoot: '/repo' }), 'autoRecall.extra is not a supported field');
  });

  test('step 7 after 4: a top-level timeoutMs failure wins over autoRecall', () => {
    expectInvalid({ version: 2, autoRecall: { repositoryRoot: '' }, provider: GENERIC_PROVIDER, timeoutMs: 0 }, 'timeoutMs must be an integer from 1 to 30000');
  });
});

describe('redactSecrets (config.md §4.3)', () => {
  test('defaults to false in both versions and accepts true in both', () => {
    expect(validateConfig(genericConfig()).redactSecrets).toBe(false);
    expect(validateConfig(genericConfig({ redactSecrets: true })).redactSecrets).toBe(true);
    expect(validateConfig(v2({ repositoryRoot: '/repo' }, { redactSecrets: true })).redactSecrets).toBe(true);
    expect(validateConfig(v2({ repositoryRoot: '/repo' })).redactSecrets).toBe(false);
  });

  test('a non-boolean is refused after autoRecall (step 8)', () => {
    expectInvalid(genericConfig({ redactSecrets: 'yes' }), 'redactSecrets must be a boolean');
    expectInvalid(v2({ repositoryRoot: '' }, { redactSecrets: 1 }), 'autoRecall.repositoryRoot must not be empty');
  });
});
