// The TypeScript checks of `npm test` (docs/design/README.md, "Build, test, demo"; style.md):
// `tsc --noEmit` over the whole project with bun-types, and over `src/` without `runtime/` and
// without bun-types. They run as a test file so that they overlap the rest of the suite in bun's
// worker pool instead of adding their time after it. `npm run typecheck` runs the same two
// checks on their own.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { cleanEnv } from './support/env.ts';
import { REPO_ROOT } from './support/paths.ts';
import { runProcess } from './support/run-process.ts';
import { LIVENESS_MS } from './support/liveness.ts';

const TSC = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
/** The two projects: tsconfig.json (src, test, build) and tsconfig.src.json (runtime-neutral src). */
const PROJECTS = ['tsconfig.json', 'tsconfig.src.json'] as const;

test('tsc --noEmit reports nothing for the whole project, nor for src/ without runtime/ and bun-types', async () => {
  // One checker thread each: the pool already keeps both cores busy, and tsc's default of four
  // checkers repeats shared work (6.4 s instead of 3.9 s of CPU for tsconfig.json, alone, for
  // 0.4 s less wall time).
  const runs = await Promise.all(
    PROJECTS.map(async (project) => {
      const result = await runProcess(TSC, ['--noEmit', '-p', project, '--checkers', '1'], { cwd: REPO_ROOT, env: cleanEnv(), timeoutMs: LIVENESS_MS });
      return { project, code: result.code, timedOut: result.timedOut, output: result.stdout + result.stderr };
    }),
  );
  expect(runs).toEqual(PROJECTS.map((project) => ({ project, code: 0, timedOut: false, output: '' })));
});
