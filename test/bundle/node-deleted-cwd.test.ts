// dist/external-context.mjs under Node.js started in a deleted working directory, where
// process.cwd() throws ENOENT: the Hooks must still answer (hooks.md: fail-open, exit 0). Deno
// refuses to start there before any code of ours runs: a documented difference (hooks.md §2.7).
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanEnv } from '../support/env.ts';
import { denoLauncher, nodeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';

const DELETED_CWD = proves('deleted-cwd', ['node-bundle', 'deno-bundle']);

/** `command args… hook auto-recall` started by a shell inside a directory it removed first. */
async function inDeletedDirectory(command: string, args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ec-deleted-cwd-'));
  const script = `cd "$1" && rmdir "$1" && shift && exec "$@" hook auto-recall`;
  const child = Bun.spawn(['/bin/sh', '-c', script, 'sh', dir, command, ...args], { env: cleanEnv({ DENO_NO_UPDATE_CHECK: '1' }), stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  child.stdin.write(JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hello', cwd: dir }));
  child.stdin.end();
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  rmSync(dir, { recursive: true, force: true });
  return { stdout, stderr, code };
}

test(`hook auto-recall in a deleted working directory answers {} and exits 0 with empty stderr ${DELETED_CWD('node-bundle')}`, async () => {
  const { command, args } = nodeLauncher();
  const result = await inDeletedDirectory(command, args);
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe('{}');
  expect(result.code).toBe(0);
});

test(`Deno refuses to start in a deleted working directory before any code of ours runs: exit 1, its own message, no answer (a documented difference) ${DELETED_CWD('deno-bundle')}`, async () => {
  const { command, args } = denoLauncher();
  const result = await inDeletedDirectory(command, args);
  expect(result.stderr).toContain('could not read current working directory');
  expect(result.stderr).not.toContain('external-context');
  expect(result.stdout).toBe('');
  expect(result.code).toBe(1);
});
