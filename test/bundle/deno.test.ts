// dist/external-context.mjs under the real Deno of the root package (spec README, "Runtimes"):
// the smoke suite with the base permissions, and the one-line message for a missing permission.
// With --allow-write added, corpus index builds the index that corpus serve then answers from
// in test/cli/corpus.test.ts ('corpus under Deno').
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv } from '../support/env.ts';
import { runProcess } from '../support/run-process.ts';
import { withTempDir } from '../support/temp-dir.ts';
import { describeBundleSmoke } from './bundle-smoke.ts';
import { DENO_BASE_PERMISSIONS, denoLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';

const PERMISSIONS = proves('permissions', ['deno-bundle']);

describe('dist/external-context.mjs under Deno', () => {
  describeBundleSmoke('deno-bundle');

  test('corpus index without --allow-write exits 1 naming the permission and writes nothing', async () => {
    await withTempDir(async (dir) => {
      const source = path.join(dir, 'notes.md');
      await Bun.write(source, '# Notes\n\nSome text.\n');
      const out = path.join(dir, 'index.sqlite');
      const { command, args } = denoLauncher();
      const result = await runProcess(command, [...args, 'corpus', 'index', source, '--out', out], { env: cleanEnv(), cwd: dir });
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('[external-context] This command needs the Deno permission --allow-write.\n');
      expect(result.code).toBe(1);
      expect(existsSync(out)).toBe(false);
    });
  });

  test('hook settings --log with a comma is a usage error on Deno (--allow-write would grant two paths)', async () => {
    const { command, args } = denoLauncher();
    const result = await runProcess(command, [...args, 'hook', 'settings', 'auto-recall', '--log', '/var/log/ec,notes.log'], { env: cleanEnv({ DENO_NO_UPDATE_CHECK: '1' }) });
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: '[external-context] Option --log must not contain a comma when the Hook runs on Deno (--allow-write reads a comma-separated list). Run "external-context hook settings --help".\n',
    });
  });

  test(`serve, serve --http and conformance --url check --allow-net at startup: exit 1 with the one permission line ${PERMISSIONS('deno-bundle')}`, async () => {
    await withTempDir(async (dir) => {
      const config = path.join(dir, 'config.json');
      await Bun.write(config, JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: 'EC_TOKEN' } }));
      const env = cleanEnv({ EC_TOKEN: 'token', DENO_NO_UPDATE_CHECK: '1' });
      const noNet = denoLauncher(DENO_BASE_PERMISSIONS.filter((flag) => flag !== '--allow-net'));
      const otherHost = denoLauncher(['--no-prompt', '--allow-read', '--allow-env', '--allow-net=127.0.0.1:8']);
      const runs: readonly (readonly [ReturnType<typeof denoLauncher>, readonly string[]])[] = [
        [noNet, ['serve', '--config', config]],
        [otherHost, ['serve', '--config', config]],
        [noNet, ['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--config', config]],
        [noNet, ['conformance', '--url', 'http://127.0.0.1:9/mcp']],
      ];
      for (const [launcher, args] of runs) {
        const result = await runProcess(launcher.command, [...launcher.args, ...args], { env, cwd: dir, stdin: '' });
        expect({ args, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
          args,
          code: 1,
          stdout: '',
          stderr: '[external-context] This command needs the Deno permission --allow-net.\n',
        });
      }
    });
  });
});
