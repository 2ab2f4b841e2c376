// validateLaunchProfile(): every schema reason of examples.md §8.3, the field order of the
// first failure, element addressing, the one-name-once rule and the outputs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LaunchProfileError } from '../../src/launch/launch-profile-error.ts';
import { validateLaunchProfile } from '../../src/launch/validate-launch-profile.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

async function failure(root: unknown): Promise<string> {
  try {
    await validateLaunchProfile(root);
  } catch (error) {
    expect(error).toBeInstanceOf(LaunchProfileError);
    return (error as LaunchProfileError).message;
  }
  throw new Error('validateLaunchProfile() accepted the profile');
}

const msg = (tail: string): string => `External context launch profile is invalid: ${tail}.`;
const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `V${index}`);

describe('validateLaunchProfile() root, version and unknown keys', () => {
  test.each([[[]], [null], ['profile'], [1]])('validateLaunchProfile(%p) reports profile must be an object', async (root) => {
    expect(await failure(root)).toBe(msg('profile must be an object'));
  });

  test('validateLaunchProfile() requires version and accepts only the number 1', async () => {
    const { version: _, ...rest } = fx.profile();
    expect(await failure(rest)).toBe(msg('version is required'));
    expect(await failure({ ...rest, version: 2 })).toBe(msg('version must be 1'));
    expect(await failure({ ...rest, version: '1' })).toBe(msg('version must be 1'));
  });

  test('validateLaunchProfile() reports an unknown key before any field failure, shown as ? when odd', async () => {
    expect(await failure({ ...fx.profile(), qwenExecutable: 'relative', extraArgs: [] })).toBe(msg('extraArgs is not a supported field'));
    expect(await failure({ ...fx.profile(), 'two words': 1 })).toBe(msg('? is not a supported field'));
  });
});

describe('validateLaunchProfile() path fields', () => {
  test.each(['qwenExecutable', 'repository', 'systemSettings'])('validateLaunchProfile() reports a missing %s as required', async (field) => {
    const profile = fx.profile();
    delete profile[field];
    expect(await failure(profile)).toBe(msg(`${field} is required`));
  });

  test.each(['qwenExecutable', 'mcpConfig', 'systemSettings'])('validateLaunchProfile() applies every file rule to %s', async (field) => {
    const at = (value: unknown): Record<string, unknown> => ({ ...fx.profile(), [field]: value });
    expect(await failure(at(42))).toBe(msg(`${field} must be a string`));
    expect(await failure(at(null))).toBe(msg(`${field} must be a string`));
    expect(await failure(at('relative/file.json'))).toBe(msg(`${field} must be an absolute path`));
    expect(await failure(at(`${fx.dir}/a\u0000b`))).toBe(msg(`${field} must not contain a NUL character`));
    expect(await failure(at(join(fx.dir, 'missing.json')))).toBe(msg(`${field} must name an existing regular file`));
    expect(await failure(at(fx.mkdir(`dir-${field}`)))).toBe(msg(`${field} must name an existing regular file`));
    if (process.platform !== 'win32') {
      const shared = fx.write(`shared-${field}.json`, {}, 0o666);
      expect(await failure(at(shared))).toBe(msg(`${field} must not be writable by other users`));
    }
  });

  test('validateLaunchProfile() follows a symlink to a regular file', async () => {
    const link = join(fx.dir, 'settings-link.json');
    symlinkSync(fx.systemSettings, link);
    const profile = await validateLaunchProfile({ ...fx.profile(), systemSettings: link });
    expect(profile.systemSettings).toBe(link);
  });

  test('validateLaunchProfile() applies every directory rule to repository', async () => {
    const at = (value: unknown): Record<string, unknown> => ({ ...fx.profile(), repository: value });
    expect(await failure(at(7))).toBe(msg('repository must be a string'));
    expect(await failure(at('repository'))).toBe(msg('repository must be an absolute path'));
    expect(await failure(at(join(fx.dir, 'no-such-dir')))).toBe(msg('repository must name an existing directory'));
    expect(await failure(at(fx.systemSettings))).toBe(msg('repository must name an existing directory'));
    expect(await failure(at('/'))).toBe(msg('repository must not be a file-system root'));
  });

  test('validateLaunchProfile() returns the canonical repository for a symlinked one', async () => {
    const link = join(fx.dir, 'repository-link');
    symlinkSync(fx.repository, link);
    expect((await validateLaunchProfile({ ...fx.profile(), repository: link })).repository).toBe(fx.repository);
  });

  test('validateLaunchProfile() reports the first failure in field order', async () => {
    const profile = { ...fx.profile(), credentialEnv: [1], repository: 'relative', qwenExecutable: 'relative', systemSettings: 'relative' };
    expect(await failure(profile)).toBe(msg('qwenExecutable must be an absolute path'));
    expect(await failure({ ...profile, qwenExecutable: fx.node })).toBe(msg('repository must be an absolute path'));
    expect(await failure({ ...profile, qwenExecutable: fx.node, repository: fx.repository, mcpConfig: 'x' })).toBe(msg('mcpConfig must be an absolute path'));
  });
});

describe('validateLaunchProfile() qwenArgs', () => {
  const at = (value: unknown): Record<string, unknown> => ({ ...fx.profile(), qwenArgs: value });

  test('validateLaunchProfile() defaults qwenArgs to [] and keeps 64 strings', async () => {
    const { qwenArgs: _, ...rest } = fx.profile();
    expect((await validateLaunchProfile(rest)).qwenArgs).toEqual([]);
    expect((await validateLaunchProfile(at(names(64)))).qwenArgs).toEqual(names(64));
  });

  test('validateLaunchProfile() rejects a non-array, 65 entries, a non-string and a NUL element', async () => {
    expect(await failure(at('-p hi'))).toBe(msg('qwenArgs must be an array of strings'));
    expect(await failure(at({ 0: 'a' }))).toBe(msg('qwenArgs must be an array of strings'));
    expect(await failure(at(names(65)))).toBe(msg('qwenArgs must have at most 64 entries'));
    expect(await failure(at(['-p', 3]))).toBe(msg('qwenArgs.1 must be a string'));
    expect(await failure(at(['-p', 'x', 'a\u0000b']))).toBe(msg('qwenArgs.2 must not contain a NUL character'));
  });
});

describe('validateLaunchProfile() env', () => {
  const at = (value: unknown): Record<string, unknown> => ({ ...fx.profile(), env: value });

  test('validateLaunchProfile() returns env entries in file order and none by default', async () => {
    expect((await validateLaunchProfile(at({ PATH: '/usr/bin', LANG: 'C', EMPTY: '' }))).env).toEqual([
      ['PATH', '/usr/bin'],
      ['LANG', 'C'],
      ['EMPTY', ''],
    ]);
    const { env: _, ...rest } = fx.profile();
    expect((await validateLaunchProfile(rest)).env).toEqual([]);
  });

  test('validateLaunchProfile() rejects a non-object, 65 entries, a bad name, a non-string and a NUL value', async () => {
    expect(await failure(at(['PATH']))).toBe(msg('env must be an object'));
    expect(await failure(at(null))).toBe(msg('env must be an object'));
    expect(await failure(at(Object.fromEntries(names(65).map((name) => [name, 'x']))))).toBe(msg('env must have at most 64 entries'));
    expect(await failure(at({ OK: 'x', '1BAD': 'x' }))).toBe(msg('env.1BAD must be an environment variable name'));
    expect(await failure(at({ 'BAD NAME': 'x' }))).toBe(msg('env.? must be an environment variable name'));
    expect(await failure(at({ COUNT: 1 }))).toBe(msg('env.COUNT must be a string'));
    expect(await failure(at({ VALUE: 'a\u0000' }))).toBe(msg('env.VALUE must not contain a NUL character'));
  });

  test('validateLaunchProfile() reads JSON keys such as constructor as names, never as prototypes, and refuses __proto__', async () => {
    const base = `"version":1,"qwenExecutable":${JSON.stringify(fx.node)},"repository":${JSON.stringify(fx.repository)},"systemSettings":${JSON.stringify(fx.systemSettings)}`;
    const root = JSON.parse(`{${base},"env":{"constructor":"c","toString":"t"}}`) as unknown;
    expect((await validateLaunchProfile(root)).env).toEqual([
      ['constructor', 'c'],
      ['toString', 't'],
    ]);
    // Node.js passed an env entry named __proto__ to the child and Bun dropped it: refused everywhere.
    expect(await failure(JSON.parse(`{${base},"env":{"__proto__":"p"}}`))).toBe(msg('env.__proto__ must be an environment variable name'));
  });

  test('validateLaunchProfile() refuses env naming QWEN_CODE_SYSTEM_SETTINGS_PATH', async () => {
    expect(await failure(at({ QWEN_CODE_SYSTEM_SETTINGS_PATH: '/x' }))).toBe(msg('env.QWEN_CODE_SYSTEM_SETTINGS_PATH is set more than once'));
  });
});

describe.each(['passEnv', 'credentialEnv'])('validateLaunchProfile() %s', (field) => {
  const at = (value: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fx.profile(), ...extra, [field]: value });

  test(`validateLaunchProfile() defaults ${field} to [] and keeps 64 names`, async () => {
    expect((await validateLaunchProfile(fx.profile()))[field as 'passEnv']).toEqual([]);
    expect((await validateLaunchProfile(at(names(64))))[field as 'passEnv']).toEqual(names(64));
  });

  test(`validateLaunchProfile() rejects a non-array ${field}, 65 names and a bad element`, async () => {
    expect(await failure(at('HOME'))).toBe(msg(`${field} must be an array of environment variable names`));
    expect(await failure(at({}))).toBe(msg(`${field} must be an array of environment variable names`));
    expect(await failure(at(names(65)))).toBe(msg(`${field} must have at most 64 entries`));
    expect(await failure(at(['HOME', 7]))).toBe(msg(`${field}.1 must be an environment variable name`));
    expect(await failure(at(['HOME', 'A-B']))).toBe(msg(`${field}.1 must be an environment variable name`));
  });

  test(`validateLaunchProfile() reports a name repeated in ${field} or already in env`, async () => {
    expect(await failure(at(['A', 'B', 'A']))).toBe(msg(`${field}.2 is set more than once`));
    expect(await failure(at(['B', 'PATH'], { env: { PATH: '/bin' } }))).toBe(msg(`${field}.1 is set more than once`));
    expect(await failure(at(['QWEN_CODE_SYSTEM_SETTINGS_PATH']))).toBe(msg(`${field}.0 is set more than once`));
  });
});

describe('validateLaunchProfile() across the variable lists', () => {
  test('validateLaunchProfile() reports a credentialEnv name already in passEnv at its credentialEnv index', async () => {
    expect(await failure({ ...fx.profile(), passEnv: ['HOME', 'TOKEN'], credentialEnv: ['OTHER', 'TOKEN'] })).toBe(msg('credentialEnv.1 is set more than once'));
  });

  test('validateLaunchProfile() reports a passEnv duplicate before a bad credentialEnv element (field order)', async () => {
    expect(await failure({ ...fx.profile(), passEnv: ['A', 'A'], credentialEnv: [1] })).toBe(msg('passEnv.1 is set more than once'));
  });

  test('validateLaunchProfile() returns every field of a complete profile', async () => {
    const profile = await validateLaunchProfile({
      ...fx.profile('exit:0', { mcpConfig: fx.mcpConfig }),
      env: { PATH: '/bin' },
      passEnv: ['HOME'],
      credentialEnv: ['TOKEN'],
    });
    expect(profile).toEqual({
      version: 1,
      qwenExecutable: fx.node,
      repository: fx.repository,
      mcpConfig: fx.mcpConfig,
      systemSettings: fx.systemSettings,
      qwenArgs: [fx.childScript, 'exit:0'],
      env: [['PATH', '/bin']],
      passEnv: ['HOME'],
      credentialEnv: ['TOKEN'],
    });
  });
});
