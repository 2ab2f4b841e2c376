// Finds AsciiDoc section titles (docs/design/providers.md §8.1): one-line `== Title` and two-line
// titles underlined with `=`, `-`, `~`, `^` or `+` of about the title's length; nothing inside a
// delimited block (`----`, `....`, `====`, `****`, `____`, `++++`, `////`) is a title.
import { type FoundHeading } from './heading-sections.ts';

const ONE_LINE = /^(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$/;
const UNDERLINE = /^([=\-~^+])\1+[ \t]*$/;
const UNDERLINE_LEVEL: Readonly<Record<string, number>> = { '=': 0, '-': 1, '~': 2, '^': 3, '+': 4 };
const DELIMITER = /^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|\/{4,})[ \t]*$/;
const BLOCK_ANCHOR = /^\[\[([\p{L}\p{N}_:.-]+)(?:,[^\]]*)?\]\][ \t]*$/u;
// A two-line title's text starts with a letter, digit or quote-like mark, never with markup that opens a list or block.
const TITLE_TEXT = /^[\p{L}\p{N}'"`(_*]/u;

/**
 * The section titles of an AsciiDoc document.
 *
 * @param lines The document's lines.
 * @returns Headings in order, with a preceding `[[id]]` taken as the anchor.
 */
export function findAsciidocHeadings(lines: readonly string[]): FoundHeading[] {
  const headings: FoundHeading[] = [];
  let block: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (block !== undefined) {
      if (line.trimEnd() === block) block = undefined;
      continue;
    }
    const previous = lines[index - 1];
    const explicit = previous === undefined ? undefined : BLOCK_ANCHOR.exec(previous)?.[1];
    const starts = explicit === undefined ? index : index - 1;
    const oneLine = ONE_LINE.exec(line);
    if (oneLine !== null) {
      headings.push({ line: starts, lines: index - starts + 1, level: (oneLine[1] as string).length - 1, text: (oneLine[2] as string).trim(), anchor: explicit });
      continue;
    }
    const next = lines[index + 1];
    if (next !== undefined && isTwoLineTitle(line, next, previous, explicit !== undefined)) {
      headings.push({ line: starts, lines: index - starts + 2, level: UNDERLINE_LEVEL[(next as string)[0] as string] as number, text: line.trim(), anchor: explicit });
      index++;
      continue;
    }
    const delimiter = DELIMITER.exec(line)?.[1];
    if (delimiter !== undefined) block = delimiter;
  }
  return headings;
}

// AsciiDoc's own rule: the underline is within two characters of the title's length.
function isTwoLineTitle(line: string, next: string, previous: string | undefined, anchored: boolean): boolean {
  if (!UNDERLINE.test(next) || !TITLE_TEXT.test(line) || line.trim().length < 2) return false;
  if (Math.abs(next.trimEnd().length - line.trimEnd().length) > 2) return false;
  return previous === undefined || previous.trim() === '' || anchored;
}
