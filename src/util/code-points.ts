// Counting and cutting by Unicode code points (docs/design/profile-v1.md "Terms"): iterating a string
// yields code points, and an unpaired surrogate counts as one. The one counter of src/; imports nothing from src/.

/** Number of code points in `text`. */
export function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** True when `text` has at most `max` code points; stops counting early. */
export function hasAtMostCodePoints(text: string, max: number): boolean {
  // Fast path: every code point is at least one UTF-16 unit.
  if (text.length <= max) return true;
  let count = 0;
  for (const _ of text) if (++count > max) return false;
  return true;
}

/**
 * The first `max` code points of `text`; never splits a surrogate pair.
 *
 * @param text Any string.
 * @param max Maximum length in code points (≥ 0).
 * @returns `text` itself when it is short enough, else its prefix.
 */
export function cutCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let count = 0;
  let units = 0;
  for (const codePoint of text) {
    if (count === max) break;
    count++;
    units += codePoint.length;
  }
  return text.slice(0, units);
}
