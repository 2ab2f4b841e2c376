// dist/external-context.mjs under the real Node.js on PATH (>= 20.3, spec README, "Runtimes"):
// the smoke suite, and the corpus runtime message where node:sqlite is missing.
import { describe, expect, test } from 'bun:test';
import { cleanEnv } from '../support/env.ts';
import { runProcess } from '../support/run-process.ts';
import { describeBundleSmoke } from './bundle-smoke.ts';
import { nodeLauncher } from '../support/launchers.ts';

/** Node.js 22.13 is the first release with node:sqlite unflagged (spec README, "Runtimes"). */
function nodeHasSqlite(): boolean {
  const node = Bun.which('node') ?? 'node';
  const result = Bun.spawnSync([node, '-p', 'process.versions.node'], { env: cleanEnv() });
  const [major = 0, minor = 0] = result.stdout.toString().trim().split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

describe('dist/external-context.mjs under Node.js', () => {
  describeBundleSmoke('node-bundle');

  // Skipped where the Node.js on PATH is 22.13 or later: it has node:sqlite, so no message.
  test.skipIf(nodeHasSqlite())('corpus index on a Node.js without node:sqlite exits 1 with the runtime message', async () => {
    const { command, args } = nodeLauncher();
    const result = await runProcess(command, [...args, 'corpus', 'index', 'README.md', '--out', '/nonexistent/ec.sqlite'], { env: cleanEnv() });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('[external-context] corpus commands need Bun, Deno, or Node.js 22.13 or later.\n');
    expect(result.code).toBe(1);
  });
});
