// The one rule for model-visible text (docs/design/profile-v1.md §5.2): in a serialized JSON text,
// every `<`, `>` and every invisible, reordering or line-breaking code point becomes a visible
// `\uXXXX` escape per UTF-16 unit (lowercase hex). Escapes are JSON's own, so the text stays valid
// JSON and parses back to the same value. The envelope, the auto-recall Hook, the write
// confirmation, gateway results and every JSON output of the command line use it.

/**
 * The code points the rule escapes: DEL and C1 (JSON already escapes C0), U+2028/U+2029, every
 * format character (Cf: tag characters, bidi controls, zero-width characters, soft hyphen, word
 * joiner, BOM, …), private use (Co), lone surrogates (Cs) and noncharacters. Two joiners are kept
 * in context (see {@link keptJoiner}).
 */
const UNSAFE_SOURCE = '[\\u007f-\\u009f\\u2028\\u2029\\p{Cf}\\p{Co}\\p{Cs}\\p{Noncharacter_Code_Point}]';
const UNSAFE = new RegExp(UNSAFE_SOURCE, 'u');
const UNSAFE_GLOBAL = new RegExp(UNSAFE_SOURCE, 'gu');

const ZWNJ = '\u200c';
const ZWJ = '\u200d';
// Scripts whose shaping needs ZWNJ/ZWJ between letters (Persian, Indic, Sinhala, Khmer, …).
const JOINING_LETTER =
  /^[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Khmr}\p{scx=Mymr}\p{scx=Tibt}]$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const EMOJI_BEFORE_ZWJ = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;
const EMOJI_AFTER_ZWJ = /^\p{Extended_Pictographic}$/u;

/** The code point that ends just before `offset` ('' at the start). */
function codePointBefore(text: string, offset: number): string {
  if (offset === 0) return '';
  const low = text.charCodeAt(offset - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && offset >= 2 ? offset - 2 : offset - 1;
  return String.fromCodePoint(text.codePointAt(start) ?? 0);
}

/** The code point that starts at `offset` ('' at the end). */
function codePointFrom(text: string, offset: number): string {
  const codePoint = text.codePointAt(offset);
  return codePoint === undefined ? '' : String.fromCodePoint(codePoint);
}

/**
 * Whether a ZWJ or ZWNJ is part of ordinary text and stays raw: a ZWJ between an emoji (or its
 * modifier or U+FE0F) and the next pictograph of a ZWJ sequence, or either joiner between two
 * letters or marks of a script that shapes with it (Arabic, Indic, …). Anywhere else it carries
 * no meaning a reader sees and is escaped (docs/design/profile-v1.md §5.2, Decision).
 */
function keptJoiner(char: string, offset: number, text: string): boolean {
  if (char !== ZWNJ && char !== ZWJ) return false;
  const before = codePointBefore(text, offset);
  const after = codePointFrom(text, offset + 1);
  if (char === ZWJ && EMOJI_BEFORE_ZWJ.test(before) && EMOJI_AFTER_ZWJ.test(after)) return true;
  return JOINING_LETTER.test(before) && LETTER_OR_MARK.test(before) && JOINING_LETTER.test(after) && LETTER_OR_MARK.test(after);
}

function unitEscapes(char: string): string {
  let escaped = '';
  for (let index = 0; index < char.length; index++) escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escaped;
}

/**
 * Escapes the invisible code points (not `<`/`>`). On a JSON text (the write confirmation's
 * display, docs/design/hooks.md §3.3) the escapes are JSON's own, so parsing gives the same value;
 * on a plain string value (gateway results, docs/design/frontend-mcp.md §7) they are six visible
 * characters each and replace the code point.
 *
 * @param text A JSON text or any string, lone surrogates included.
 * @returns The same text, each unsafe code point as `\uXXXX` per UTF-16 unit; `text` itself
 *   when it has none.
 */
export function escapeInvisible(text: string): string {
  // Fast path: ordinary text has none, and a test costs far less than a replace with a callback.
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_GLOBAL, (char: string, offset: number, whole: string) => (keptJoiner(char, offset, whole) ? char : unitEscapes(char)));
}

/**
 * Applies the whole rule to a JSON text: `<` → `\u003c`, `>` → `\u003e`, then {@link escapeInvisible}.
 *
 * @param json Output of `JSON.stringify`.
 * @returns JSON with no raw angle bracket and no unsafe code point; `JSON.parse` gives the same
 *   value. Text without either renders byte for byte as with angle brackets alone.
 * @see docs/design/profile-v1.md §5.2
 */
export function escapeJsonText(json: string): string {
  // Two plain replacements: no per-match callback on the per-search path (issue 18).
  return escapeInvisible(json.replaceAll('<', '\\u003c').replaceAll('>', '\\u003e'));
}

/** `JSON.stringify` followed by {@link escapeJsonText}: the form every JSON output uses. */
export function stringifyEscaped(value: unknown, space?: number): string {
  return escapeJsonText(JSON.stringify(value, null, space));
}

/**
 * The first code point the rule would escape in a text, for reports (`conformance`).
 *
 * @param text Any text, typically a server's `T`.
 * @returns The code point, or undefined when the text is inert under the rule.
 */
export function firstUnsafeCodePoint(text: string): number | undefined {
  UNSAFE_GLOBAL.lastIndex = 0;
  for (let match = UNSAFE_GLOBAL.exec(text); match !== null; match = UNSAFE_GLOBAL.exec(text)) {
    if (!keptJoiner(match[0], match.index, text)) {
      UNSAFE_GLOBAL.lastIndex = 0;
      return match[0].codePointAt(0);
    }
  }
  return undefined;
}
