// The fixture-tier rule (spec README, "Build, test, demo") for tiers that need a build output
// or a host tool rather than a fixture package: with what they need they run; without it they
// are skipped with a visible reason, except under CI=true, where they fail naming the remedy.
import { describe, test } from 'bun:test';

/** Whether a tier can run, and what to do when it cannot. */
export interface ToolTier {
  /** The tier's name, for test titles. */
  readonly name: string;
  /** What is missing, or undefined when the tier can run. */
  readonly missing: string | undefined;
  /** How to provide it (for example `run npm run build:all`). */
  readonly remedy: string;
}

/**
 * Registers the tier's gate: nothing when `missing` is undefined; otherwise one failing test
 * under `CI=true`, or one skipped test plus a stderr line naming the reason elsewhere. Wrap
 * the tier's tests in `describe.skipIf(tier.missing !== undefined)`.
 *
 * @param tier The tier, what it lacks and the remedy.
 * @param env The environment CI is read from (default `process.env`).
 */
export function registerToolGate(tier: ToolTier, env: Readonly<Record<string, string | undefined>> = process.env): void {
  if (tier.missing === undefined) return;
  const reason = `${tier.name}: ${tier.missing}; ${tier.remedy}`;
  if (env['CI'] === 'true') {
    describe(tier.name, () => {
      test(`${tier.name} can run (required under CI=true)`, () => {
        throw new Error(`${reason}.`);
      });
    });
    return;
  }
  process.stderr.write(`[skip] ${reason}.\n`);
  describe(tier.name, () => {
    test.skip(`skipped: ${reason}`, () => undefined);
  });
}
