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

  test('each capability names the source that differs per runtime, and that source exists', () => {
    for (const [capability, { code, claim }] of Object.entries(table)) {
      expect({ capability, claim: claim.length > 20, code: code.length > 0 }).toEqual({ capability, claim: true, code: true });
      for (const file of code) expect({ capability, file, exists: existsSync(path.join(REPO_ROOT, file)) }).toEqual({ capability, file, exists: true });
    }
  });
});
