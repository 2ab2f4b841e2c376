// The suite's one fast-check configuration (docs/design/style.md, "Tests"): every property runs
// from one seed, fixed by default so a run is reproducible; `FUZZ_SEED=<n>` or
// `FUZZ_SEED=random` overrides it. A failing property names its seed and the replay command.
// Loaded before every test file by bunfig.toml's `preload`.
import fc from 'fast-check';

/** The seed every property runs from unless `FUZZ_SEED` says otherwise. */
export const DEFAULT_FUZZ_SEED = 20261201;

/** Largest seed fast-check accepts (a signed 32-bit integer). */
const MAX_SEED = 0x7fffffff;

/**
 * Reads the suite's seed from `FUZZ_SEED`.
 *
 * @param value The variable's value: absent or empty for the fixed default, `random` for a
 *   fresh seed, or a decimal integer in -2^31…2^31-1.
 * @returns The seed (an integer).
 * @throws Error naming the variable and the accepted forms when the value is anything else.
 */
export function readFuzzSeed(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_FUZZ_SEED;
  if (value === 'random') return crypto.getRandomValues(new Int32Array(1))[0] ?? DEFAULT_FUZZ_SEED;
  if (/^-?\d{1,10}$/.test(value)) {
    const seed = Number(value);
    if (seed >= -MAX_SEED - 1 && seed <= MAX_SEED) return seed;
  }
  throw new Error(`FUZZ_SEED must be an integer in -2147483648…2147483647 or "random", not ${JSON.stringify(value)}.`);
}

/**
 * The command that replays a failed property: the same seed, the same file.
 *
 * @param seed The seed of the failed run.
 * @param file The test file, relative to the repository, when known.
 */
export function replayCommand(seed: number, file: string | undefined): string {
  return `FUZZ_SEED=${seed} npx bun test ${file ?? ''}${file === undefined ? '' : ' '}--timeout 60000`;
}

/** The first `*.test.ts` file named by a stack trace, relative to the repository. */
export function testFileInStack(stack: string | undefined): string | undefined {
  const match = /(test\/[^\s:()]+\.test\.ts)/.exec(stack ?? '');
  return match?.[1];
}

/** The seed this run uses (read once, so `FUZZ_SEED=random` gives one seed per run). */
export const SUITE_FUZZ_SEED = readFuzzSeed(process.env['FUZZ_SEED']);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: SUITE_FUZZ_SEED });

// The plugin is created synchronously inside fc.assert/fc.check, so its stack still names the
// test file; the completion hook runs later, maybe after awaits that lost that frame.
fc.installGlobalPlugin(() => {
  const file = testFileInStack(new Error().stack);
  return {
    onAllRunsComplete: (details: fc.RunDetails<unknown>) => {
      if (!details.failed) return;
      const cause = details.errorInstance instanceof Error ? `\n\nFailure: ${details.errorInstance.message.slice(0, 2000)}` : '';
      const message = `${fc.defaultReportMessage(details) ?? 'Property failed'}${cause}\n\nReplay: ${replayCommand(details.seed, file)}`;
      throw new Error(message, { cause: details.errorInstance });
    },
  };
});
