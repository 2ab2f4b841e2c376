// The suite's fast-check configuration (test/support/fuzz-config.ts): the seed it reads and the
// replay command a failure prints.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { DEFAULT_FUZZ_SEED, readFuzzSeed, SUITE_FUZZ_SEED, replayCommand, testFileInStack } from './fuzz-config.ts';

describe('readFuzzSeed()', () => {
  test('absent or empty gives the fixed default seed', () => {
    expect(readFuzzSeed(undefined)).toBe(DEFAULT_FUZZ_SEED);
    expect(readFuzzSeed('')).toBe(DEFAULT_FUZZ_SEED);
  });

  test('a decimal 32-bit integer is taken as is', () => {
    expect(readFuzzSeed('1485825304')).toBe(1485825304);
    expect(readFuzzSeed('-2147483648')).toBe(-2147483648);
    expect(readFuzzSeed('0')).toBe(0);
  });

  test('"random" gives a 32-bit integer', () => {
    const seed = readFuzzSeed('random');
    expect(Number.isInteger(seed) && seed >= -2147483648 && seed <= 2147483647).toBe(true);
  });

  test('anything else throws, naming the variable and the accepted forms', () => {
    for (const value of ['2147483648', '1.5', 'abc', ' 1', '0x10']) {
      expect(() => readFuzzSeed(value)).toThrow('FUZZ_SEED must be an integer in -2147483648…2147483647 or "random"');
    }
  });
});

describe('the global configuration', () => {
  test('every property runs from the suite seed', () => {
    expect(fc.readConfigureGlobal().seed).toBe(SUITE_FUZZ_SEED);
  });

  test('a failing property names its seed and the command that replays this file', () => {
    let message = '';
    try {
      fc.assert(fc.property(fc.integer({ min: 1, max: 1 }), (value) => value === 2));
    } catch (error) {
      message = (error as Error).message;
    }
    const seed = fc.readConfigureGlobal().seed;
    expect(message).toContain(`{ seed: ${seed}, path: "0"`);
    expect(message).toContain(`Replay: FUZZ_SEED=${seed} npx bun test test/support/fuzz-config.test.ts --timeout 60000`);
  });
});

describe('replayCommand() and testFileInStack()', () => {
  test('the command names the seed and, when known, the file', () => {
    expect(replayCommand(7, 'test/fuzz/render.test.ts')).toBe('FUZZ_SEED=7 npx bun test test/fuzz/render.test.ts --timeout 60000');
    expect(replayCommand(7, undefined)).toBe('FUZZ_SEED=7 npx bun test --timeout 60000');
  });

  test('the first test file in a stack, relative to the repository', () => {
    expect(testFileInStack('Error\n    at check (/x/node_modules/fast-check/lib/fast-check.js:1:1)\n    at <anonymous> (/work/repo/test/fuzz/render.test.ts:198:8)')).toBe('test/fuzz/render.test.ts');
    expect(testFileInStack(undefined)).toBeUndefined();
  });
});
