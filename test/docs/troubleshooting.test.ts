// docs/troubleshooting.md covers every operator-visible message and every failure class (issue 14
// item 7). The messages are extracted from src/ at test time, so a message added anywhere later
// fails this test until the table explains it:
// - every failure class id, serve --http outcome id and probe verdict (id and line);
// - every string literal given to `new ConfigError(`, `new UsageError(` or `writeError(io, `,
//   directly or through a constant of the same file, and every `…MESSAGE` constant and
//   `…MESSAGES` object value.
// A template literal is checked by its static parts (those of at least 6 characters after
// trimming); `${…}` parts are the document's `<placeholders>`. Model-facing texts (the stable
// tool texts, input validation) are not operator messages and are left out by file.
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
const IDENTIFIER = String.raw`([A-Z][A-Z0-9_]*)\b(?!\s*[.([])`;
const DIRECT = [
  new RegExp(String.raw`new (?:ConfigError|UsageError)\(\s*` + LITERAL, 'g'),
  new RegExp(String.raw`writeError\(\s*io,\s*` + LITERAL, 'g'),
  new RegExp(String.raw`\b[A-Z][A-Z0-9_]*MESSAGE\s*(?::[^=\n]+)?=\s*` + LITERAL, 'g'),
];
const BY_NAME = [new RegExp(String.raw`new (?:ConfigError|UsageError)\(\s*` + IDENTIFIER, 'g'), new RegExp(String.raw`writeError\(\s*io,\s*` + IDENTIFIER, 'g')];
const MESSAGES_BLOCK = /\bconst [A-Z_]*MESSAGES\s*(?::[^=]+)?=\s*\{([\s\S]*?)\n\}/g;
const BLOCK_VALUE = new RegExp(String.raw`:\s*(?:\([^)]*\)\s*=>\s*)?` + LITERAL, 'g');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every operator message literal in src/, with the file it came from. */
function operatorMessages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(SRC)) {
    const where = relative(REPO_ROOT, file);
    // Matched by the end of the path, so a file moved to another folder stays excluded.
    if (NOT_OPERATOR_FILES.some((name) => where.endsWith(`/${name}`))) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of DIRECT) for (const match of text.matchAll(pattern)) found.set(match[1] as string, where);
    for (const pattern of BY_NAME) {
      for (const match of text.matchAll(pattern)) {
        const constant = new RegExp(String.raw`\bconst ${match[1]}\s*(?::[^=\n]+)?=\s*` + LITERAL).exec(text);
        if (constant !== null) found.set(constant[1] as string, where);
      }
    }
    for (const block of text.matchAll(MESSAGES_BLOCK)) for (const value of (block[1] as string).matchAll(BLOCK_VALUE)) found.set(value[1] as string, where);
  }
  return found;
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

  test('explains every operator message in src/ (extracted at test time)', () => {
    const messages = operatorMessages();
    // The extraction itself works: it finds messages from several folders.
    expect(messages.size).toBeGreaterThan(60);
    const missing: string[] = [];
    for (const [literal, where] of messages) {
      for (const part of staticParts(literal)) if (!DOC.includes(part)) missing.push(`${where}: ${part}`);
    }
    expect(missing).toEqual([]);
  });
});
