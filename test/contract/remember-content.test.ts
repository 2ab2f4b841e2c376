// context_remember content rules (write.md §2.1), shared by the tool and the write-confirmation
// Hook: string, at most 4000 code points, no lone surrogate, at least one visible code point.
import { describe, expect, test } from 'bun:test';
import { checkRememberContent, MAX_REMEMBER_CONTENT_CODE_POINTS, REMEMBER_CONTENT_MESSAGES } from '../../src/contract/remember-content.ts';

const ASTRAL = '\u{1F600}';

describe('checkRememberContent()', () => {
  test('accepts text unchanged: spaces, newlines and emoji are preserved, never trimmed or normalized', () => {
    for (const content of ['  exact text \n with emoji 🙂  ', 'e\u0301', '\ttab', 'x']) {
      expect(checkRememberContent(content)).toEqual({ ok: true, content });
    }
  });

  test('row 1: a missing or non-string value gives "Memory content must be a string."', () => {
    for (const value of [undefined, null, 1, true, {}, [], ['a']]) {
      expect(checkRememberContent(value)).toEqual({ ok: false, message: 'Memory content must be a string.' });
    }
  });

  test('row 2: exactly 4000 astral code points are accepted and 4001 are rejected', () => {
    expect(MAX_REMEMBER_CONTENT_CODE_POINTS).toBe(4000);
    expect(checkRememberContent(ASTRAL.repeat(4000)).ok).toBe(true);
    expect(checkRememberContent(ASTRAL.repeat(4001))).toEqual({
      ok: false,
      message: 'Memory content must contain at most 4000 Unicode characters.',
    });
    expect(checkRememberContent('a'.repeat(4001)).ok).toBe(false);
  });

  test('row 2 comes before row 3: 4001 spaces report the length message', () => {
    expect(checkRememberContent(' '.repeat(4001))).toEqual({ ok: false, message: REMEMBER_CONTENT_MESSAGES.tooLong });
  });

  test('row 3: whitespace-only, controls-only and format-only content is not visible text', () => {
    const invisible = [
      '',
      ' ',
      ' \n\t\r\u00a0\u2028\u2029\u3000\u1680',
      '\u0000\u0001\u001f\u007f\u0085\u009f',
      '\u200b\u200c\u200d\u2060\ufeff\u00ad',
      '\u202a\u202e\u2066\u2069\u200e\u200f',
      '\u{110BD}\u{E0001}\u{E0041}',
      ' \u200b \u0000 \u{110BD} ',
    ];
    for (const content of invisible) {
      expect(checkRememberContent(content)).toEqual({ ok: false, message: 'Memory content must contain valid visible text.' });
    }
  });

  test('row 3: an unpaired surrogate anywhere is rejected, even next to visible text', () => {
    for (const content of ['\ud800', 'abc\ud83d', '\ude00abc', 'a\udc00\ud800b', '\ud83d\ud83d\ude00']) {
      expect(checkRememberContent(content)).toEqual({ ok: false, message: REMEMBER_CONTENT_MESSAGES.notVisible });
    }
    expect(checkRememberContent('\ud83d\ude00').ok).toBe(true);
  });

  test('one visible code point among invisible ones is enough', () => {
    expect(checkRememberContent('\u200b\u0000 x \u{110BD}').ok).toBe(true);
    expect(checkRememberContent('\u{1F600}').ok).toBe(true);
  });
});
