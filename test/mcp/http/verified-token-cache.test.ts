// VerifiedTokenCache (remote.md §1.6 step 5): a verified token is remembered until its `exp`
// plus the 60 s tolerance or 60 s, whichever is first, and at most 256 are kept. Explicit clock.
import { describe, expect, test } from 'bun:test';
import { VerifiedTokenCache } from '../../../src/mcp/http/verified-token-cache.ts';

const T0 = 1_800_000_000_000;

describe('VerifiedTokenCache', () => {
  test('keeps a token for 60 s when its exp is further away, then forgets it', () => {
    const cache = new VerifiedTokenCache();
    cache.add('a', T0 / 1000 + 3600, T0);
    expect(cache.has('a', T0)).toBe(true);
    expect(cache.has('a', T0 + 59_999)).toBe(true);
    expect(cache.has('a', T0 + 60_000)).toBe(false);
    expect(cache.size).toBe(0);
  });

  test('never past exp plus the 60 s tolerance', () => {
    const cache = new VerifiedTokenCache();
    cache.add('a', T0 / 1000 - 30, T0);
    expect(cache.has('a', T0 + 29_999)).toBe(true);
    expect(cache.has('a', T0 + 30_000)).toBe(false);
  });

  test('keeps nothing for an exp already beyond the tolerance or not a finite number', () => {
    const cache = new VerifiedTokenCache();
    cache.add('a', T0 / 1000 - 60, T0);
    cache.add('b', '9999999999', T0);
    cache.add('c', Number.POSITIVE_INFINITY, T0);
    cache.add('d', undefined, T0);
    expect(cache.size).toBe(0);
    expect(cache.has('a', T0)).toBe(false);
  });

  test('holds at most its limit, dropping the oldest token first', () => {
    const cache = new VerifiedTokenCache(3);
    for (const token of ['a', 'b', 'c', 'd']) cache.add(token, T0 / 1000 + 3600, T0);
    expect(cache.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((token) => cache.has(token, T0))).toEqual([false, true, true, true]);
    expect(new VerifiedTokenCache().has('x', T0)).toBe(false);
  });

  test('clear() forgets every token', () => {
    const cache = new VerifiedTokenCache();
    for (const token of ['a', 'b']) cache.add(token, T0 / 1000 + 3600, T0);
    cache.clear();
    expect([cache.size, cache.has('a', T0), cache.has('b', T0)]).toEqual([0, false, false]);
  });
});
