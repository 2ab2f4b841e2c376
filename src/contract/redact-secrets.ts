// `redactSecrets` (docs/design/config.md §4.3): before bounding, every match of the reviewed
// pattern table in an item's `content`, `title` and `id` becomes `[redacted:<kind>]`, and a `uri`
// holding one is dropped. Best effort,
// not data-loss prevention; the count goes to `check --search`, never what was redacted.
import type { RawItem } from './bound.ts';
import { MAX_ITEMS } from './bound.ts';
import { SECRET_PATTERNS } from './secret-patterns.ts';

/**
 * How much of one field is scanned and kept: more than any envelope shows (4000 UTF-16 units in
 * all, docs/design/profile-v1.md §5.3), and short enough that every pattern runs fast on every runtime (a
 * hostile 1 MiB PEM-like body took 7-13 s in Bun's regex engine, past every deadline).
 */
export const REDACT_SCAN_UNITS = 16_384;

/** The first REDACT_SCAN_UNITS units of a text, never splitting a surrogate pair. */
function scanned(text: string): string {
  if (text.length <= REDACT_SCAN_UNITS) return text;
  const last = text.charCodeAt(REDACT_SCAN_UNITS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? REDACT_SCAN_UNITS - 1 : REDACT_SCAN_UNITS);
}

/** Items with secrets replaced, and how many replacements were made. */
export interface RedactedItems {
  readonly items: readonly RawItem[];
  readonly redactions: number;
}

/**
 * Replaces credentials in one text.
 *
 * @param text Any text.
 * @returns The text with each accepted match as `[redacted:<kind>]`, and the match count. When
 *   the text holds invisible code points and matching without them finds more, the copy without
 *   them (redacted) is returned.
 */
export function redactText(text: string): { readonly text: string; readonly redactions: number } {
  const plain = redactPatterns(text);
  // Fast path: ordinary text holds no invisible code point.
  if (!HAS_INVISIBLE.test(text)) return plain;
  const stripped = redactPatterns(text.replace(INVISIBLE, ''));
  return stripped.redactions > plain.redactions ? stripped : plain;
}

// Invisible code points (format characters such as U+200B and the soft hyphen, and every other
// default-ignorable one) split a credential for the patterns while a reader, and the model after
// escaping, still sees it whole (a hostile test: `ghp_…\u200b…` passed). A text holding one is
// matched again without them, and that copy wins when it finds more (docs/design/config.md §4.3).
const HAS_INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

function redactPatterns(text: string): { readonly text: string; readonly redactions: number } {
  let redactions = 0;
  let out = text;
  // Ordinary text holds none of most patterns' literal parts: one lower-casing per field instead
  // of 17 scans, and the patterns it cannot match are never compiled (Hook start-up).
  let lower = text.toLowerCase();
  for (const { kind, pattern, anyOf, accept } of SECRET_PATTERNS) {
    if (!anyOf.some((part) => lower.includes(part))) continue;
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    const before = out;
    out = out.replace(pattern, (match: string) => {
      if (accept !== undefined && !accept(match)) return match;
      redactions++;
      return `[redacted:${kind}]`;
    });
    if (out !== before) lower = out.toLowerCase();
  }
  return { text: out, redactions };
}

/**
 * Redacts the items bounding will look at (the first five).
 *
 * @param source Items in provider order.
 * @returns Copies of the first five with `content`, `title` and `id` cut to REDACT_SCAN_UNITS
 *   and redacted, `uri` dropped
 *   when it holds a secret (a redacted link would point nowhere), other fields and non-string
 *   values untouched, and the total count.
 * @see docs/design/config.md §4.3
 */
export function redactItems(source: readonly RawItem[]): RedactedItems {
  let redactions = 0;
  const items = source.slice(0, MAX_ITEMS).map((raw) => {
    const copy: Record<string, unknown> = { ...raw };
    // The id too: a corpus builds ids (and uris) from headings, which can carry a secret.
    for (const key of ['content', 'title', 'id'] as const) {
      const value = raw[key];
      if (typeof value !== 'string') continue;
      const redacted = redactText(scanned(value));
      copy[key] = redacted.text;
      redactions += redacted.redactions;
    }
    if (typeof raw['uri'] === 'string') {
      const found = redactText(scanned(raw['uri'])).redactions;
      if (found > 0) delete copy['uri'];
      redactions += found;
    }
    return copy as RawItem;
  });
  return { items, redactions };
}
