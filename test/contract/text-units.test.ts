// Code-point counting and cutting (profile-v1.md "Terms"): astral characters count once, an
// unpaired surrogate counts once, and a cut never splits a surrogate pair.
import { describe, expect, test } from 'bun:test';
import { codePointCount, cutCodePoints, hasAtMostCodePoints, JS_WHITESPACE_RUN } from '../../src/contract/text-units.ts';

const SMILE = '\u{1F642}';
const LONE_HIGH = '\uD83D';
const LONE_LOW = '\uDE42';

describe('codePointCount()', () => {
  test('counts an astral character once and an unpaired surrogate once', () => {
    expect(codePointCount('')).toBe(0);
    expect(codePointCount('abc')).toBe(3);
    expect(codePointCount(SMILE.repeat(2000))).toBe(2000);
    expect(codePointCount(`a${LONE_HIGH}b${LONE_LOW}`)).toBe(4);
    expect(codePointCount('部署\n策略 🙂')).toBe(7);
  });
});

describe('hasAtMostCodePoints()', () => {
  test('accepts exactly the maximum and rejects maximum + 1, counting code points', () => {
    expect(hasAtMostCodePoints(SMILE.repeat(2000), 2000)).toBe(true);
    expect(hasAtMostCodePoints(SMILE.repeat(2001), 2000)).toBe(false);
    expect(hasAtMostCodePoints('q'.repeat(2000), 2000)).toBe(true);
    expect(hasAtMostCodePoints('q'.repeat(2001), 2000)).toBe(false);
    expect(hasAtMostCodePoints(LONE_HIGH.repeat(3), 3)).toBe(true);
    expect(hasAtMostCodePoints(LONE_HIGH.repeat(4), 3)).toBe(false);
  });
});

describe('cutCodePoints()', () => {
  test('returns the text itself when it is short enough', () => {
    const text = `${SMILE}x`;
    expect(cutCodePoints(text, 2)).toBe(text);
    expect(cutCodePoints('', 0)).toBe('');
  });

  test('keeps the first max code points and never splits a surrogate pair', () => {
    expect(cutCodePoints(SMILE.repeat(1001), 1000)).toBe(SMILE.repeat(1000));
    expect(cutCodePoints(`a${SMILE}b`, 2)).toBe(`a${SMILE}`);
    expect(cutCodePoints(`a${SMILE}b`, 1)).toBe('a');
    expect(cutCodePoints(`${SMILE}${SMILE}`, 0)).toBe('');
  });

  test('counts an unpaired surrogate as one code point when cutting', () => {
    expect(cutCodePoints(`${LONE_LOW}${LONE_HIGH}xyz`, 2)).toBe(`${LONE_LOW}${LONE_HIGH}`);
    expect(cutCodePoints(`x${LONE_HIGH}${SMILE}`, 2)).toBe(`x${LONE_HIGH}`);
  });
});

describe('JS_WHITESPACE_RUN', () => {
  // profile-v1.md "Terms": JS whitespace is exactly what `\s` matches.
  const WHITESPACE = [
    '\u0009', '\u000A', '\u000B', '\u000C', '\u000D', '\u0020', '\u00A0', '\u1680',
    '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A',
    '\u2028', '\u2029', '\u202F', '\u205F', '\u3000', '\uFEFF',
  ];

  test('matches every character the profile lists as JS whitespace', () => {
    for (const ch of WHITESPACE) expect(`a${ch}b`.replace(JS_WHITESPACE_RUN, ' ')).toBe('a b');
  });

  test('does not match zero-width space, NEL or the Mongolian vowel separator', () => {
    for (const ch of ['\u200B', '\u0085', '\u180E']) expect(`a${ch}b`.replace(JS_WHITESPACE_RUN, ' ')).toBe(`a${ch}b`);
  });
});
