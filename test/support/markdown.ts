// Reading the repository's Markdown for the documentation tests: which files are guides,
// their fenced blocks marked as tested, their links, and the anchors their headings define
// (GitHub's rules, so a link that works here works on the Git host).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A fenced shell block marked ```sh title="tested"``. */
export interface TestedBlock {
  /** Absolute path of the Markdown file. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The block's text, its indentation removed. */
  readonly code: string;
}

/** One fenced code block of any language. */
export interface FencedBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string after the fence (`sh title="tested"`, `json`, …). */
  readonly info: string;
  readonly code: string;
}

/** One inline link `[text](target)` outside code. */
export interface MarkdownLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'fixtures', 'services']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The Markdown files the documentation tests cover: the top-level `*.md`, everything under
 * `docs/` and `contracts/`.
 *
 * @param root The repository root.
 * @returns Absolute paths, sorted.
 */
export function markdownFiles(root: string): string[] {
  const top = readdirSync(root)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, name));
  return [...top, ...walk(join(root, 'docs')), ...walk(join(root, 'contracts'))].sort();
}

/** Lines of a file with the fenced code blocks marked, so links inside code are skipped. */
function linesOutsideFences(text: string): { line: string; index: number; inFence: boolean }[] {
  let fence: string | undefined;
  return text.split('\n').map((line, index) => {
    const match = /^\s*(`{3,}|~{3,})/.exec(line);
    if (match?.[1] !== undefined) {
      if (fence === undefined) {
        fence = match[1];
        return { line, index, inFence: true };
      }
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        fence = undefined;
        return { line, index, inFence: true };
      }
    }
    return { line, index, inFence: fence !== undefined };
  });
}

/**
 * Every block of one file fenced with three backticks, in document order, its indentation
 * removed.
 *
 * @param file Absolute path of a Markdown file.
 */
export function fencedBlocks(file: string): FencedBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const indent = open[1] ?? '';
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && (lines[j] ?? '').trim() !== '```') body.push((lines[j++] ?? '').slice(indent.length));
    blocks.push({ file, line: i + 1, info: (open[2] ?? '').trim(), code: `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}

/**
 * The blocks of one file fenced as ```sh title="tested"``, in document order.
 *
 * @param file Absolute path of a Markdown file.
 */
export function testedBlocks(file: string): TestedBlock[] {
  return fencedBlocks(file)
    .filter((block) => block.info === 'sh title="tested"')
    .map(({ file: path, line, code }) => ({ file: path, line, code }));
}

/**
 * The inline links of one file, outside fenced code and inline code spans.
 *
 * @param file Absolute path of a Markdown file.
 */
export function markdownLinks(file: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, index, inFence } of linesOutsideFences(readFileSync(file, 'utf8'))) {
    if (inFence) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (match[1] !== undefined) links.push({ file, line: index + 1, target: match[1] });
    }
  }
  return links;
}

/** GitHub's anchor for a heading text: lowercase, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The anchors a file defines: one per heading outside fenced code, with GitHub's `-1`, `-2`
 * suffixes for repeated headings.
 *
 * @param file Absolute path of a Markdown file.
 */
export function markdownAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line, inFence } of linesOutsideFences(readFileSync(file, 'utf8'))) {
    if (inFence) continue;
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (match?.[1] === undefined) continue;
    const slug = headingSlug(match[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
