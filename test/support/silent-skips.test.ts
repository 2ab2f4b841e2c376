// No silent tier (issue 17 item 3): a test that needs a build output takes its path from
// requireBuilt() (./paths.ts), which fails the run naming `npm run build`; a test that needs a
// host tool goes through the tool tier (./tool-tier.ts), which fails under CI=true. This test
// fails when a file under test/ guards on a build output or on openssl in a way that drops the
// tests without a word.
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.ts';

const TEST_ROOT = path.join(REPO_ROOT, 'test');
const THIS_FILE = path.join(TEST_ROOT, 'support', 'silent-skips.test.ts');
/** Installed packages and benchmark scripts (figures, never pass/fail) are not tests. */
const NOT_TESTS = new Set(['fixtures', 'bench', 'node_modules']);

/** The guards that drop a tier silently, each with the remedy the failure names. */
const SILENT_GUARDS: readonly { readonly text: string; readonly remedy: string }[] = [
  { text: 'skipIf(!existsSync(', remedy: 'requireBuilt() for a build output, registerToolGate() for a host tool' },
  { text: 'existsSync(exePath())', remedy: 'requireBuilt(exePath())' },
  { text: 'existsSync(bundlePath())', remedy: 'requireBuilt(bundlePath())' },
  { text: 'skipIf(!opensslAvailable(', remedy: 'opensslTier() with registerToolGate()' },
];

/** Every .ts and .mjs file under test/ (absolute), without fixtures and benchmarks. */
function testFiles(dir: string = TEST_ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || (dir === TEST_ROOT && NOT_TESTS.has(name)) ? [] : testFiles(full);
    return /\.(ts|mjs)$/.test(name) && full !== THIS_FILE ? [full] : [];
  });
}

test('no test file drops a tier silently when a build output or openssl is missing', () => {
  const found = testFiles().flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return SILENT_GUARDS.filter((guard) => text.includes(guard.text)).map((guard) => `${path.relative(REPO_ROOT, file)}: ${guard.text} (use ${guard.remedy})`);
  });
  expect(found).toEqual([]);
});

test('the scan sees the test files', () => {
  // A guard over an empty list would pass for nothing: the scan reaches the suite's files.
  const files = testFiles().map((file) => path.relative(REPO_ROOT, file));
  expect(files).toContain(path.join('test', 'cli', 'hook.test.ts'));
  expect(files).toContain(path.join('test', 'soak', 'soak.long.ts'));
});
