// loadConfig(): locate → read → schema → scope → write provider → credential → repository
// root, first failure wins (config.md §2–§7), and the binding it returns.
import { afterAll, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/config-error.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { ConfigFlag } from '../../src/config/locate.ts';
import { rejectionOf } from '../support/thrown-error.ts';
import { createTempConfigDir, genericConfig, MINIMAL_SCOPES, platformConfig, presetConfig } from './temp-config.ts';

const temp = createTempConfigDir('ec-load-');
afterAll(() => temp.remove());

const CREDENTIALS = { CONTEXT_TOKEN: 'sk-context', MEM0_API_KEY: 'sk-platform', MEM0_KEY: 'sk-mem0' };
const CREDENTIAL_MESSAGE = 'Configured external context credential is unavailable. Field: provider.';
const WRITE_MESSAGE = 'External context memory writes require a Mem0 provider. Field: write.';
const ROOT_MESSAGE = (reason: string): string => `External context repository root is invalid: ${reason}. Field: autoRecall.repositoryRoot.`;
const PRESETS = ['mem0-platform-v3', 'mem0-server-rest-2026-08', 'polardb-mysql-2026-08'] as const;

async function loadFile(content: unknown, env: Record<string, string | undefined> = CREDENTIALS) {
  return loadConfig(temp.write(content), env);
}

function failure(flag: ConfigFlag, env: Record<string, string | undefined>): Promise<ConfigError> {
  return rejectionOf(ConfigError, loadConfig(flag, env));
}

async function fileFailure(content: unknown, env: Record<string, string | undefined> = CREDENTIALS): Promise<string> {
  return (await failure(temp.write(content), env)).message;
}

function v2(repositoryRoot: string, autoRecall: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...genericConfig(), version: 2, autoRecall: { repositoryRoot, ...autoRecall } };
}

describe('loadConfig() binding', () => {
  test('loadConfig() binds a version 1 Generic configuration with defaults and the resolved credential', async () => {
    const file = temp.write(genericConfig());
    const binding = await loadConfig(file, CREDENTIALS);
    expect(binding).toEqual({
      version: 1,
      timeoutMs: 5000,
      provider: { type: 'generic-http-search-v1', baseUrl: 'https://search.example', tokenEnv: 'CONTEXT_TOKEN' },
      writeEnabled: false,
      autoRecall: undefined,
      redactSecrets: false,
      credential: 'sk-context',
      configPath: file,
    });
  });

  test('loadConfig() takes the path from QWEN_EXTERNAL_CONTEXT_CONFIG and reports it as given', async () => {
    const file = temp.write(genericConfig());
    const given = `${path.dirname(file)}/./${path.basename(file)}`;
    const binding = await loadConfig(undefined, { ...CREDENTIALS, QWEN_EXTERNAL_CONTEXT_CONFIG: given });
    expect(binding.configPath).toBe(given);
  });

  test('loadConfig() accepts timeoutMs 15000 and rejects 0 and 30001 with the field path', async () => {
    expect((await loadFile(genericConfig({ timeoutMs: 15000 }))).timeoutMs).toBe(15000);
    for (const timeoutMs of [0, 30001]) {
      expect(await fileFailure(genericConfig({ timeoutMs }))).toBe('External context config is invalid: timeoutMs must be an integer from 1 to 30000.');
    }
  });

  test('loadConfig() enables writes for mem0-platform-v3 and for each preset', async () => {
    const platform = await loadFile(platformConfig({ write: { enabled: true } }));
    expect(platform.writeEnabled).toBe(true);
    expect(platform.credential).toBe('sk-platform');
    for (const preset of PRESETS) {
      const binding = await loadFile(presetConfig(preset, {}, { write: { enabled: true } }));
      expect(binding.writeEnabled).toBe(true);
      expect(binding.credential).toBe('sk-mem0');
    }
  });

  test('loadConfig() rejects write variants with the exact schema messages', async () => {
    const invalid = 'External context config is invalid: ';
    expect(await fileFailure({ ...v2(temp.mkdir('repo-w')), write: { enabled: true } })).toBe(`${invalid}write is not allowed in a version 2 configuration.`);
    expect(await fileFailure(platformConfig({ write: {} }))).toBe(`${invalid}write.enabled is required.`);
    expect(await fileFailure(platformConfig({ write: { enabled: false } }))).toBe(`${invalid}write.enabled must be true.`);
    expect(await fileFailure(platformConfig({ write: { enabled: true, mode: 'unsafe' } }))).toBe(`${invalid}write.mode is not a supported field.`);
  });

  test('loadConfig() rejects version 3, an unknown top-level key and an unknown nested key', async () => {
    expect(await fileFailure(genericConfig({ version: 3 }))).toBe('External context config is invalid: version must be 1 or 2.');
    expect(await fileFailure(genericConfig({ remote: {} }))).toBe('External context config is invalid: remote is not a supported field.');
    expect(await fileFailure(presetConfig('polardb-mysql-2026-08', { endpoint: { origin: 'https://m.example', headers: {} } }))).toBe(
      'External context config is invalid: provider.endpoint.headers is not a supported field.',
    );
  });

  test('loadConfig() names the replacement of each retired preset id', async () => {
    const retired = [
      ['mem0-oss-rest-2026-08', 'mem0-server-rest-2026-08'],
      ['mem0-oss-2026-08', 'mem0-server-rest-2026-08'],
      ['aliyun-polardb-mysql-2026-08', 'polardb-mysql-2026-08'],
      ['mem0-v2', 'polardb-mysql-2026-08'],
      ['mem0-v3', 'mem0-platform-v3'],
    ] as const;
    for (const [id, replacement] of retired) {
      expect(await fileFailure(presetConfig('polardb-mysql-2026-08', { preset: id }))).toBe(`External context config is invalid: provider.preset "${id}" is retired; use "${replacement}".`);
    }
  });
});

describe('loadConfig() scope against the preset (config.md §6 step 2)', () => {
  const requires = (preset: string, key: string) => `External context Mem0 scope is invalid: preset "${preset}" requires "${key}". Field: provider.scope.${key}.`;
  const forbids = (preset: string, key: string) => `External context Mem0 scope is invalid: preset "${preset}" does not use "${key}", so it must be omitted. Field: provider.scope.${key}.`;

  test('the Platform preset requires only appId and forbids userId and agentId', async () => {
    const binding = await loadFile(presetConfig('mem0-platform-v3', { scope: { appId: 'app' } }));
    expect(binding.provider).toMatchObject({ scope: { appId: 'app' } });
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: {} }))).toBe(requires('mem0-platform-v3', 'appId'));
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: { appId: 'a', userId: 'u' } }))).toBe(forbids('mem0-platform-v3', 'userId'));
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: { appId: 'a', agentId: 'g' } }))).toBe(forbids('mem0-platform-v3', 'agentId'));
  });

  for (const preset of ['mem0-server-rest-2026-08', 'polardb-mysql-2026-08'] as const) {
    test(`${preset} requires userId, allows agentId and forbids appId`, async () => {
      expect((await loadFile(presetConfig(preset, { scope: { userId: 'u1', agentId: 'qwen-code' } }))).provider).toMatchObject({
        scope: { userId: 'u1', agentId: 'qwen-code' },
      });
      expect(await fileFailure(presetConfig(preset, { scope: {} }))).toBe(requires(preset, 'userId'));
      expect(await fileFailure(presetConfig(preset, { scope: { agentId: 'g' } }))).toBe(requires(preset, 'userId'));
      expect(await fileFailure(presetConfig(preset, { scope: { userId: 'u1', appId: 'a' } }))).toBe(forbids(preset, 'appId'));
    });
  }

  test('scope keys are judged in the order userId, agentId, appId', async () => {
    // userId (forbidden) is reported before appId (required) for the Platform preset.
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: { agentId: 'g', userId: 'u' } }))).toBe(forbids('mem0-platform-v3', 'userId'));
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: { agentId: 'g' } }))).toBe(forbids('mem0-platform-v3', 'agentId'));
    // userId (required) before appId (forbidden).
    expect(await fileFailure(presetConfig('polardb-mysql-2026-08', { scope: { appId: 'a' } }))).toBe(requires('polardb-mysql-2026-08', 'userId'));
  });

  test('every preset accepts its minimal scope', async () => {
    for (const preset of PRESETS) {
      expect((await loadFile(presetConfig(preset))).provider).toMatchObject({ scope: MINIMAL_SCOPES[preset] });
    }
  });
});

describe('loadConfig() credential (config.md §6 step 4, §7.1)', () => {
  test('loadConfig() reports the credential field of each provider type, never the variable name', async () => {
    const cases = [
      [{ ...genericConfig(), provider: { type: 'generic-http-search-v1', baseUrl: 'https://s.example', tokenEnv: 'CANARY_TOKEN_VAR' } }, 'tokenEnv'],
      [{ ...platformConfig(), provider: { type: 'mem0-platform-v3', apiKeyEnv: 'CANARY_TOKEN_VAR', appId: 'a' } }, 'apiKeyEnv'],
      [presetConfig('mem0-server-rest-2026-08', { credentialEnv: 'CANARY_TOKEN_VAR' }), 'credentialEnv'],
    ] as const;
    for (const [config, field] of cases) {
      const message = await fileFailure(config, {});
      expect(message).toBe(`${CREDENTIAL_MESSAGE}${field}.`);
      expect(message).not.toContain('CANARY');
    }
  });

  test('loadConfig() rejects placeholders, whitespace-only and control-character credentials', async () => {
    for (const value of ['${CONTEXT_TOKEN}', '${OTHER}', '', '   ', 'sk-\nCANARY', 'sk-CANARY\u0000', 'sk-CANARY\u007f']) {
      const message = await fileFailure(genericConfig(), { CONTEXT_TOKEN: value });
      expect(message).toBe(`${CREDENTIAL_MESSAGE}tokenEnv.`);
      expect(message).not.toContain('CANARY');
      expect(message).not.toContain('CONTEXT_TOKEN');
    }
  });

  test('loadConfig() never takes __proto__, constructor or toString for credentials', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const config = { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'https://s.example', tokenEnv: name } };
      const message = await fileFailure(config, { ...CREDENTIALS });
      expect(message).toBe(`${CREDENTIAL_MESSAGE}tokenEnv.`);
      expect(message).not.toContain(name);
      expect(await fileFailure(config, process.env)).toBe(`${CREDENTIAL_MESSAGE}tokenEnv.`);
    }
  });

  test('loadConfig() ignores a credential inherited through the environment prototype', async () => {
    const env = Object.create({ CONTEXT_TOKEN: 'sk-inherited' }) as Record<string, string>;
    expect(await fileFailure(genericConfig(), env)).toBe(`${CREDENTIAL_MESSAGE}tokenEnv.`);
  });
});

describe('loadConfig() version 2 repository root (config.md §7.2)', () => {
  test('loadConfig() stores the canonical root and defaults autoRecall.timeoutMs to 1500 ms', async () => {
    const repo = temp.mkdir('v2-repo');
    const binding = await loadFile(v2(`${repo}/./`));
    expect(binding.version).toBe(2);
    expect(binding.autoRecall).toEqual({ repositoryRoot: repo, timeoutMs: 1500 });
    expect(binding.writeEnabled).toBe(false);
  });

  test('loadConfig() resolves a symlinked root', async () => {
    const target = temp.mkdir('v2-target');
    const link = path.join(temp.dir, 'v2-link');
    symlinkSync(target, link);
    expect((await loadFile(v2(link))).autoRecall?.repositoryRoot).toBe(target);
  });

  test('loadConfig() rejects a relative root, "/", a missing path and a regular file', async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['relative/repo', 'it must be an absolute path'],
      [path.parse(process.cwd()).root, 'it must not be a file-system root'],
      [path.join(temp.dir, 'missing'), 'it does not exist'],
      [temp.write('x', 'v2-file'), 'it is not a directory'],
    ];
    for (const [root, reason] of cases) expect(await fileFailure(v2(root))).toBe(ROOT_MESSAGE(reason));
  });

  test('loadConfig() accepts autoRecall.timeoutMs 1 and 5000 and rejects 0, 5001 and an extra key', async () => {
    const repo = temp.mkdir('v2-timeouts');
    expect((await loadFile(v2(repo, { timeoutMs: 1 }))).autoRecall?.timeoutMs).toBe(1);
    expect((await loadFile(v2(repo, { timeoutMs: 5000 }))).autoRecall?.timeoutMs).toBe(5000);
    for (const timeoutMs of [0, 5001]) {
      expect(await fileFailure(v2(repo, { timeoutMs }))).toBe('External context config is invalid: autoRecall.timeoutMs must be an integer from 1 to 5000.');
    }
    expect(await fileFailure(v2(repo, { mode: 'x' }))).toBe('External context config is invalid: autoRecall.mode is not a supported field.');
  });
});

describe('loadConfig() path and file rules (config.md §2, §3)', () => {
  test('loadConfig() rejects a relative variable, an inherited variable and no source at all', async () => {
    const message = 'QWEN_EXTERNAL_CONTEXT_CONFIG must name an absolute file path.';
    const none = 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.';
    expect((await failure(undefined, { QWEN_EXTERNAL_CONTEXT_CONFIG: 'config.json' })).message).toBe(message);
    const inherited = Object.create({ QWEN_EXTERNAL_CONTEXT_CONFIG: temp.write(genericConfig()) }) as Record<string, string>;
    expect((await failure(undefined, inherited)).message).toBe(none);
    expect((await failure(undefined, { ...CREDENTIALS })).message).toBe(none);
  });

  test('loadConfig() rejects --config relative, empty or without a value', async () => {
    for (const flag of ['config.json', '', null]) {
      expect((await failure(flag, CREDENTIALS)).message).toBe('--config must name an absolute file path.');
    }
  });

  test('loadConfig() rejects a conflicting flag and variable before reading either file', async () => {
    const one = temp.write(genericConfig());
    const error = await failure(one, { ...CREDENTIALS, QWEN_EXTERNAL_CONTEXT_CONFIG: path.join(temp.dir, 'missing.json') });
    expect(error.message).toBe('--config and QWEN_EXTERNAL_CONTEXT_CONFIG name different files.');
  });

  test('loadConfig() rejects a 65537-byte file, a directory and invalid UTF-8, and accepts a BOM', async () => {
    const json = JSON.stringify(genericConfig());
    expect(await fileFailure(json + ' '.repeat(65537 - json.length))).toMatch(/^External context config is not a valid file: \/.+: larger than 64 KiB\.$/u);
    expect((await loadFile(json + ' '.repeat(65536 - json.length))).version).toBe(1);
    const dir = temp.mkdir('config-dir');
    expect((await failure(dir, CREDENTIALS)).message).toBe(`External context config is not a valid file: ${dir}: is a directory.`);
    const invalid = new Uint8Array([...new TextEncoder().encode(json.slice(0, -1)), ...new TextEncoder().encode(',"x":"'), 0xc3, 0x28, 0x22, 0x7d]);
    expect(await fileFailure(invalid)).toMatch(/^External context config is not valid JSON: \/.+: not UTF-8\.$/u);
    expect((await loadFile(`\ufeff${json}`)).version).toBe(1);
  });
});

describe('loadConfig() check order (config.md §6)', () => {
  test('the schema (step 1) wins over a missing credential', async () => {
    expect(await fileFailure(genericConfig({ timeoutMs: 0 }), {})).toBe('External context config is invalid: timeoutMs must be an integer from 1 to 30000.');
  });

  test('scope (step 2) wins over the write provider check and a missing credential', async () => {
    expect(await fileFailure(presetConfig('mem0-platform-v3', { scope: {} }, { write: { enabled: true } }), {})).toBe(
      'External context Mem0 scope is invalid: preset "mem0-platform-v3" requires "appId". Field: provider.scope.appId.',
    );
  });

  test('Generic + write gives the write message even with the credential missing (step 3 before 4)', async () => {
    expect(await fileFailure(genericConfig({ write: { enabled: true } }), {})).toBe(WRITE_MESSAGE);
    expect(await fileFailure(genericConfig({ write: { enabled: true } }))).toBe(WRITE_MESSAGE);
  });

  test('the credential (step 4) wins over an invalid repository root (step 5)', async () => {
    expect(await fileFailure(v2('relative/repo'), {})).toBe(`${CREDENTIAL_MESSAGE}tokenEnv.`);
  });

  test('loading runs no origin or basePath policy: those belong to adapter construction (step 6)', async () => {
    const config = presetConfig('mem0-server-rest-2026-08', { endpoint: { origin: 'http://192.0.2.1:8080', basePath: 'no-slash' } });
    expect((await loadFile(config)).provider).toMatchObject({ endpoint: { origin: 'http://192.0.2.1:8080', basePath: 'no-slash' } });
  });
});
