// The layout rules of docs/design/style.md ("Layout"), checked on the real module graph of src/:
// the folder-to-folder table read from style.md itself, no import cycle outside type-only edges,
// and `process`, `Bun.*`, `bun:*`, `Deno.*` only where style.md allows them.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './support/paths.ts';

const SRC = path.join(REPO_ROOT, 'src');
const STYLE = path.join(REPO_ROOT, 'docs', 'design', 'style.md');

/** Every .ts file under src/, absolute. */
function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** A file's node in the table: its top folder under src/, or the file name for a root file. */
function nodeOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0] as string;
}

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

// Static `import`/`export … from`, side-effect `import '…'` and dynamic `import('…')`.
const IMPORT = /(?:^|[\s;])(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

function isTypeOnlyClause(clause: string): boolean {
  const inner = /^\{([^}]*)\}$/.exec(clause.trim());
  if (inner === null) return false;
  const names = (inner[1] as string)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

/** Every relative import of every file under src/ that resolves inside src/. */
function sourceEdges(files: readonly string[]): Edge[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(IMPORT)].flatMap((match): Edge[] => {
      const specifier = match[4] ?? match[5] ?? match[6];
      if (specifier === undefined || !specifier.startsWith('.')) return [];
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(SRC + path.sep)) return []; // contracts/ JSON, outside src/
      const typeOnly = match[2] !== undefined || (match[3] !== undefined && isTypeOnlyClause(match[3]));
      return [{ from: file, to: target, typeOnly }];
    });
  });
}

/** The table between the architecture-table markers of style.md: node → allowed nodes. */
function allowedTable(): Map<string, Set<string>> {
  const text = readFileSync(STYLE, 'utf8');
  const start = text.indexOf('<!-- architecture-table:start -->');
  const end = text.indexOf('<!-- architecture-table:end -->');
  if (start < 0 || end < start) throw new Error('docs/design/style.md has no architecture table');
  const table = new Map<string, Set<string>>();
  for (const line of text.slice(start, end).split('\n')) {
    const cells = /^\s*\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (cells === null) continue;
    const targets = [...(cells[2] as string).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    table.set(cells[1] as string, new Set(targets));
  }
  return table;
}

/** Source text without comments and string contents, for the identifier checks. */
function codeOnly(file: string): string {
  const transpiler = new Bun.Transpiler({ loader: 'ts', target: 'bun', trimUnusedImports: false });
  const js = transpiler.transformSync(readFileSync(file, 'utf8'));
  // Blank out string and template literal contents; a template's `${…}` text goes too, which
  // only makes the checks below more lenient where a runtime name is interpolated.
  return js.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/gs, '""');
}

const FILES = sourceFiles();
const EDGES = sourceEdges(FILES);
const rel = (file: string): string => path.relative(SRC, file).split(path.sep).join('/');

describe('src/ layout (docs/design/style.md, "Layout")', () => {
  test('every folder-to-folder import is one the style.md table allows', () => {
    const table = allowedTable();
    const nodes = new Set(FILES.map(nodeOf));
    // Every folder and root file of src/ has a row, and every row names a real node.
    expect([...nodes].filter((node) => !table.has(node)).sort()).toEqual([]);
    expect([...table.keys()].filter((node) => !nodes.has(node)).sort()).toEqual([]);
    const forbidden = EDGES.filter((edge) => {
      const from = nodeOf(edge.from);
      const to = nodeOf(edge.to);
      return from !== to && !(table.get(from)?.has(to) ?? false);
    }).map((edge) => `${rel(edge.from)} -> ${rel(edge.to)}`);
    expect(forbidden).toEqual([]);
  });

  test('util/ imports nothing from src/ outside itself', () => {
    const leaks = EDGES.filter((edge) => nodeOf(edge.from) === 'util' && nodeOf(edge.to) !== 'util');
    expect(leaks.map((edge) => `${rel(edge.from)} -> ${rel(edge.to)}`)).toEqual([]);
  });

  test('the module graph has no cycle outside type-only edges', () => {
    const next = new Map<string, string[]>();
    for (const edge of EDGES) if (!edge.typeOnly) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const target of next.get(file) ?? []) {
        const seen = state.get(target);
        if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].map(rel).join(' -> '));
        else if (seen === undefined) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of FILES) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  test('the checks see real edges: type-only and dynamic imports are both recognised', () => {
    // Guards the parser above: a layout test that finds no edges would pass vacuously.
    expect(EDGES.length).toBeGreaterThan(300);
    expect(EDGES.some((edge) => edge.typeOnly)).toBe(true);
    expect(EDGES.some((edge) => rel(edge.from) === 'cli/dispatch.ts' && rel(edge.to) === 'cli/serve.ts')).toBe(true);
  });
});

describe('runtime names in src/ (docs/design/style.md, "Runtime-neutral code")', () => {
  const PROCESS_FOLDERS = new Set(['main.ts', 'runtime', 'cli', 'launch']);
  const ENV_ARGV_FOLDERS = new Set(['main.ts', 'runtime']);
  const CODE = new Map(FILES.map((file) => [file, codeOnly(file)]));

  test('Bun.*, bun:* and Deno.* appear only in runtime/', () => {
    const offenders = FILES.filter((file) => nodeOf(file) !== 'runtime')
      .filter((file) => /(?<![\w$.])(?:Bun|Deno)\s*[.[]/.test(CODE.get(file) as string) || /from\s*["']bun:/.test(readFileSync(file, 'utf8')))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  test('process is imported from node:process, and only in main.ts, runtime/, cli/ and launch/', () => {
    const users = FILES.filter((file) => /(?<![\w$.])process\b/.test(CODE.get(file) as string));
    const global = users.filter((file) => !/^import process from ['"]node:process['"];/m.test(readFileSync(file, 'utf8')));
    expect(global.map(rel)).toEqual([]);
    expect(users.filter((file) => !PROCESS_FOLDERS.has(nodeOf(file))).map(rel)).toEqual([]);
  });

  test('process.env and process.argv are read only in main.ts and runtime/', () => {
    const readers = FILES.filter((file) => /(?<![\w$.])process\s*\.\s*(?:env|argv)\b/.test(CODE.get(file) as string));
    expect(readers.filter((file) => !ENV_ARGV_FOLDERS.has(nodeOf(file))).map(rel)).toEqual([]);
  });
});

describe('outbound requests (docs/design/style.md, "Outbound requests")', () => {
  const CODE = new Map(FILES.map((file) => [file, codeOnly(file)]));
  const OUTBOUND = 'providers/outbound.ts';
  const importersOf = (target: string): string[] => [...new Set(EDGES.filter((edge) => !edge.typeOnly && rel(edge.to) === target).map((edge) => rel(edge.from)))].sort();

  test('only runtime/ calls the global fetch; every other module sends through providers/outbound.ts', () => {
    // A call, not a method named fetch (`handler.fetch(request)`, `async fetch(request) {`).
    const CALL = /(?<![\w$.])(?:globalThis\s*\.\s*)?fetch\s*\((?![^()]*\)\s*\{)/;
    const callers = FILES.filter((file) => nodeOf(file) !== 'runtime' && CALL.test(CODE.get(file) as string)).map(rel);
    expect(callers).toEqual([]);
  });

  test('the runtime request functions, the fetch classification and decideProxy each have one importer: outbound.ts', () => {
    expect(importersOf('runtime/runtime-fetch.ts')).toEqual([OUTBOUND]);
    // fetch-node.ts shares one error code with the classifier; outside runtime/ only outbound.ts reads it.
    expect(importersOf('runtime/fetch-failure.ts').filter((file) => !file.startsWith('runtime/'))).toEqual([OUTBOUND]);
    for (const runtime of ['bun', 'deno', 'node']) expect(importersOf(`runtime/fetch-${runtime}.ts`)).toEqual(['runtime/runtime-fetch.ts']);
    const deciders = FILES.filter((file) => /(?<![\w$.])decideProxy\b/.test(CODE.get(file) as string)).map(rel);
    expect(deciders.sort()).toEqual([OUTBOUND, 'providers/proxy.ts']);
  });

  test('the checks see the real senders', () => {
    // Guards the patterns above: the runtime modules do call fetch, outbound.ts does import them.
    expect(FILES.some((file) => rel(file) === 'runtime/runtime-fetch.ts' && /(?<![\w$.])fetch\s*\(/.test(CODE.get(file) as string))).toBe(true);
    expect(importersOf('providers/outbound.ts').length).toBeGreaterThan(5);
  });
});
