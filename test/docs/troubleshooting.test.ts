// docs/troubleshooting.md covers every operator-visible message and every failure class (issue 14
// item 7). The messages are extracted from src/ at test time, so a message added anywhere later
// fails this test until the table explains it. A message reaches the operator through a sink:
// `new ConfigError(`, `new UsageError(`, `new LaunchProfileError(` (first argument) or
// `writeError(io, ` (second argument). Every way the sink's argument is built counts:
// - a string literal, anywhere in the argument (both sides of `a ? 'x' : 'y'` included);
// - a constant (`NAME`) of the same file or, when imported, of another file of src/;
// - a call of a function of the same file (`corpusErrorText(error)`): the literals of its
//   `return` statements, followed two calls deep;
// - a function of the same file that passes its own parameter to a sink (`verbatim(message)`,
//   `usage(message)`) is itself a sink, so its callers' literals count;
// - every value of a `…MESSAGES` object and of a `messages: {…}` property (file-reading rules);
// - the usage-error suffix of UsageError.stderrText().
// A template literal is checked by its static parts (those of at least 6 characters after
// trimming); `${…}` parts are the document's `<placeholders>`. Model-facing texts (the stable
// tool texts, input validation) are not operator messages and are left out by file.
// The test "the extraction finds …" pins each of these ways on a small sample, so narrowing the
// extraction fails too.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FIXED_REQUEST_OUTCOMES } from '../../src/mcp/http/request-log.ts';
import { VERDICT_LINES } from '../../src/probe/verdict.ts';
import { CAUSE_NOT_RECOGNIZED } from '../../src/providers/classify-write.ts';
import { FAILURE_CLASSES } from '../../src/providers/failure.ts';
import { REPO_ROOT } from '../support/paths.ts';

// A `|` inside a table cell is written `\|`.
const DOC = readFileSync(join(REPO_ROOT, 'docs', 'troubleshooting.md'), 'utf8').replaceAll('\\|', '|');
const SRC = join(REPO_ROOT, 'src');

/** Model-facing or peer-expectation texts: what the model sees, not the operator. */
const NOT_OPERATOR_FILES: readonly string[] = ['contract/schemas.ts', 'contract/remember-content.ts', 'profile-expectations.ts', 'model-outputs.ts'];

const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|` + '`(?:[^`\\\\]|\\\\.)*`' + String.raw`|"(?:[^"\\\n]|\\.)*")`;
/** The sinks every file has, and the index of the argument that carries the message. */
const SINKS: ReadonlyMap<string, number> = new Map([
  ['new ConfigError', 0],
  ['new UsageError', 0],
  ['new LaunchProfileError', 0],
  ['writeError', 1],
]);

interface SourceFile {
  readonly where: string;
  /** The text without comment lines. */
  readonly text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The length of the string literal starting at `at`, or 0. */
function literalAt(text: string, at: number): number {
  const pattern = new RegExp(LITERAL, 'y');
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0].length ?? 0;
}

/** The text between the bracket at `open` and its match, string literals skipped. */
function bracketed(text: string, open: number): string {
  const closing: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const skip = literalAt(text, i);
    if (skip > 0) {
      i += skip - 1;
      continue;
    }
    const c = text[i] as string;
    if (c in closing) stack.push(closing[c] as string);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return text.slice(open + 1, i);
    }
  }
  return text.slice(open + 1);
}

/** The top-level, comma-separated arguments of a call's inside. */
function splitArguments(inside: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inside.length; i++) {
    const skip = literalAt(inside, i);
    if (skip > 0) {
      i += skip - 1;
      continue;
    }
    const c = inside[i] as string;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(inside.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inside.slice(start));
  return parts.map((part) => part.trim());
}

/** The name of the function (declaration or arrow constant) that encloses `at`. */
function enclosingFunction(text: string, at: number): string | undefined {
  const heads = [...text.slice(0, at).matchAll(/function\s+([A-Za-z_]\w*)\s*\(|const\s+([A-Za-z_]\w*)\s*=\s*\([^)]*\)\s*(?::\s*\w+\s*)?=>/g)];
  const last = heads.at(-1);
  return last === undefined ? undefined : (last[1] ?? last[2]);
}

/** Every operator message literal found in `files`, with the file it came from. */
function operatorMessages(files: readonly SourceFile[]): Map<string, string> {
  const found = new Map<string, string>();
  const constant = (name: string, home: SourceFile): string | undefined => {
    for (const file of [home, ...files]) {
      const match = new RegExp(String.raw`\bconst ${name}\s*(?::[^=\n]+)?=\s*` + LITERAL).exec(file.text);
      if (match !== null) return match[1];
    }
    return undefined;
  };
  const expression = (text: string, file: SourceFile, depth: number): void => {
    for (const match of text.matchAll(new RegExp(LITERAL, 'g'))) found.set(match[1] as string, file.where);
    for (const match of text.matchAll(/\b([A-Z][A-Z0-9_]*)\b(?!\s*[.([])/g)) {
      const value = constant(match[1] as string, file);
      if (value !== undefined) found.set(value, file.where);
    }
    if (depth >= 2) return;
    for (const call of text.matchAll(/(?<![.\w])([a-z]\w*)\(/g)) {
      const head = new RegExp(String.raw`function ${call[1]}\s*\(`).exec(file.text);
      if (head === null) continue;
      const parameters = bracketed(file.text, head.index + head[0].length - 1);
      const body = bracketed(file.text, file.text.indexOf('{', head.index + head[0].length + parameters.length));
      for (const returned of body.matchAll(/\breturn\b([^;]*);/g)) expression(returned[1] as string, file, depth + 1);
    }
  };
  for (const file of files) {
    const sinks = new Map(SINKS);
    // A local function that hands its parameter to a sink is a sink; repeat until none is added.
    for (let added = true; added; ) {
      added = false;
      for (const [sink, index] of sinks) {
        const call = new RegExp(String.raw`(?<![.\w])${sink.replace(' ', String.raw`\s+`)}\s*\(`, 'g');
        for (const match of file.text.matchAll(call)) {
          const argument = splitArguments(bracketed(file.text, match.index + match[0].length - 1))[index] ?? '';
          if (/^[a-z]\w*$/.test(argument)) {
            const wrapper = enclosingFunction(file.text, match.index);
            if (wrapper !== undefined && !sinks.has(wrapper)) {
              sinks.set(wrapper, 0);
              added = true;
            }
          } else expression(argument, file, 0);
        }
      }
    }
    for (const block of file.text.matchAll(/(?:\bconst [A-Z_]*MESSAGES\s*(?::[^=]+)?=\s*|\bmessages\s*:\s*)\{/g)) {
      const body = bracketed(file.text, block.index + block[0].length - 1);
      for (const value of body.matchAll(new RegExp(String.raw`:\s*(?:\([^)]*\)\s*=>\s*)?` + LITERAL, 'g'))) found.set(value[1] as string, file.where);
    }
  }
  return found;
}

/** The operator-facing files of src/, comment lines removed. */
function operatorFiles(): SourceFile[] {
  return (
    sourceFiles(SRC)
      .map((path) => ({ where: relative(REPO_ROOT, path), text: readFileSync(path, 'utf8').replace(/^\s*(?:\/\/|\*|\/\*).*$/gm, '') }))
      // Matched by the end of the path, so a file moved to another folder stays excluded.
      .filter((file) => !NOT_OPERATOR_FILES.some((name) => file.where.endsWith(`/${name}`)))
  );
}

/** The parts of a literal the document must contain: its text, or a template's static parts. */
function staticParts(literal: string): string[] {
  const body = literal.slice(1, -1).replace(/\\(["'`\\])/g, '$1');
  if (!literal.startsWith('`')) return [body];
  return body
    .split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/)
    .map((part) => part.trim())
    .filter((part) => part.length >= 6);
}

describe('docs/troubleshooting.md', () => {
  test('explains every failure class', () => {
    const missing = FAILURE_CLASSES.filter((id) => !DOC.includes(`| \`${id}\``));
    expect(missing).toEqual([]);
    expect(DOC).toContain(`\`${CAUSE_NOT_RECOGNIZED}\``);
  });

  test('explains every serve --http outcome, the jwks-<class> and provider-<class> forms included', () => {
    const missing = FIXED_REQUEST_OUTCOMES.filter((id) => !DOC.includes(`| \`${id}\``));
    expect(missing).toEqual([]);
    expect(DOC).toContain('| `jwks-<class>`');
    expect(DOC).toContain('| `provider-<class>`');
  });

  test('explains every probe verdict, with its exact line', () => {
    const missing = Object.entries(VERDICT_LINES).filter(([id, line]) => !DOC.includes(`\`${id}\``) || !DOC.includes(line));
    expect(missing).toEqual([]);
  });

  test('explains the operator lines of the MCP servers', () => {
    expect(DOC).toContain('external-context: context_search failed: <class>');
    expect(DOC).toContain('external-context: context_remember <failed|unknown>: <cause>');
  });

  test('the extraction finds a message however the sink argument is built', () => {
    const sample = [
      "const NAME_MESSAGE = 'By constant.';",
      "const RULES = { messages: { notAFile: 'By rules object.' } };",
      "function text(kind) { if (kind) return `By return ${kind}.`; return 'By second return.'; }",
      "function verbatim(message) { return new UsageError(message, 'probe', { verbatim: true }); }",
      "throw new ConfigError('Direct.');",
      "writeError(io, error instanceof ConfigError ? error.message : 'By ternary.');",
      'writeError(io, text(error));',
      "throw verbatim('By wrapper.');",
      'throw new LaunchProfileError(NAME_MESSAGE);',
    ].join('\n');
    const found = [...operatorMessages([{ where: 'src/sample.ts', text: sample }]).keys()];
    for (const literal of ["'By constant.'", "'By rules object.'", '`By return ${kind}.`', "'By second return.'", "'Direct.'", "'By ternary.'", "'By wrapper.'"]) {
      expect(found).toContain(literal);
    }
    // The command name of a usage error is not a message.
    expect(found).not.toContain("'probe'");
  });

  test('explains every operator message in src/ (extracted at test time)', () => {
    const messages = operatorMessages(operatorFiles());
    // The extraction itself works: it finds messages from several folders.
    expect(messages.size).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const [literal, where] of messages) {
      for (const part of staticParts(literal)) if (!DOC.includes(part)) missing.push(`${where}: ${part}`);
    }
    expect(missing).toEqual([]);
  });

  test('explains the "Run … --help" suffix of usage errors', () => {
    const source = readFileSync(join(SRC, 'cli', 'usage-error.ts'), 'utf8');
    const suffix = /\$\{this\.message\} (Run "external-context) \$\{this\.command\} (--help"\.)/.exec(source);
    expect(suffix).not.toBeNull();
    expect(DOC).toContain(`${suffix?.[1]} <command> ${suffix?.[2]}`);
  });
});
