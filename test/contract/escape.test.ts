// The rule of model-visible text (profile-v1.md §5.2): `<` → `\u003c`, `>` → `\u003e`, and every
// invisible, reordering or line-breaking code point as `\uXXXX` per UTF-16 unit, lowercase hex;
// the text stays valid JSON that parses back to the same value.
import { describe, expect, test } from 'bun:test';
import { escapeInvisible, escapeJsonText as escapeAngleBrackets, firstUnsafeCodePoint, stringifyEscaped } from '../../src/contract/escape.ts';

describe('escapeJsonText(): angle brackets', () => {
  test('replaces every angle bracket with its lowercase six-character escape', () => {
    const json = JSON.stringify({ content: '<script>alert(1)</script> a>b<c' });
    const escaped = escapeAngleBrackets(json);
    expect(escaped).not.toMatch(/[<>]/);
    expect(escaped).toContain('\\u003cscript\\u003e');
    expect(escaped).not.toMatch(/\\u003[CE]/);
    expect(escaped.length).toBe(json.length + 5 * 6); // six brackets, five extra units each
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
  });

  test('leaves text without angle brackets or unsafe code points unchanged', () => {
    const json = JSON.stringify({ a: '"quoted" \\ \t 🙂 部署 Grüße' });
    expect(escapeAngleBrackets(json)).toBe(json);
  });

  test('escapes brackets next to an escaped backslash so the JSON still parses to the same string', () => {
    const value = { s: '\\<\\>' };
    const escaped = escapeAngleBrackets(JSON.stringify(value));
    expect(escaped).toBe('{"s":"\\\\\\u003c\\\\\\u003e"}');
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

describe('stringifyEscaped()', () => {
  test('is compact JSON.stringify followed by escaping', () => {
    expect(stringifyEscaped({ a: ['<b>'] })).toBe('{"a":["\\u003cb\\u003e"]}');
  });

  test('indents when a space count is given and stays valid JSON', () => {
    const text = stringifyEscaped({ a: '<x>' }, 2);
    expect(text).toBe('{\n  "a": "\\u003cx\\u003e"\n}');
    expect(JSON.parse(text)).toEqual({ a: '<x>' });
  });
});

/** One JSON string through the rule, without its quotes. */
function escaped(value: string): string {
  return escapeAngleBrackets(JSON.stringify(value)).slice(1, -1);
}

describe('escapeJsonText(): one case per category', () => {
  const CASES: readonly (readonly [string, string, string])[] = [
    ['DEL and C1', 'a\u007f\u0085\u009fb', 'a\\u007f\\u0085\\u009fb'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['tag characters (ASCII smuggling)', 'hi\u{E0049}\u{E0067}\u{E007F}', 'hi\\udb40\\udc49\\udb40\\udc67\\udb40\\udc7f'],
    ['bidi controls', '\u202aa\u202bb\u202c\u202d\u202e\u2066\u2067\u2068\u2069', '\\u202aa\\u202bb\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069'],
    ['zero-width, word joiner, soft hyphen, BOM', 'a\u200bb\u2060c\u00add\ufeffe\u200ef', 'a\\u200bb\\u2060c\\u00add\\ufeffe\\u200ef'],
    ['private use, BMP and astral', 'a\ue000b\u{F0000}', 'a\\ue000b\\udb80\\udc00'],
    ['noncharacters', 'a\ufdd0b\uffffc\u{1FFFE}', 'a\\ufdd0b\\uffffc\\ud83f\\udffe'],
    ['lone surrogates (JSON.stringify escapes them already)', 'a\ud800b\udfff', 'a\\ud800b\\udfff'],
    ['ZWJ and ZWNJ between Latin letters', 'a\u200db\u200cc', 'a\\u200db\\u200cc'],
    ['a joiner at the start or end, or doubled', '\u200d\u0645\u200c\u200c\u06cc\u200c', '\\u200d\u0645\\u200c\\u200c\u06cc\\u200c'],
  ];
  for (const [name, value, expected] of CASES) {
    test(`escapes ${name}`, () => {
      const json = JSON.stringify({ content: value });
      const text = escapeAngleBrackets(json);
      expect(text).toBe(`{"content":"${expected}"}`);
      expect(JSON.parse(text)).toEqual({ content: value });
    });
  }

  test('keeps ordinary text in any script byte for byte: CJK, Arabic, Hebrew, Devanagari, combining marks, emoji', () => {
    for (const value of ['部署策略', 'سياسة النشر', 'מדיניות', 'नीति', 'e\u0301 n\u0303', '🙂 👍🏽 🇩🇪', '한국어 日本語 ไทย']) {
      expect(escaped(value)).toBe(value);
    }
  });

  test('keeps a ZWJ inside an emoji sequence (family, profession, skin tone, VS16)', () => {
    for (const value of ['👨\u200d👩\u200d👧', '👩🏽\u200d💻', '❤\ufe0f\u200d🔥', '🏳\ufe0f\u200d🌈']) expect(escaped(value)).toBe(value);
  });

  test('keeps ZWNJ and ZWJ between letters of a joining script (Persian, Devanagari, Malayalam)', () => {
    for (const value of ['می\u200cخواهم', 'क्\u200dष', 'क्\u200cष', 'ന്\u200d']) {
      expect(escaped(value)).toBe(value.endsWith('\u200d') ? value.replace(/\u200d$/, '\\u200d') : value);
    }
  });

  test('escapes the tag characters of a subdivision flag (no exception for tag sequences)', () => {
    expect(escaped('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}')).toBe('🏴\\udb40\\udc67\\udb40\\udc62\\udb40\\udc65\\udb40\\udc6e\\udb40\\udc67\\udb40\\udc7f');
  });
});

describe('escapeInvisible() on a string value', () => {
  test('turns each unsafe code point into six visible characters and keeps angle brackets', () => {
    expect(escapeInvisible('a<\u{E0041}>\u202e\ud800')).toBe('a<\\udb40\\udc41>\\u202e\\ud800');
  });

  test('returns the same string when nothing needs escaping', () => {
    const value = 'plain <b> 🙂 سلام';
    expect(escapeInvisible(value)).toBe(value);
  });

  // The ASCII fast path returns before the unsafe class is built: it must hold every code point
  // below U+007F and nothing else.
  test('keeps every code point below U+007F and escapes U+007F, alone and within text', () => {
    const ascii = Array.from({ length: 0x7f }, (_, code) => String.fromCharCode(code)).join('');
    expect(escapeInvisible(ascii)).toBe(ascii);
    expect(firstUnsafeCodePoint(ascii)).toBeUndefined();
    expect(escapeInvisible(`${ascii}\u007f`)).toBe(`${ascii}\\u007f`);
    expect(firstUnsafeCodePoint(`${ascii}\u007f`)).toBe(0x7f);
  });
});

// A hostile tester's second round (issue 27): invisible code points outside Cf, joiners used as a
// bit channel, and a joiner after a lone low surrogate.
describe('escapeInvisible(): default-ignorable code points and kept code points in context', () => {
  const escapes = (text: string): boolean => escapeInvisible(text) !== text;
  test('escapes variation selectors, Hangul fillers, U+034F and the unassigned ignorable ranges', () => {
    for (const char of ['\u{E0100}', '\u{E01EF}', '\ufe00', '\u3164', '\u115f', '\uffa0', '\u034f', '\u17b4', '\u{E0080}', '\u{E00FF}', '\u2065', '\ufff0']) {
      expect({ char: char.codePointAt(0)?.toString(16), escaped: escapes(`a${char}b`) }).toEqual({ char: char.codePointAt(0)?.toString(16), escaped: true });
    }
  });
  test('keeps U+FE0F after an emoji base and a Mongolian variation selector after a Mongolian letter', () => {
    for (const text of ['\u2764\ufe0f', '\u2764\ufe0f\u200d\u{1F525}', '#\ufe0f\u20e3', '\u1820\u180b']) expect(escapeInvisible(text)).toBe(text);
    expect(escapeInvisible('a\ufe0f')).toBe('a\\ufe0f');
  });
  test('escapes a joiner between scripts, next to an escaped code point, or after a lone low surrogate', () => {
    expect(escapeInvisible('\u0628\u200c\u0915')).toBe('\u0628\\u200c\u0915'); // Arabic, then Devanagari
    expect(escapeInvisible('\u0628\u200c\u0628')).toBe('\u0628\u200c\u0628'); // kept: Persian shaping
    expect(escapeInvisible('\u17b4\u200c\u17b4')).toBe('\\u17b4\\u200c\\u17b4');
    expect(escapeInvisible('\u263a\udc00\u200d\u{1F600}')).toBe('\u263a\\udc00\\u200d\u{1F600}');
  });
});
