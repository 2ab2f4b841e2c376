// The compiled executable runs the same smoke suite as the bundles (test/bundle/bundle-smoke.ts),
// so each runtime row proves its exit codes and MCP over stdio with one suite.
import { describe } from 'bun:test';
import { describeBundleSmoke } from './bundle-smoke.ts';

describe('dist/external-context (the compiled executable)', () => {
  describeBundleSmoke('executable');
});
