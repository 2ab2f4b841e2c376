// locateConfig(): `--config` first, then QWEN_EXTERNAL_CONTEXT_CONFIG by own-property lookup;
// both absolute; a conflict stops the process; no default (config.md §2).
import { describe, expect, test } from 'bun:test';
import path from 'node:path';
import { ConfigError } from '../../src/config/config-error.ts';
import { CONFIG_ENV, type ConfigFlag, locateConfig } from '../../src/config/locate.ts';
import { thrownBy } from '../support/thrown-error.ts';

const FLAG_MESSAGE = '--config must name an absolute file path.';
const ENV_MESSAGE = 'QWEN_EXTERNAL_CONTEXT_CONFIG must name an absolute file path.';
const NONE_MESSAGE = 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.';
const CONFLICT_MESSAGE = '--config and QWEN_EXTERNAL_CONTEXT_CONFIG name different files.';
const ABS = path.resolve('/etc/external-context/search.json');

function failure(flag: ConfigFlag, env: Record<string, string | undefined>): ConfigError {
  return thrownBy(ConfigError, () => locateConfig(flag, env));
}

describe('locateConfig()', () => {
  test('locateConfig() uses the --config value when it is absolute', () => {
    expect(locateConfig(ABS, {})).toBe(ABS);
  });

  test('locateConfig() uses QWEN_EXTERNAL_CONTEXT_CONFIG when there is no flag', () => {
    expect(CONFIG_ENV).toBe('QWEN_EXTERNAL_CONTEXT_CONFIG');
    expect(locateConfig(undefined, { [CONFIG_ENV]: ABS })).toBe(ABS);
  });

  test('locateConfig() rejects a --config value that is missing, empty or relative', () => {
    for (const flag of [null, '', 'search.json', './search.json', '../etc/search.json', '~/search.json']) {
      expect(failure(flag, {}).message).toBe(FLAG_MESSAGE);
      // The flag rule applies even when the variable holds a good path.
      expect(failure(flag, { [CONFIG_ENV]: ABS }).message).toBe(FLAG_MESSAGE);
    }
  });

  test('locateConfig() rejects a relative variable when there is no flag', () => {
    for (const env of [{ [CONFIG_ENV]: 'search.json' }, { [CONFIG_ENV]: './x/search.json' }]) {
      expect(failure(undefined, env).message).toBe(ENV_MESSAGE);
    }
  });

  test('locateConfig() says how to give a configuration when there is none at all (no default)', () => {
    for (const env of [{}, { [CONFIG_ENV]: '' }, { [CONFIG_ENV]: undefined }]) {
      expect(failure(undefined, env).message).toBe(NONE_MESSAGE);
    }
  });

  test('locateConfig() ignores a variable inherited through the prototype of the environment', () => {
    const env = Object.create({ [CONFIG_ENV]: ABS }) as Record<string, string>;
    expect(env[CONFIG_ENV]).toBe(ABS);
    expect(failure(undefined, env).message).toBe(NONE_MESSAGE);
    // An inherited value never conflicts with the flag either.
    expect(locateConfig('/other/file.json', env)).toBe('/other/file.json');
  });

  test('locateConfig() rejects a flag and a variable that name different files', () => {
    expect(failure('/a/one.json', { [CONFIG_ENV]: '/a/two.json' }).message).toBe(CONFLICT_MESSAGE);
    // A relative variable is resolved lexically and differs from the flag.
    expect(failure('/a/one.json', { [CONFIG_ENV]: 'one.json' }).message).toBe(CONFLICT_MESSAGE);
  });

  test('locateConfig() accepts a flag and a variable that agree after lexical normalization', () => {
    expect(locateConfig('/a/b/../one.json', { [CONFIG_ENV]: '/a/./one.json' })).toBe('/a/b/../one.json');
    expect(locateConfig('/a/one.json', { [CONFIG_ENV]: '/a//one.json' })).toBe('/a/one.json');
    // An empty variable counts as unset.
    expect(locateConfig('/a/one.json', { [CONFIG_ENV]: '' })).toBe('/a/one.json');
  });

  test('locateConfig() returns the path as the operator gave it', () => {
    expect(locateConfig(undefined, { [CONFIG_ENV]: '/a/./b.json' })).toBe('/a/./b.json');
  });

  test('locateConfig() messages never contain the path', () => {
    const canary = '/CANARY-dir/secret.json';
    expect(failure('/x.json', { [CONFIG_ENV]: canary }).message).not.toContain('CANARY');
    expect(failure('CANARY-rel.json', {}).message).not.toContain('CANARY');
    expect(failure(undefined, { [CONFIG_ENV]: 'CANARY-rel.json' }).message).not.toContain('CANARY');
  });
});
