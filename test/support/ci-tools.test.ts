// The host-tool table (.ci/tools.tsv, issue 25 §1) is the one list of what the tiers look for and
// what CI installs: every tier in it is used by a test, no test looks for a tool another way, and
// .ci/run installs from it and proves the install on a fresh Debian root. Also: every tier file
// outside `npm test` (`*.tier.ts`, `*.long.ts`) is in a test:* script that .ci/run runs.
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { hostToolTier, rowPresent, toolRows } from './ci-tools.ts';
import { REPO_ROOT } from './paths.ts';

const TEST_ROOT = path.join(REPO_ROOT, 'test');
const THIS_FILE = path.join(TEST_ROOT, 'support', 'ci-tools.test.ts');

function testSources(dir: string = TEST_ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || (dir === TEST_ROOT && name === 'fixtures') ? [] : testSources(full);
    return /\.(ts|mjs)$/.test(name) && full !== THIS_FILE ? [full] : [];
  });
}

test('every row of .ci/tools.tsv parses, names a Debian package and is unique', () => {
  const rows = toolRows();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.package).toMatch(/^[a-z0-9][a-z0-9+.-]+$/);
  const keys = rows.map((row) => `${row.tier} ${row.kind} ${row.name}`);
  expect(new Set(keys).size).toBe(keys.length);
});

test('every tier of the table is the one a test (or the fresh-root check) asks for', () => {
  const sources = testSources()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const freshRootCheck = readFileSync(path.join(REPO_ROOT, '.ci', 'fresh-root-check'), 'utf8');
  const unused = [...new Set(toolRows().map((row) => row.tier))].filter((tier) => (tier === 'fresh-root' ? !freshRootCheck.includes('debootstrap') : !sources.includes(`'${tier}'`)));
  expect(unused).toEqual([]);
});

test('no test looks for a host tool outside the table', () => {
  // `command -v` or `which` in a test file would be a tool CI does not know to install (Node.js,
  // the machine's own runtime, is the one command looked up directly).
  const found = testSources()
    .filter((file) => file !== path.join(TEST_ROOT, 'support', 'ci-tools.ts'))
    .filter((file) => /command -v |spawnSync\('which'|Bun\.which\('(?!node')/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(REPO_ROOT, file));
  expect(found).toEqual([]);
});

test('.ci/run installs from the table before building and proves the install on a fresh root', () => {
  const run = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8');
  const install = run.indexOf('step .ci/install-tools');
  expect(install).toBeGreaterThan(-1);
  expect(install).toBeLessThan(run.indexOf('step npm test'));
  expect(run).toContain('step .ci/fresh-root-check');
  expect(run).not.toContain('apt-get install');
});

test('a row is present or absent as the machine has it, and a missing tier names its package', () => {
  const [absent] = toolRows('tier\tkind\tname\tpackage\nx\tfile\t/nonexistent/ec-tool\tec-package\n');
  expect(absent).toBeDefined();
  expect(rowPresent(absent!)).toBe(false);
  expect(rowPresent({ tier: 'x', kind: 'command', name: 'sh', package: 'dash' })).toBe(true);
  expect(rowPresent({ tier: 'x', kind: 'command', name: 'ec-no-such-command-4f2', package: 'x' })).toBe(false);
  expect(() => toolRows('x\tprogram\tsh\tdash\n')).toThrow('kind must be command or file');
  expect(() => toolRows('x\tfile\trelative/path\tdash\n')).toThrow('absolute path');
  expect(() => hostToolTier('no-such-tier')).toThrow("no row for tier 'no-such-tier'");
});

test('every tier file outside npm test is run by a test:* script, and .ci/run runs every test:* script', () => {
  const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const tierScripts = Object.entries(scripts).filter(([name]) => name.startsWith('test:'));
  const listed = new Set(tierScripts.flatMap(([, command]) => command.split(/\s+/).filter((word) => /\.(tier|long)\.ts$/.test(word))));
  const tiers = testSources()
    .filter((file) => /\.(tier|long)\.ts$/.test(file))
    .map((file) => `./${path.relative(REPO_ROOT, file)}`);
  expect(tiers.length).toBeGreaterThan(10);
  expect(tiers.filter((file) => !listed.has(file))).toEqual([]);
  expect([...listed].filter((file) => !tiers.includes(file))).toEqual([]);
  const run = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8');
  expect(tierScripts.map(([name]) => name).filter((name) => !run.includes(`step npm run ${name} `))).toEqual([]);
});
