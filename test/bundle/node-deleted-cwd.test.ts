// dist/external-context.mjs under Node.js started in a deleted working directory, where
// process.cwd() throws ENOENT: the Hooks must still answer (hooks.md: fail-open, exit 0).
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv } from '../support/env.ts';
import { nodeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';

const DELETED_CWD = proves('deleted-cwd', ['node-bundle']);

test(`hook auto-recall in a deleted working directory answers {} and exits 0 with empty stderr ${DELETED_CWD('node-bundle')}`, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ec-deleted-cwd-'));
  const { command, args } = nodeLauncher();
  // The shell enters the directory, removes it, then runs node inside it.
  const script = `cd "$1" && rmdir "$1" && exec "$2" "$3" hook auto-recall`;
  const child = Bun.spawn(['/bin/sh', '-c', script, 'sh', dir, command, args[0] ?? ''], { env: cleanEnv(), stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  child.stdin.write(JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hello', cwd: dir }));
  child.stdin.end();
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  rmSync(dir, { recursive: true, force: true });
  expect(stderr).toBe('');
  expect(stdout.trim()).toBe('{}');
  expect(code).toBe(0);
});
