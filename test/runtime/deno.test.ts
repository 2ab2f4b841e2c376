import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');
const DENO = join(ROOT, 'node_modules', '.bin', 'deno');

// A minimal Deno run of the runtime modules (style.md: runtime suites stay small).
describe('src/runtime under Deno', () => {
  test('Deno.serve on [::1] port 0 with a graceful close, node:sqlite with FTS5, and permission queries', () => {
    const run = spawnSync(DENO, ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', join(import.meta.dir, 'deno-check.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      runtime: 'deno',
      sqlite: ['deno sqlite'],
      url: 'http://[::1]:PORT',
      echo: 'POST /x hi',
      inFlight: 'GET /slow ',
      afterClose: 'refused',
      missingWrite: 'write',
      missingNet: null,
    });
  });
});
