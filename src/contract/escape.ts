// The one rule for model-visible text (docs/design/profile-v1.md §5.2): in a serialized JSON text,
// every `<`, `>` and every invisible, reordering or line-breaking code point becomes a visible
// `\uXXXX` escape per UTF-16 unit (lowercase hex). Escapes are JSON's own, so the text stays valid
// JSON and parses back to the same value. The envelope, the auto-recall Hook, the write
// confirmation, gateway results and every JSON output of the command line use it.

/**
 * The code points the rule escapes: DEL and C1 (JSON already escapes C0), U+2028/U+2029, every
 * format character (Cf: tag characters, bidi controls, zero-width characters, soft hyphen, word
 * joiner, BOM, …), every default-ignorable code point (variation selectors, Hangul fillers,
 * U+034F, the unassigned ignorable ranges such as U+E0080–E0FFF: invisible by definition, found
 * by a hostile test as a second smuggling channel), private use (Co), lone surrogates (Cs) and
 * noncharacters. Joiners and variation selectors are kept in context (see {@link keptInContext}).
 */
const UNSAFE_SOURCE = '[\\u007f-\\u009f\\u2028\\u2029\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{Co}\\p{Cs}\\p{Noncharacter_Code_Point}]';
// Every code point the rule escapes is U+007F or above (the lowest format and default-ignorable
// code point is U+00AD), so a text without one is returned before the class above is built.
const ABOVE_ASCII = /[^\u0000-\u007e]/;

// Deliberately built on first use, not at module load: building a Unicode property class costs
// about 1 ms CPU each group (the 17 script classes, the context classes, the unsafe class), which
// every Hook run paid, mostly for text that never needs them.
let unsafeClass: { readonly one: RegExp; readonly global: RegExp } | undefined;
function unsafe(): { readonly one: RegExp; readonly global: RegExp } {
  unsafeClass ??= { one: new RegExp(UNSAFE_SOURCE, 'u'), global: new RegExp(UNSAFE_SOURCE, 'gu') };
  return unsafeClass;
}

const ZWNJ = '\u200c';
const ZWJ = '\u200d';
// Scripts whose shaping needs ZWNJ/ZWJ between letters (Persian, Indic, Sinhala, Khmer, …): a
// joiner is kept only between two letters or marks of the same one of them.
const JOINING_SCRIPTS = ['Arab', 'Syrc', 'Nkoo', 'Mong', 'Deva', 'Beng', 'Guru', 'Gujr', 'Orya', 'Taml', 'Telu', 'Knda', 'Mlym', 'Sinh', 'Khmr', 'Mymr', 'Tibt'] as const;

/** The classes {@link keptInContext} reads, built on first use (see {@link unsafe}). */
interface ContextClasses {
  readonly joiningScripts: readonly RegExp[];
  readonly letterOrMark: RegExp;
  /** U+FE0E/U+FE0F choose text or emoji presentation of the character before them. */
  readonly presentationSelector: RegExp;
  readonly emojiBase: RegExp;
  /** Mongolian free variation selectors (and U+180F) choose a letter's form. */
  readonly mongolianSelector: RegExp;
  readonly mongolianLetter: RegExp;
  readonly emojiBeforeZwj: RegExp;
  readonly emojiAfterZwj: RegExp;
}
let contextClasses: ContextClasses | undefined;
function context(): ContextClasses {
  contextClasses ??= {
    joiningScripts: JOINING_SCRIPTS.map((script) => new RegExp(`^\\p{scx=${script}}$`, 'u')),
    letterOrMark: /^[\p{L}\p{M}]$/u,
    presentationSelector: /^[\ufe0e\ufe0f]$/u,
    emojiBase: /^[\p{Emoji}\p{Extended_Pictographic}]$/u,
    mongolianSelector: /^[\u180b-\u180d\u180f]$/u,
    mongolianLetter: /^[\u1820-\u1878\u1880-\u18aa]$/u,
    emojiBeforeZwj: /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u,
    emojiAfterZwj: /^\p{Extended_Pictographic}$/u,
  };
  return contextClasses;
}

/** The code point that ends just before `offset` ('' at the start); a lone surrogate is itself. */
function codePointBefore(text: string, offset: number): string {
  if (offset === 0) return '';
  const low = text.charCodeAt(offset - 1);
  const high = offset >= 2 ? text.charCodeAt(offset - 2) : 0;
  const paired = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return paired ? text.slice(offset - 2, offset) : text.slice(offset - 1, offset);
}

/** The code point that starts at `offset` ('' at the end). */
function codePointFrom(text: string, offset: number): string {
  const codePoint = text.codePointAt(offset);
  return codePoint === undefined ? '' : String.fromCodePoint(codePoint);
}

/** Whether a neighbour is visible ordinary text (not itself escaped by the rule). */
function visible(char: string): boolean {
  return char !== '' && !unsafe().one.test(char);
}

/**
 * Whether an otherwise escaped code point is part of ordinary text and stays raw: a ZWJ between
 * an emoji (or its modifier or U+FE0F) and the next pictograph of a ZWJ sequence; either joiner
 * between two letters or marks of one script that shapes with it (Arabic, Indic, …); U+FE0E or
 * U+FE0F right after an emoji base; a Mongolian variation selector right after a Mongolian letter.
 * Both neighbours must be visible, so a run of kept code points cannot carry hidden bits.
 * Anywhere else it carries no meaning a reader sees and is escaped (docs/design/profile-v1.md
 * §5.2, Decision).
 */
function keptInContext(char: string, offset: number, text: string): boolean {
  const classes = context();
  const before = codePointBefore(text, offset);
  if (classes.presentationSelector.test(char)) return classes.emojiBase.test(before) && visible(before);
  if (classes.mongolianSelector.test(char)) return classes.mongolianLetter.test(before);
  if (char !== ZWNJ && char !== ZWJ) return false;
  const after = codePointFrom(text, offset + 1);
  if (char === ZWJ && classes.emojiBeforeZwj.test(before) && classes.emojiAfterZwj.test(after)) return before !== '\ufe0f' || keptInContext(before, offset - 1, text);
  if (!visible(before) || !visible(after) || !classes.letterOrMark.test(before) || !classes.letterOrMark.test(after)) return false;
  return classes.joiningScripts.some((script) => script.test(before) && script.test(after));
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
  // Fast paths: ordinary text has none, and a test costs far less than a replace with a callback.
  if (!ABOVE_ASCII.test(text)) return text;
  const { one, global } = unsafe();
  if (!one.test(text)) return text;
  return text.replace(global, (char: string, offset: number, whole: string) => (keptInContext(char, offset, whole) ? char : unitEscapes(char)));
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
  if (!ABOVE_ASCII.test(text)) return undefined;
  const { global } = unsafe();
  global.lastIndex = 0;
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    if (!keptInContext(match[0], match.index, text)) {
      global.lastIndex = 0;
      return match[0].codePointAt(0);
    }
  }
  return undefined;
}
