// One formatter for the tree (issue 26 §4): Biome formats src/, build/ and test/ (biome.json),
// and this test fails when a file is not as `npm run format` would write it. Biome, not
// Prettier: it checks the ~600 files in about a second, so the check costs `npm test` little.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { cleanEnv } from './support/env.ts';
import { REPO_ROOT } from './support/paths.ts';
import { runProcess } from './support/run-process.ts';

const BIOME = join(REPO_ROOT, 'node_modules', '.bin', 'biome');

test('every source file is formatted as npm run format writes it (biome.json)', async () => {
  const result = await runProcess(BIOME, ['format', '--colors=off', '.'], { cwd: REPO_ROOT, env: cleanEnv() });
  // Biome names each file it would change; the whole output is the diagnostic.
  expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
});
