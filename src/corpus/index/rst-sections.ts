// Finds reStructuredText section titles (docs/design/providers.md §8.1): a title line underlined,
// and optionally overlined, by one repeated punctuation character at least as long as the
// title; levels follow the order in which the styles first appear, as docutils assigns them.
import { type FoundHeading } from './heading-sections.ts';

const ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}[ \t]*$/;
const EXPLICIT_TARGET = /^\.\. _([^:]+):[ \t]*$/;

/**
 * The section titles of a reStructuredText document.
 *
 * @param lines The document's lines.
 * @returns Headings in order; a `.. _name:` target right before a title gives its anchor.
 */
export function findRstHeadings(lines: readonly string[]): FoundHeading[] {
  const headings: FoundHeading[] = [];
  const styles: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const under = lines[index + 1];
    if (under === undefined || line.trim() === '' || ADORNMENT.test(line) || /^\s/.test(line)) continue;
    const mark = ADORNMENT.exec(under)?.[1];
    if (mark === undefined || under.trimEnd().length < line.trimEnd().length) continue;
    const overline = lines[index - 1];
    const over = overline !== undefined && ADORNMENT.exec(overline)?.[1] === mark;
    const before = lines[index - (over ? 2 : 1)];
    if (before !== undefined && before.trim() !== '' && !EXPLICIT_TARGET.test(before)) continue;
    const style = `${over ? 'o' : 'u'}${mark}`;
    if (!styles.includes(style)) styles.push(style);
    const target = before === undefined ? undefined : EXPLICIT_TARGET.exec(before)?.[1];
    const first = index - (over ? 1 : 0) - (target === undefined ? 0 : 1);
    headings.push({ line: first, lines: index + 2 - first, level: styles.indexOf(style), text: line.trim(), anchor: target?.trim().toLowerCase().replace(/\s+/g, '-') });
    index++;
  }
  return headings;
}
