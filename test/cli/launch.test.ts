// `external-context launch` as a process (examples.md §8): the command line (only
// --profile <abs path>; anything else, `--` included, is exit 2 and starts nothing), profile
// errors (exit 1, one stderr line), the child's exit code, the allow-listed environment and
// working directory, forwarded SIGTERM/SIGINT/SIGHUP (128 + number), a child that cannot be
// started, and the Deno --allow-run check. Runs the shipped executable, and the bundle under
// Deno for the permission checks (CONTRIBUTING.md: each case once, no source row). Usage and
// profile errors past one executable row each run through the dispatcher's run() in this
// process: the executable's own code, which answers them before any child or signal handler
// exists (issue 26 §3).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { help } from '../../src/cli/launch.ts';
import { createLaunchFixture, type LaunchFixture, parseChildReport } from '../launch/launch-fixture.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { cleanEnv } from '../support/env.ts';
import { binPath, bundlePath, exePath, requireBuilt, withSourceCommit } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';
import { run as dispatch } from '../../src/cli/dispatch.ts';

const EXE = requireBuilt(exePath());
const BUNDLE = requireBuilt(bundlePath());
const HELP_SUFFIX = ' Run "external-context launch --help".';

let fx: LaunchFixture;
let profile: string;
beforeAll(async () => {
  fx = await createLaunchFixture();
  profile = fx.write('profile.json', fx.profile('exit:0'));
});
afterAll(removeTempDirs);

const launch = (args: readonly string[], env: Record<string, string> = cleanEnv()): Promise<ProcessResult> => runProcess(EXE, ['launch', ...args], { env });

/** `launch …` through run() in this process, with the process rows' environment. */
const launchInProcess = (args: readonly string[], env: Record<string, string> = cleanEnv()): Promise<CapturedRun> => runInMemory(dispatch, ['launch', ...args], { env });

describe('external-context launch command line', () => {
  test('launch --help prints the usage on stdout and exits 0', async () => {
    const result = await launch(['--help']);
    expect(withSourceCommit(result.stdout)).toBe(help);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  test('launch without --profile is a usage error from the executable: exit 2, one stderr line', async () => {
    const result = await launch([]);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 2, stdout: '', stderr: `[external-context] Option --profile is required.${HELP_SUFFIX}\n` });
  });

  test.each([
    [[], 'Option --profile is required.'],
    [['PROFILE', '--'], 'The end-of-options marker "--" is not accepted.'],
    [['--', 'PROFILE'], 'The end-of-options marker "--" is not accepted.'],
    [['PROFILE', '--', '--yolo'], 'The end-of-options marker "--" is not accepted.'],
    [['--profile', '--'], 'The end-of-options marker "--" is not accepted.'],
    [['PROFILE', 'extra'], 'Unexpected argument.'],
    [['PROFILE', '--yolo'], 'Unknown option --yolo.'],
    [['PROFILE', '-p', 'hello'], 'Unknown option -p.'],
    [['PROFILE', '--profile', '/other.json'], 'Option --profile may be given only once.'],
    [['PROFILE', `--yolo=${CANARY.credential}`], 'Unknown option --yolo.'],
    [['PROFILE', `--${'x'.repeat(60)}`], 'Unknown option.'],
  ])('launch %p is a usage error, exit 2, and starts nothing', async (template, message) => {
    const marker = join(fx.dir, `started-${Math.random().toString(36).slice(2)}`);
    const file = fx.write(`usage-${Math.random().toString(36).slice(2)}.json`, {
      ...fx.profile('exit:0'),
      qwenArgs: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
    });
    const args = (template as string[]).flatMap((arg) => (arg === 'PROFILE' ? ['--profile', file] : [arg]));
    const result = await launchInProcess(args);
    expect(result.stderr).toBe(`[external-context] ${message}${HELP_SUFFIX}\n`);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
    expectNoCanary(result.stderr);
  });

  test.each([[['--profile']], [['--profile', '']], [['--profile=']], [['--profile', 'profile.json']], [['--profile=./profile.json']]])(
    'launch %p gives the absolute-path message and exits 1',
    async (args) => {
      const result = await launchInProcess(args);
      expect(result.stderr).toBe('[external-context] --profile must name an absolute file path.\n');
      expect(result.code).toBe(1);
    },
  );

  test('launch --profile=<abs path> is accepted like --profile <abs path>', async () => {
    const result = await launch([`--profile=${profile}`]);
    expect(result.code).toBe(0);
    expect(parseChildReport(result.stdout).argv).toEqual(['exit:0']);
  });
});

describe('external-context launch profile errors', () => {
  test('launch reports a profile error as one stderr line, exit 1, without starting Qwen Code', async () => {
    const bad = fx.write('bad.json', { ...fx.profile(), qwenArgs: 'x' });
    const result = await launch(['--profile', bad]);
    expect(result.stderr).toBe('[external-context] External context launch profile is invalid: qwenArgs must be an array of strings.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });

  test('launch reports an unreadable and a non-JSON profile', async () => {
    expect((await launchInProcess(['--profile', join(fx.dir, 'missing.json')])).stderr).toBe('[external-context] External context launch profile could not be read.\n');
    expect((await launchInProcess(['--profile', fx.write('text.json', 'not json')])).stderr).toBe('[external-context] External context launch profile is not valid JSON.\n');
    expect((await launchInProcess(['--profile', fx.repository])).stderr).toBe('[external-context] External context launch profile is not a valid file.\n');
  });

  test.skipIf(process.platform === 'win32')('launch refuses a group- or world-writable profile with the wording of the other files', async () => {
    for (const mode of [0o666, 0o664]) {
      const result = await launchInProcess(['--profile', fx.write(`shared-${mode.toString(8)}.json`, fx.profile('exit:0'), mode)]);
      expect(result.stderr).toBe('[external-context] External context launch profile must not be writable by other users.\n');
      expect(result.code).toBe(1);
    }
  });

  test('launch names an unavailable credential variable and why, never its value', async () => {
    const file = fx.write('cred.json', fx.profile('exit:0', { credentialEnv: [CANARY.envName] }));
    const result = await launchInProcess(['--profile', file], cleanEnv({ [CANARY.envName]: '   ' }));
    expect(result.stderr).toBe(`[external-context] External context launch credential ${CANARY.envName} is empty. Field: credentialEnv.\n`);
    expect(result.code).toBe(1);
    expectNoCanary(result.stderr, { allow: ['envName'] });
  });

  test('launch reports a Qwen Code executable that cannot be started', async () => {
    const file = fx.write('no-exec.json', { ...fx.profile(), qwenExecutable: fx.systemSettings });
    const result = await launch(['--profile', file]);
    expect(result.stderr).toBe('[external-context] Qwen Code could not be started.\n');
    expect(result.code).toBe(1);
  });
});

describe('external-context launch child process', () => {
  test('launch returns the child exit code', async () => {
    const result = await launch(['--profile', fx.write('exit42.json', fx.profile('exit:42'))]);
    expect(result.code).toBe(42);
    expect(result.stderr).toBe('');
  });

  test('launch gives the child exactly the allow-listed environment, the argument vector and the repository as cwd', async () => {
    const file = fx.write(
      'env.json',
      fx.profile('exit:0', {
        mcpConfig: fx.mcpConfig,
        env: { QWEN_CODE_MEMORY_TEAM: '0', LANG: 'C.UTF-8' },
        passEnv: ['HOME', 'TERM', 'NO_PROXY'],
        credentialEnv: ['CONTEXT_API_TOKEN'],
      }),
    );
    // The mcp-config flag comes first, so the Node.js child must accept it: run the script via -e.
    const launcherEnv = cleanEnv({
      HOME: '/home/launch-user',
      TERM: 'xterm',
      NO_PROXY: '',
      CONTEXT_API_TOKEN: CANARY.credential,
      HTTPS_PROXY: 'http://127.0.0.1:9',
      QWEN_EXTERNAL_CONTEXT_CONFIG: '/tmp/user-config.json',
      QWEN_CODE_SYSTEM_SETTINGS_PATH: '/tmp/user-settings.json',
      NODE_OPTIONS: '--require=/tmp/evil.js',
    });
    const result = await launch(['--profile', file], launcherEnv);
    // node rejects --mcp-config as an unknown option: the child still ran with our vector.
    expect(result.stderr).toContain('--mcp-config');
    expect(result.code).toBe(9);
    const direct = fx.write('env-direct.json', { ...JSON.parse(await Bun.file(file).text()), mcpConfig: undefined });
    const run = await launch(['--profile', direct], launcherEnv);
    const report = parseChildReport(run.stdout);
    expect(report.cwd).toBe(fx.repository);
    expect(report.argv).toEqual(['exit:0']);
    expect(report.env).toEqual({
      QWEN_CODE_MEMORY_TEAM: '0',
      LANG: 'C.UTF-8',
      HOME: '/home/launch-user',
      TERM: 'xterm',
      CONTEXT_API_TOKEN: CANARY.credential,
      QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings,
    });
    expect(run.code).toBe(0);
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('launch forwards %s to the child and exits with 128 + its number', async (signal, code) => {
    const file = fx.write(`wait-${signal}.json`, fx.profile('wait'));
    const child = spawn(EXE, ['launch', '--profile', file], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const ready = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.includes('\nready\n')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    await ready;
    const { pid } = parseChildReport(stdout);
    child.kill(signal);
    expect(await exited).toBe(code);
    // The Qwen Code child is gone too.
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

const LAUNCH_CHILD = proves('launch-child', ['deno-bundle']);

describe(`external-context launch under Deno ${LAUNCH_CHILD('deno-bundle')}`, () => {
  const deno = binPath('deno');
  const base = ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net'];

  test(
    'launch without --allow-run prints the one permission line and exits 1',
    async () => {
      const result = await runProcess(deno, [...base, BUNDLE, 'launch', '--profile', profile], { env: cleanEnv() });
      expect(result.stderr).toBe('[external-context] This command needs the Deno permission --allow-run.\n');
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    },
    LIVENESS_MS,
  );

  test(
    'launch with --allow-run but without --allow-sys prints the one permission line and exits 1',
    async () => {
      const result = await runProcess(deno, [...base, '--allow-run', BUNDLE, 'launch', '--profile', profile], { env: cleanEnv() });
      expect(result.stderr).toBe('[external-context] This command needs the Deno permission --allow-sys.\n');
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    },
    LIVENESS_MS,
  );

  test(
    'launch with --allow-run and --allow-sys starts the child and returns its exit code',
    async () => {
      const file = fx.write('deno-exit.json', fx.profile('exit:5'));
      const result = await runProcess(deno, [...base, '--allow-run', '--allow-sys', BUNDLE, 'launch', '--profile', file], { env: cleanEnv() });
      expect(parseChildReport(result.stdout).cwd).toBe(fx.repository);
      expect(result.code).toBe(5);
    },
    LIVENESS_MS,
  );
});
