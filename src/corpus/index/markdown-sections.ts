// Splits Markdown into heading sections: ATX (`## Title`) and setext (`Title` over `===`/`---`)
// headings start a section; fenced code blocks and front matter never do (docs/design/providers.md §8.1).
import { HeadingAnchors } from './heading-anchor.ts';

/** The text under one heading, up to the next heading. */
export interface MarkdownSection {
  /** The heading's anchor; `''` for the text before the first heading. */
  readonly anchor: string;
  /** Heading texts from the top level down to this section's heading; empty before the first heading. */
  readonly trail: readonly string[];
  /** The section's lines without its heading line(s), joined with `\n`; may be empty. */
  readonly body: string;
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const LIST_OR_BLOCK_START = /^ {0,3}(?:[-*+>]|\d{1,9}[.)])(?:\s|$)/;
const FRONT_MATTER_MAX_LINES = 200;

/**
 * Splits a Markdown document at its headings.
 *
 * @param text The document with `\n` line ends.
 * @returns Sections in document order; the first one (anchor `''`) holds the text before the
 *   first heading. Bodies may be empty.
 */
export function splitMarkdownSections(text: string): MarkdownSection[] {
  const lines = text.split('\n');
  const anchors = new HeadingAnchors();
  const sections: MarkdownSection[] = [];
  const stack: { level: number; text: string }[] = [];
  let anchor = '';
  let body: string[] = [];
  const startSection = (level: number, raw: string): void => {
    sections.push({ anchor, trail: stack.map((entry) => entry.text), body: body.join('\n') });
    const heading = cleanHeading(raw);
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= level) stack.pop();
    stack.push({ level, text: heading });
    anchor = anchors.next(heading);
    body = [];
  };
  let index = skipFrontMatter(lines, body);
  let fence: string | undefined;
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    if (fence !== undefined) {
      if (isFenceClose(line, fence)) fence = undefined;
      body.push(line);
      continue;
    }
    const open = FENCE_OPEN.exec(line)?.[1];
    if (open !== undefined) {
      fence = open;
      body.push(line);
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx !== null) {
      startSection((atx[1] as string).length, stripClosingHashes(atx[2] ?? ''));
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line)?.[1];
    const previous = body[body.length - 1];
    if (underline !== undefined && previous !== undefined && isSetextText(previous, body[body.length - 2])) {
      body.pop();
      startSection(underline.startsWith('=') ? 1 : 2, previous);
      continue;
    }
    body.push(line);
  }
  sections.push({ anchor, trail: stack.map((entry) => entry.text), body: body.join('\n') });
  return sections;
}

// YAML front matter (`---` … `---` at the very top) stays preamble text, never a setext heading.
function skipFrontMatter(lines: readonly string[], body: string[]): number {
  if (lines[0] !== '---') return 0;
  const end = lines.findIndex((line, i) => i > 0 && i < FRONT_MATTER_MAX_LINES && (line === '---' || line === '...'));
  if (end < 0) return 0;
  body.push(...lines.slice(0, end + 1));
  return end + 1;
}

function isFenceClose(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
  return match !== undefined && match[0] === fence[0] && match.length >= fence.length;
}

// A setext heading's text is a single paragraph line: not blank, not a list item or quote, and
// the start of its paragraph. Deliberately narrower than CommonMark: a `---` under a multi-line
// paragraph stays body text, which keeps stray rules in prose from swallowing paragraphs.
function isSetextText(line: string, before: string | undefined): boolean {
  if (line.trim() === '' || LIST_OR_BLOCK_START.test(line) || /^ {4}/.test(line)) return false;
  return before === undefined || before.trim() === '';
}

function stripClosingHashes(text: string): string {
  return text.replace(/(?:^|[ \t]+)#+[ \t]*$/, '');
}

// Heading text for titles and anchors: links and images become their text, HTML tags go.
function cleanHeading(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim();
}
