// Splits a section body into chunks of at most a given number of code points: first at
// blank-line paragraphs, then (for an oversized paragraph) at lines, spaces, and finally
// anywhere between code points (docs/design/providers.md §8.1).
import { codePointCount } from '../../util/code-points.ts';

/** Largest chunk, in Unicode code points (docs/design/providers.md §8.1). */
export const MAX_CHUNK_CODE_POINTS = 1000;

const BLANK_LINES = /\n(?:[ \t]*\n)+/;
const PARAGRAPH_JOINER = '\n\n';

/**
 * Splits text into chunks.
 *
 * Consecutive paragraphs are packed into one chunk (joined by a blank line) while the result
 * stays within the limit, so short paragraphs do not become one-line chunks.
 *
 * @param text Text with `\n` line ends.
 * @param maxCodePoints Largest chunk in Unicode code points (default 1000).
 * @returns Non-blank chunks in text order, each with leading blank lines and trailing
 *   whitespace removed; empty when the text is blank.
 */
export function chunkText(text: string, maxCodePoints: number = MAX_CHUNK_CODE_POINTS): string[] {
  const paragraphs = text
    .split(BLANK_LINES)
    .map(tidy)
    .filter((paragraph) => paragraph !== '');
  return pack(paragraphs, PARAGRAPH_JOINER, maxCodePoints, ['\n', ' '])
    .map(tidy)
    .filter((chunk) => chunk !== '');
}

// Greedy packing of parts joined by `joiner`; a part over the limit is split with the next
// separator first.
function pack(parts: readonly string[], joiner: string, max: number, separators: readonly string[]): string[] {
  const chunks: string[] = [];
  let current = '';
  let currentLength = 0;
  let empty = true;
  for (const part of parts) {
    for (const piece of fit(part, max, separators)) {
      const pieceLength = codePointCount(piece);
      if (!empty && currentLength + joiner.length + pieceLength <= max) {
        current += joiner + piece;
        currentLength += joiner.length + pieceLength;
        continue;
      }
      if (!empty) chunks.push(current);
      current = piece;
      currentLength = pieceLength;
      empty = false;
    }
  }
  if (!empty) chunks.push(current);
  return chunks;
}

function fit(text: string, max: number, separators: readonly string[]): string[] {
  if (text.length <= max || codePointCount(text) <= max) return [text];
  const [separator, ...rest] = separators;
  if (separator === undefined) return cutEvery(text, max);
  const parts = text.split(separator);
  if (parts.length === 1) return fit(text, max, rest);
  return pack(parts, separator, max, rest);
}

// Last resort for a run without spaces: cut between code points, never inside a surrogate pair.
function cutEvery(text: string, max: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let count = 0;
  for (const codePoint of text) {
    if (count === max) {
      pieces.push(piece);
      piece = '';
      count = 0;
    }
    piece += codePoint;
    count++;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

function tidy(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}
