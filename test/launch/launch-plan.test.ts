// loadLaunchPlan() and planFor(): the --profile path rule, the argument vector, the
// positive-allowlist environment and the credential rule (examples.md §8.1, §8.3, §8.4).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadLaunchPlan } from '../../src/launch/launch-plan.ts';
import { LaunchProfileError } from '../../src/launch/launch-profile-error.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

async function failure(flag: string | null | undefined, env: Record<string, string> = {}): Promise<string> {
  try {
    await loadLaunchPlan(flag, env);
  } catch (error) {
    expect(error).toBeInstanceOf(LaunchProfileError);
    return (error as LaunchProfileError).message;
  }
  throw new Error('loadLaunchPlan() accepted the profile');
}

describe('loadLaunchPlan() --profile value', () => {
  test.each([[undefined], [null], [''], ['relative/profile.json'], ['./profile.json']])('loadLaunchPlan(%p) reports --profile must name an absolute file path.', async (flag) => {
    expect(await failure(flag)).toBe('--profile must name an absolute file path.');
  });
});

describe('loadLaunchPlan() child process', () => {
  test('loadLaunchPlan() puts --mcp-config first, then qwenArgs, and runs in the canonical repository', async () => {
    const file = fx.write('with-mcp.json', fx.profile('exit:0', { mcpConfig: fx.mcpConfig, repository: `${fx.repository}/.` }));
    const plan = await loadLaunchPlan(file, {});
    expect(plan.executable).toBe(fx.node);
    expect(plan.args).toEqual(['--mcp-config', fx.mcpConfig, fx.childScript, 'exit:0']);
    expect(plan.cwd).toBe(fx.repository);
  });

  test('loadLaunchPlan() without mcpConfig passes qwenArgs alone', async () => {
    const plan = await loadLaunchPlan(fx.write('no-mcp.json', fx.profile('exit:0')), {});
    expect(plan.args).toEqual([fx.childScript, 'exit:0']);
  });

  test('loadLaunchPlan() builds exactly env, present non-empty passEnv, credentialEnv and QWEN_CODE_SYSTEM_SETTINGS_PATH', async () => {
    const file = fx.write('env.json', fx.profile('exit:0', { env: { PATH: '/bin', FIXED: '' }, passEnv: ['HOME', 'UNSET', 'EMPTY'], credentialEnv: ['CONTEXT_API_TOKEN'] }));
    const launcherEnv = { HOME: '/home/u', EMPTY: '', CONTEXT_API_TOKEN: CANARY.credential, HTTPS_PROXY: 'http://proxy', PATH: '/usr/bin', QWEN_CODE_SYSTEM_SETTINGS_PATH: '/user/choice.json' };
    const plan = await loadLaunchPlan(file, launcherEnv);
    expect({ ...plan.env }).toEqual({
      PATH: '/bin',
      FIXED: '',
      HOME: '/home/u',
      CONTEXT_API_TOKEN: CANARY.credential,
      QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings,
    });
    expect(Object.keys(plan.env)).toEqual(['PATH', 'FIXED', 'HOME', 'CONTEXT_API_TOKEN', 'QWEN_CODE_SYSTEM_SETTINGS_PATH']);
  });

  test('loadLaunchPlan() reads variables as own properties only', async () => {
    const file = fx.write('proto.json', fx.profile('exit:0', { passEnv: ['toString', 'constructor'], credentialEnv: [] }));
    expect({ ...(await loadLaunchPlan(file, {})).env }).toEqual({ QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings });
  });
});

describe('loadLaunchPlan() credentials', () => {
  // An UPPER_SNAKE name is shown; an unset name that is not one may be a pasted key (below).
  const NAME = 'TEAM_CONTEXT_TOKEN';
  const file = (): string => fx.write('cred.json', fx.profile('exit:0', { credentialEnv: ['FIRST_TOKEN', NAME] }));

  test.each([
    ['absent', undefined, 'is not set'],
    ['empty', '', 'is empty'],
    ['whitespace', ' \t', 'is empty'],
    ['a placeholder', '${SOME_TOKEN}', 'holds an unresolved ${…} placeholder'],
    ['a control character', `${CANARY.credential}\u0007`, 'contains a control character, which cannot go in an HTTP header'],
  ])('loadLaunchPlan() reports a credential that is %s by the variable the profile names, never its value', async (_label, value, reason) => {
    const env: Record<string, string> = { FIRST_TOKEN: 'ok' };
    if (value !== undefined) env[NAME] = value;
    const message = await failure(file(), env);
    expect(message).toBe(`External context launch credential ${NAME} ${reason}. Field: credentialEnv.`);
    expectNoCanary(message);
  });

  test('loadLaunchPlan() never shows an unset name that does not look like a variable name (a pasted key)', async () => {
    for (const pasted of [CANARY.envName, `ghp_${CANARY.credential.slice(-8)}x`, `AKIA${CANARY.credential.slice(-8).toUpperCase()}1234`]) {
      const profile = fx.write('pasted.json', fx.profile('exit:0', { credentialEnv: ['FIRST_TOKEN', pasted] }));
      const message = await failure(profile, { FIRST_TOKEN: 'ok' });
      expect(message).toBe(
        'External context launch credential credentialEnv.1 names a variable that is not set; the name does not look like a variable name: was the credential itself pasted there? Field: credentialEnv.',
      );
    }
  });

  test('loadLaunchPlan() passes an available credential through unchanged', async () => {
    const plan = await loadLaunchPlan(file(), { FIRST_TOKEN: ' padded ', [NAME]: CANARY.credential });
    expect(plan.env['FIRST_TOKEN']).toBe(' padded ');
    expect(plan.env[NAME]).toBe(CANARY.credential);
  });
});
