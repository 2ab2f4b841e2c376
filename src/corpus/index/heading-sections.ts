// Turns the headings a format's splitter found into sections with heading trails and anchors,
// the shape Markdown sections have (docs/design/providers.md §8.1). Shared by AsciiDoc and reST.
import { HeadingAnchors } from './heading-anchor.ts';
import type { MarkdownSection } from './markdown-sections.ts';

/** One heading found by a splitter. */
export interface FoundHeading {
  /** Index of its first line. */
  readonly line: number;
  /** How many lines it takes (title plus underline and overline, an anchor line before it). */
  readonly lines: number;
  /** Nesting level, smaller is higher. */
  readonly level: number;
  /** The title text. */
  readonly text: string;
  /** An anchor the document declares (`[[id]]`), used instead of the slug. */
  readonly anchor?: string | undefined;
}

/**
 * Splits lines at the given headings.
 *
 * @param lines The document's lines.
 * @param headings Headings in line order, not overlapping.
 * @returns Sections in order; the first one (anchor `''`) holds the text before the first heading.
 */
export function sectionsFromHeadings(lines: readonly string[], headings: readonly FoundHeading[]): MarkdownSection[] {
  const anchors = new HeadingAnchors();
  const sections: MarkdownSection[] = [];
  const stack: { level: number; text: string }[] = [];
  let anchor = '';
  let start = 0;
  for (const heading of headings) {
    sections.push({ anchor, trail: stack.map((entry) => entry.text), body: lines.slice(start, heading.line).join('\n') });
    while (stack.length > 0 && (stack[stack.length - 1] as { level: number }).level >= heading.level) stack.pop();
    stack.push({ level: heading.level, text: heading.text });
    anchor = heading.anchor !== undefined ? anchors.next(heading.anchor) : anchors.next(heading.text);
    start = heading.line + heading.lines;
  }
  sections.push({ anchor, trail: stack.map((entry) => entry.text), body: lines.slice(start).join('\n') });
  return sections;
}
