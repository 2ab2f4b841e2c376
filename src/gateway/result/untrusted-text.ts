// Step 1 of result bounding (docs/design/frontend-mcp.md §7): text blocks of an MCP result → one clean text.
import { escapeInvisible } from '../../contract/escape.ts';

/** Longest kept text of one content block, in Unicode code points. */
export const MAX_BLOCK_CODE_POINTS = 24000;
// C0 controls other than tab and newline, and DEL (newlines are kept; Decision over the reference).
const REMOVED_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** The joined text of a result and how many non-text blocks were left out. */
export interface ResultText {
  readonly text: string;
  /** Content blocks that were not usable text blocks. */
  readonly omitted: number;
}

/**
 * Keeps the `text` blocks of an MCP `content` array: line breaks normalized to `\n`, controls
 * removed, invisible code points shown as `\uXXXX`, each cut to 24000 code points, empty ones dropped, joined with `\n`.
 *
 * @param content The result's `content` (any value; a non-array counts as no blocks).
 * @returns The joined text ('' when none) and the count of other blocks.
 * @see docs/design/frontend-mcp.md §7, step 1
 */
export function resultText(content: unknown): ResultText {
  if (!Array.isArray(content)) return { text: '', omitted: 0 };
  const texts: string[] = [];
  let omitted = 0;
  for (const block of content) {
    const isText = typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text';
    const raw = isText ? (block as { text?: unknown }).text : undefined;
    if (typeof raw !== 'string') {
      omitted++;
      continue;
    }
    // Invisible code points become visible `\uXXXX` text (the rule of model-visible text).
    const clean = cutCodePoints(escapeInvisible(raw.replace(/\r\n?/g, '\n').replace(REMOVED_CONTROLS, '')), MAX_BLOCK_CODE_POINTS);
    if (clean !== '') texts.push(clean);
  }
  return { text: texts.join('\n'), omitted };
}

/**
 * Cuts a string to at most `limit` code points without splitting a surrogate pair.
 *
 * @param text Any string.
 * @param limit Maximum length in Unicode code points.
 * @returns `text` itself when short enough, else its prefix.
 */
export function cutCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let units = 0;
  let count = 0;
  for (const codePoint of text) {
    if (count === limit) return text.slice(0, units);
    units += codePoint.length;
    count++;
  }
  return text;
}
