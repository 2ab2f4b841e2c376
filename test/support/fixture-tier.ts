// The fixture-tier rule (spec README, "Build, test, demo"): a tier runs when its fixture is
// installed; otherwise it is skipped with a visible reason, except under CI=true, where it
// fails and names `npm run fixtures`.
import { describe, test } from 'bun:test';

/** Whether a fixture tier runs, and why not. */
export interface FixtureTier {
  /** True when the fixture is installed and its tests run. */
  readonly installed: boolean;
  /** The folder to install, relative to the repository (for messages). */
  readonly folder: string;
  /**
   * Why the tier cannot run on this machine even after `npm run fixtures` (such as a fixture
   * published for other platforms only); replaces the "run npm run fixtures" reason.
   */
  readonly reason?: string;
}

/**
 * Registers the tier's gate: nothing when the fixture is installed; otherwise one failing test
 * under `CI=true`, or one skipped test plus a stderr line naming the reason elsewhere.
 *
 * Call it at the top level of the test file, then wrap the tier's tests in
 * `describe.skipIf(!tier.installed)`.
 *
 * @param tier Whether the fixture is installed, and its folder.
 * @param env The environment CI is read from (default `process.env`).
 */
export function registerFixtureGate(tier: FixtureTier, env: Readonly<Record<string, string | undefined>> = process.env): void {
  if (tier.installed) return;
  const reason = tier.reason ?? `${tier.folder} is not installed: run npm run fixtures`;
  if (env['CI'] === 'true') {
    describe('fixture tier', () => {
      test(`${tier.folder} is installed (required under CI=true)`, () => {
        throw new Error(`${reason}.`);
      });
    });
    return;
  }
  process.stderr.write(`[skip] ${reason}.\n`);
  describe('fixture tier', () => {
    test.skip(`skipped: ${reason}`, () => undefined);
  });
}
