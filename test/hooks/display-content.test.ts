// The display form of memory content (hooks.md §3.3): JSON string syntax, then C1, U+2028,
// U+2029 and every Cf character escaped per UTF-16 unit, lowercase; always reversible.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { displayContent } from '../../src/hooks/display-content.ts';

// Characters that must never appear raw in the display form; a ZWJ/ZWNJ between two letters
// or emoji parts is ordinary text (profile-v1.md §5.2) and is taken out before the test.
const NEVER_RAW_PATTERN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;
const JOINED = /(?<=[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f])[\u200c\u200d](?=[\p{L}\p{M}\p{Extended_Pictographic}])/gu;
const NEVER_RAW = { test: (text: string): boolean => NEVER_RAW_PATTERN.test(text.replace(JOINED, '')) };

describe('displayContent()', () => {
  test('quotes the text and escapes C0, quote and backslash as JSON.stringify does', () => {
    expect(displayContent('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\u0001"');
  });

  test('escapes DEL, C1, U+2028, U+2029, ZWSP, bidi controls, BOM and soft hyphen as lowercase \\uXXXX', () => {
    const content = 'x\u007f\u0085\u009f\u2028\u2029\u200b\u202e\u2066\u200f\ufeff\u00ady';
    expect(displayContent(content)).toBe('"x\\u007f\\u0085\\u009f\\u2028\\u2029\\u200b\\u202e\\u2066\\u200f\\ufeff\\u00ady"');
  });

  test('escapes an astral Cf character per UTF-16 unit: U+110BD → \\ud804\\udcbd, tags too', () => {
    expect(displayContent('a\u{110BD}b')).toBe('"a\\ud804\\udcbdb"');
    expect(displayContent('\u{E0041}')).toBe('"\\udb40\\udc41"');
  });

  test('keeps visible text raw, emoji and non-Latin scripts included', () => {
    expect(displayContent('Grüße 🙂 日本 <b>')).toBe('"Grüße 🙂 日本 <b>"');
  });

  test('never leaves an invisible character raw, and JSON.parse gives back the exact content (property)', () => {
    const units = fc.oneof(
      fc.constantFrom(
        '\u0000',
        '\u001b',
        '\u007f',
        '\u0085',
        '\u009f',
        '\u2028',
        '\u2029',
        '\u200b',
        '\u202e',
        '\u2066',
        '\ufeff',
        '\u00ad',
        '\u{110BD}',
        '\u{E0001}',
        '"',
        '\\',
        '\ud800',
        '\udfff',
        ' ',
        '\n',
      ),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(units, { maxLength: 40 }), (parts) => {
        const content = parts.join('');
        const shown = displayContent(content);
        expect(NEVER_RAW.test(shown)).toBe(false);
        expect(JSON.parse(shown)).toBe(content);
      }),
      { numRuns: 500 },
    );
  });
});
