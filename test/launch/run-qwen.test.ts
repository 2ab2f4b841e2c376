// runQwen(): the child's exit code, a signal ending it (128 + number), a child that cannot be
// started, and the environment and directory it runs with (examples.md §8.4). The launcher's
// own signal forwarding is tested on the real command in test/cli/launch.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { LaunchPlan } from '../../src/launch/launch-plan.ts';
import { runQwen } from '../../src/launch/run-qwen.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { createLaunchFixture, type LaunchFixture } from './launch-fixture.ts';

let fx: LaunchFixture;
beforeAll(async () => {
  fx = await createLaunchFixture();
});
afterAll(removeTempDirs);

// The child inherits stdio, so scripts here report through files, never through stdout.
function plan(source: string, env: Record<string, string> = {}): LaunchPlan {
  const script = fx.write(`script-${Math.random().toString(36).slice(2)}.cjs`, source);
  return { executable: fx.node, args: [script], env, cwd: fx.repository };
}

describe('runQwen()', () => {
  test('runQwen() returns the child exit code', async () => {
    expect(await runQwen(plan('process.exitCode = 0;'))).toEqual({ started: true, exitCode: 0 });
    expect(await runQwen(plan('process.exitCode = 42;'))).toEqual({ started: true, exitCode: 42 });
  });

  test('runQwen() returns 128 + the signal number when a signal ends the child', async () => {
    expect(await runQwen(plan("process.kill(process.pid, 'SIGKILL');"))).toEqual({ started: true, exitCode: 137 });
    expect(await runQwen(plan("process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000);"))).toEqual({ started: true, exitCode: 143 });
  });

  test('runQwen() reports a child that cannot be started', async () => {
    expect(await runQwen({ executable: join(fx.dir, 'no-such-qwen'), args: [], env: {}, cwd: fx.repository })).toEqual({ started: false });
    // A regular file without execute permission.
    expect(await runQwen({ executable: fx.systemSettings, args: [], env: {}, cwd: fx.repository })).toEqual({ started: false });
  });

  test('runQwen() gives the child exactly the plan environment and working directory', async () => {
    const out = join(fx.dir, 'seen.json');
    const source = `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ cwd: process.cwd(), env: process.env }));`;
    await runQwen(plan(source, { ONLY: 'this', QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings }));
    const seen = JSON.parse(await Bun.file(out).text()) as { cwd: string; env: Record<string, string> };
    expect(seen.cwd).toBe(fx.repository);
    expect(seen.env).toEqual({ ONLY: 'this', QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings });
  });
});
