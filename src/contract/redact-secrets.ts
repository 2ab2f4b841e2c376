// `redactSecrets` (docs/design/config.md §4.3): before bounding, every match of the reviewed
// pattern table in an item's `content` and `title` becomes `[redacted:<kind>]`. Best effort,
// not data-loss prevention; the count goes to `check --search`, never what was redacted.
import type { RawItem } from './bound.ts';
import { MAX_ITEMS } from './bound.ts';
import { SECRET_PATTERNS } from './secret-patterns.ts';

/** Items with secrets replaced, and how many replacements were made. */
export interface RedactedItems {
  readonly items: readonly RawItem[];
  readonly redactions: number;
}

/**
 * Replaces credentials in one text.
 *
 * @param text Any text.
 * @returns The text with each accepted match as `[redacted:<kind>]`, and the match count.
 */
export function redactText(text: string): { readonly text: string; readonly redactions: number } {
  let redactions = 0;
  let out = text;
  for (const { kind, pattern, accept } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    out = out.replace(pattern, (match: string) => {
      if (accept !== undefined && !accept(match)) return match;
      redactions++;
      return `[redacted:${kind}]`;
    });
  }
  return { text: out, redactions };
}

/**
 * Redacts the items bounding will look at (the first five).
 *
 * @param source Items in provider order.
 * @returns Copies of the first five with `content` and `title` redacted (other fields and
 *   non-string values untouched), and the total count.
 * @see docs/design/config.md §4.3
 */
export function redactItems(source: readonly RawItem[]): RedactedItems {
  let redactions = 0;
  const items = source.slice(0, MAX_ITEMS).map((raw) => {
    const copy: Record<string, unknown> = { ...raw };
    for (const key of ['content', 'title'] as const) {
      const value = raw[key];
      if (typeof value !== 'string') continue;
      const redacted = redactText(value);
      copy[key] = redacted.text;
      redactions += redacted.redactions;
    }
    return copy as RawItem;
  });
  return { items, redactions };
}
