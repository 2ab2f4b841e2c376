// The shipped systemd units (contracts/examples/systemd/, issue 30 §4): `systemd-analyze verify`
// accepts them without a warning (an unknown or misspelt key is only a warning there, so stderr
// must stay empty), `systemd-analyze security --offline=true` rates their exposure at most 2.0
// ("OK"), each carries the sandbox an operator expects, and the executable accepts the command
// line of each ExecStart (it fails at the missing configuration or index, exit 1, never with a
// usage error). The executable's path is replaced by the built one, as verify checks that it
// exists. Needs systemd-analyze (Debian package systemd).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { hostToolTier } from '../support/ci-tools.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { EXAMPLES_DIR } from './examples-files.ts';

const UNITS = ['systemd/external-context-http.service', 'systemd/external-context-corpus.service'] as const;
const SHIPPED_EXECUTABLE = '/opt/external-context/bin/external-context';
/** `systemd-analyze security` counts exposure in tenths: 20 is the 2.0 it prints. */
const MAX_EXPOSURE_TENTHS = 20;

const tier = hostToolTier('systemd-units', 'systemd units');
registerToolGate(tier);

/** Every value of `key=` in the unit, in order. */
function values(text: string, key: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));
}

describe.skipIf(tier.missing !== undefined)('contracts/examples/systemd', () => {
  let dir = '';
  beforeAll(async () => {
    dir = (await makeTempDir('ec-systemd-')).path;
    for (const unit of UNITS) {
      const text = readFileSync(join(EXAMPLES_DIR, unit), 'utf8').replaceAll(SHIPPED_EXECUTABLE, requireBuilt(exePath()));
      writeFileSync(join(dir, unit.slice('systemd/'.length)), text);
    }
  });
  afterAll(removeTempDirs);

  for (const unit of UNITS) {
    const name = unit.slice('systemd/'.length);
    const text = (): string => readFileSync(join(EXAMPLES_DIR, unit), 'utf8');

    test(`${name}: systemd-analyze verify accepts it without a warning`, async () => {
      const result = await runProcess('systemd-analyze', ['verify', join(dir, name)], { env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 120_000 });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    });

    test(`${name}: systemd-analyze security rates its exposure at most 2.0`, async () => {
      const result = await runProcess('systemd-analyze', ['security', '--offline=true', `--threshold=${MAX_EXPOSURE_TENTHS}`, '--no-pager', join(dir, name)], {
        env: { PATH: process.env['PATH'] ?? '' },
        timeoutMs: 120_000,
      });
      expect(result.stdout).toMatch(/Overall exposure level for .*: [01]\.\d OK|Overall exposure level for .*: 2\.0 OK/);
      expect(result.code).toBe(0);
    });

    test(`${name}: a dynamic user in a read-only system, no privileges, bounded memory and address families`, () => {
      const unitText = text();
      for (const [key, value] of [
        ['DynamicUser', 'yes'],
        ['ProtectSystem', 'strict'],
        ['ProtectHome', 'yes'],
        ['PrivateTmp', 'yes'],
        ['PrivateDevices', 'yes'],
        ['NoNewPrivileges', 'yes'],
        ['CapabilityBoundingSet', ''],
        ['RestrictNamespaces', 'yes'],
        ['SystemCallFilter', '@system-service'],
        ['MemoryMax', '512M'],
        ['KillSignal', 'SIGTERM'],
        // `systemctl reload`, which docs/deploy.md tells the operator to use (SIGHUP, remote.md §1.13).
        ['ExecReload', '/bin/kill -HUP $MAINPID'],
      ] as const) {
        expect(values(unitText, key)).toEqual([value]);
      }
      expect(values(unitText, 'RestrictAddressFamilies')[0]).toMatch(/^AF_INET AF_INET6/);
      // The credential comes from a root-only file, never from the unit.
      expect(values(unitText, 'EnvironmentFile')).toHaveLength(1);
      expect(unitText).not.toMatch(/^Environment=/m);
    });

    test(`${name}: the executable accepts the ExecStart command line`, async () => {
      const [command, ...args] = (values(text(), 'ExecStart')[0] ?? '').split(' ');
      expect(command).toBe(SHIPPED_EXECUTABLE);
      // The configuration or index is missing here: exit 1 at start-up, after the flags parsed.
      const result = await runProcess(requireBuilt(exePath()), args, { env: { PATH: process.env['PATH'] ?? '', CONTEXT_API_TOKEN: 'ec-systemd-token' } });
      expect(result.stderr).not.toContain('--help');
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    });
  }
});
