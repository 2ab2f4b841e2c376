// The layout rules of docs/design/style.md ("Layout"), checked on the real module graph of src/:
// the folder-to-folder table read from style.md itself, no import cycle outside type-only edges,
// and `process`, `Bun.*`, `bun:*`, `Deno.*` only where style.md allows them; and the size limits of
// "Modules: size and naming", with functions counted by the TypeScript compiler's own parser.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API } from 'typescript/unstable/async';
import { isFunctionLikeDeclaration, skipTrivia, SyntaxKind, type Node, type SourceFile } from 'typescript/unstable/ast';
import { LIVENESS_MS } from './support/liveness.ts';
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

describe('size (docs/design/style.md, "Modules: size and naming")', () => {
  const MAX_FILE_LINES = 300;
  const MAX_FUNCTION_LINES = 60;
  // The reason a longer function gives, in a comment at it (its JSDoc, or a line above it).
  const EXEMPTION = /Over 60 lines: \S[^\n]{9,}/;

  interface FunctionSpan {
    readonly where: string;
    readonly lines: number;
    readonly exempt: boolean;
  }

  /** Every function, method, accessor, constructor and arrow function with a body, and its lines from its first token to its end. */
  function functionSpans(file: string, source: SourceFile): FunctionSpan[] {
    const text = source.text;
    const lineOf = (position: number): number => text.slice(0, position).split('\n').length;
    const spans: FunctionSpan[] = [];
    const visit = (node: Node): void => {
      if (isFunctionLikeDeclaration(node) && node.body !== undefined) {
        const start = skipTrivia(text, node.pos);
        const lines = lineOf(node.end) - lineOf(start) + 1;
        // The comment belongs to the statement or member that holds the function (`const f = () => …`).
        let holder: Node = node;
        while (holder.parent !== undefined && HOLDERS.has(holder.parent.kind)) holder = holder.parent;
        const comment = text.slice(holder.pos, node.body.pos);
        spans.push({ where: `${rel(file)}:${lineOf(start)}`, lines, exempt: EXEMPTION.test(comment) });
      }
      node.forEachChild(visit);
    };
    visit(source);
    return spans;
  }

  const HOLDERS = new Set<SyntaxKind>([
    SyntaxKind.VariableDeclaration,
    SyntaxKind.VariableDeclarationList,
    SyntaxKind.VariableStatement,
    SyntaxKind.PropertyAssignment,
    SyntaxKind.PropertyDeclaration,
  ]);

  let spans: FunctionSpan[] = [];
  beforeAll(async () => {
    // The compiler (TypeScript 7) parses in its own process; a project of src/ alone, without lib
    // files or type resolution, is all the parse needs.
    const dir = mkdtempSync(path.join(tmpdir(), 'architecture-'));
    const project = path.join(dir, 'tsconfig.json');
    writeFileSync(project, JSON.stringify({ extends: path.join(REPO_ROOT, 'tsconfig.json'), compilerOptions: { types: [], noLib: true, noResolve: true }, include: [SRC] }));
    const api = new API({ cwd: REPO_ROOT });
    try {
      const snapshot = await api.updateSnapshot({ openProjects: [project] });
      const program = (snapshot.getProjects()[0] ?? expect.unreachable('the compiler opened no project')).program;
      for (const file of FILES) {
        const source = await program.getSourceFile(file);
        if (source === undefined) throw new Error(`the compiler did not parse ${rel(file)}`);
        spans.push(...functionSpans(file, source));
      }
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, LIVENESS_MS);

  test('no file in src/ is over 300 lines', () => {
    const long = FILES.map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 })).filter((entry) => entry.lines > MAX_FILE_LINES);
    expect(long.map((entry) => `${entry.file}: ${entry.lines} lines`)).toEqual([]);
  });

  test('no function in src/ is over 60 lines unless a comment at it says why ("Over 60 lines: <reason>")', () => {
    const long = spans.filter((span) => span.lines > MAX_FUNCTION_LINES && !span.exempt);
    expect(long.map((span) => `${span.where}: ${span.lines} lines`)).toEqual([]);
  });

  test('the counter sees every function: declarations, methods, arrows, and the exempted ones', () => {
    // Guards the parse above: a size test that finds no functions would pass vacuously.
    expect(spans.length).toBeGreaterThan(1000);
    expect(spans.some((span) => span.where.startsWith('cli/dispatch.ts:'))).toBe(true);
    expect(spans.some((span) => span.lines > MAX_FUNCTION_LINES && span.exempt)).toBe(true);
  });
});
