// requireBuilt() (test/support/paths.ts): a missing build output fails with the command that
// makes it, so no tier drops out silently.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { REPO_ROOT, requireBuilt } from './paths.ts';

test('requireBuilt() returns an existing path unchanged', () => {
  const file = join(REPO_ROOT, 'package.json');
  expect(requireBuilt(file)).toBe(file);
});

test('requireBuilt() throws for a missing file, naming it and npm run build', () => {
  const missing = join(REPO_ROOT, 'dist', 'ec-no-such-output');
  expect(() => requireBuilt(missing)).toThrow(`${missing} is missing: run npm run build (npm test builds it in pretest).`);
});
