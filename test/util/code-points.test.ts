// Code-point counting and cutting (profile-v1.md "Terms"): astral characters count once, an
// unpaired surrogate counts once, and a cut never splits a surrogate pair.
import { describe, expect, test } from 'bun:test';
import { codePointCount, cutCodePoints, hasAtMostCodePoints } from '../../src/util/code-points.ts';

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
