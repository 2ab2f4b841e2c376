// dist/external-context.mjs under the real Node.js on PATH (>= 20.3, spec README, "Runtimes"):
// the smoke suite. The corpus runtime message where node:sqlite is missing is
// test/cli/corpus.test.ts's (both commands, nothing written), its one Node.js bundle row.
import { describe } from 'bun:test';
import { describeBundleSmoke } from './bundle-smoke.ts';

describe('dist/external-context.mjs under Node.js', () => {
  describeBundleSmoke('node-bundle');
});
