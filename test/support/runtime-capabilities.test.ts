// The runtime matrix is data (issue 26 §3): every capability of test/support/runtime-capabilities.ts
// has its proof on each runtime row where it applies, exactly one on each bundle (a bundle
// process is expensive: one proof each), none where it does not apply, and every declaration
// names a known capability and row. Declarations are read from the test sources as literals.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RUNTIME_IDS, type RuntimeId } from './launchers.ts';
import { REPO_ROOT } from './paths.ts';
import { CAPABILITIES, type Capability } from './runtime-capabilities.ts';

interface Declaration {
  readonly file: string;
  readonly capability: string;
  readonly runtimes: readonly string[];
}

const TEST_DIR = path.join(REPO_ROOT, 'test');
const SELF = new Set(['support/runtime-capabilities.ts', 'support/runtime-capabilities.test.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : sources(full);
    return /\.(ts|mts)$/.test(entry.name) ? [full] : [];
  });
}

/** Every `proves(…)` call in the test sources; a call not written with literals is kept as unreadable. */
function declarations(): { found: Declaration[]; unreadable: string[] } {
  const found: Declaration[] = [];
  const unreadable: string[] = [];
  for (const file of sources(TEST_DIR)) {
    const relative = path.relative(TEST_DIR, file);
    if (SELF.has(relative)) continue;
    const text = readFileSync(file, 'utf8');
    for (const call of text.matchAll(/\bproves\(([^)]*)\)/g)) {
      const literal = /^\s*'([a-z-]+)',\s*\[((?:\s*'[a-z-]+',?)*)\s*\]\s*$/.exec(call[1] ?? '');
      if (literal === null) {
        unreadable.push(`${relative}: proves(${call[1]})`);
        continue;
      }
      found.push({ file: relative, capability: literal[1] as string, runtimes: [...(literal[2] ?? '').matchAll(/'([a-z-]+)'/g)].map((match) => match[1] as string) });
    }
  }
  return { found, unreadable };
}

const { found, unreadable } = declarations();

/**
 * Sources that start a bundle without declaring, each with its reason: they are not tests of
 * `npm test` (benchmarks, soak and memory tiers run by hand or in their own CI step) or they are
 * the matrix's own machinery.
 */
const UNDECLARED_BUNDLE_STARTS: readonly (readonly [prefix: string, reason: string])[] = [
  ['support/', 'the launchers, paths and checks of the matrix itself'],
  ['bench/', 'benchmarks measure start-up and throughput per runtime; they prove no capability'],
  ['soak/', 'the soak run is a long tier outside npm test'],
  ['memory/', 'the heap and RSS tiers (*.long.ts and their scripts) run outside npm test'],
];

const BUNDLE_ROWS: readonly RuntimeId[] = ['node-bundle', 'deno-bundle'];

/** The local names a source gives to the exports of the launcher modules. */
function launcherNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const match of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*(?:support\/launchers|bundle\/bundle-runtimes|\.\/bundle-runtimes)\.ts'/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const [imported, local] = part
        .replace(/\btype\s+/, '')
        .split(/\s+as\s+/)
        .map((name) => name.trim());
      if (imported) names.set(local ?? imported, imported);
    }
  }
  return names;
}

/**
 * The bundle rows a test source starts, read statically: a bundle launcher of
 * test/support/launchers.ts (`nodeLauncher()`, `denoLauncher()`, `launchers()`, `launcher(id)`,
 * `RUNTIME_IDS`), or the bundle's path (`bundlePath()`, `requireBundle()`) next to `node` or Deno.
 */
export function bundleRowsStarted(text: string): Set<RuntimeId> {
  const rows = new Set<RuntimeId>();
  const names = launcherNames(text);
  for (const [local, imported] of names) {
    const calls = [...text.matchAll(new RegExp(`\\b${local}\\(([^)]*)\\)`, 'g'))].map((match) => match[1] ?? '');
    if (calls.length === 0 && !(imported === 'RUNTIME_IDS' && new RegExp(`\\b${local}\\b`).test(text.replace(/import[^;]*;/g, '')))) continue;
    if (imported === 'nodeLauncher') rows.add('node-bundle');
    if (imported === 'denoLauncher') rows.add('deno-bundle');
    if (imported === 'RUNTIME_IDS') for (const row of BUNDLE_ROWS) rows.add(row);
    if (imported === 'launchers' || imported === 'launcher') {
      for (const args of calls) {
        const listed = [...args.matchAll(/'([a-z-]+)'/g)].map((match) => match[1]);
        // launchers() and launcher(id) with a variable start every row; a literal list names its rows.
        for (const row of BUNDLE_ROWS) if (listed.length === 0 || listed.includes(row)) rows.add(row);
      }
    }
  }
  if (/\b(bundlePath|requireBundle)\(\)/.test(text)) {
    if (/'node'|\bfindNode\(|\bnodeCommand\(/.test(text)) rows.add('node-bundle');
    if (/binPath\('deno'\)|\bdenoCommand\(/.test(text)) rows.add('deno-bundle');
  }
  return rows;
}
const table: Readonly<Record<string, Capability>> = CAPABILITIES;

/** The files that declare `capability` on `runtime`. */
function proofs(capability: string, runtime: RuntimeId): string[] {
  return found.filter((entry) => entry.capability === capability && entry.runtimes.includes(runtime)).map((entry) => entry.file);
}

describe('the runtime capability matrix', () => {
  test('every proves() call is written with literals, names a known capability and known rows, each once', () => {
    expect(unreadable).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
    for (const entry of found) {
      expect({ entry, known: Object.hasOwn(table, entry.capability) }).toEqual({ entry, known: true });
      for (const runtime of entry.runtimes) expect({ entry, runtime, known: (RUNTIME_IDS as readonly string[]).includes(runtime) }).toEqual({ entry, runtime, known: true });
      expect({ entry, unique: new Set(entry.runtimes).size === entry.runtimes.length }).toEqual({ entry, unique: true });
    }
  });

  test('every capability is proved on every row where it applies, exactly once on each bundle, and nowhere it does not apply', () => {
    const problems: string[] = [];
    for (const [capability, { rows }] of Object.entries(table)) {
      for (const runtime of RUNTIME_IDS) {
        const files = proofs(capability, runtime);
        const row = rows[runtime];
        if (row !== 'proof') {
          if (files.length > 0) problems.push(`${capability} does not apply on ${runtime} (${row.notApplicable}), yet ${files.join(', ')} declare it`);
        } else if (files.length === 0) {
          problems.push(`${capability} has no proof on ${runtime}`);
        } else if (runtime !== 'executable' && files.length > 1) {
          problems.push(`${capability} is proved ${files.length} times on ${runtime} (${files.join(', ')}): one proof per bundle`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('every test source that starts a bundle declares a proof on each bundle row it starts (or is exempt with its reason)', () => {
    const problems: string[] = [];
    for (const file of sources(TEST_DIR)) {
      const relative = path.relative(TEST_DIR, file);
      if (SELF.has(relative) || UNDECLARED_BUNDLE_STARTS.some(([prefix]) => relative.startsWith(prefix))) continue;
      const declared = new Set(found.filter((entry) => entry.file === relative).flatMap((entry) => entry.runtimes));
      for (const row of bundleRowsStarted(readFileSync(file, 'utf8'))) {
        if (!declared.has(row)) problems.push(`${relative} starts the ${row} but declares no proves('<capability>', ['${row}']): declare what it proves there, or run the row on the executable only`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('the bundle detector sees each way a test starts a bundle, and not the executable alone', () => {
    const imports = "import { denoLauncher, launchers as rows, nodeLauncher } from '../support/launchers.ts';\n";
    expect([...bundleRowsStarted(`${imports}nodeLauncher();`)]).toEqual(['node-bundle']);
    expect([...bundleRowsStarted(`${imports}denoLauncher(['--no-prompt']);`)]).toEqual(['deno-bundle']);
    expect([...bundleRowsStarted(`${imports}rows();`)].sort()).toEqual(['deno-bundle', 'node-bundle']);
    expect([...bundleRowsStarted(`${imports}rows(['executable']);`)]).toEqual([]);
    expect([...bundleRowsStarted("spawn('node', [requireBuilt(bundlePath()), 'hook']);")]).toEqual(['node-bundle']);
    expect([...bundleRowsStarted("runProcess(binPath('deno'), ['run', requireBuilt(bundlePath())]);")]).toEqual(['deno-bundle']);
    // A launchers() of another module (test/mcp/harness.ts: the executable) is not a bundle.
    expect([...bundleRowsStarted("import { launchers } from './harness.ts';\nlaunchers();")]).toEqual([]);
  });

  test('each capability names the source that differs per runtime, and that source exists', () => {
    for (const [capability, { code, claim }] of Object.entries(table)) {
      expect({ capability, claim: claim.length > 20, code: code.length > 0 }).toEqual({ capability, claim: true, code: true });
      for (const file of code) expect({ capability, file, exists: existsSync(path.join(REPO_ROOT, file)) }).toEqual({ capability, file, exists: true });
    }
  });
});
