import { describe, expect, test } from 'bun:test';
import { bearerTokenCheck } from '../../../src/corpus/serve/bearer-token.ts';

describe('bearerTokenCheck()', () => {
  const check = bearerTokenCheck('canary-token-7f3a');

  test('accepts exactly "Bearer <token>"', () => {
    expect(check('Bearer canary-token-7f3a')).toBe(true);
  });

  test('rejects a missing header, another scheme or case, extra spaces and a prefix or extension of the token', () => {
    for (const header of [
      null,
      '',
      'bearer canary-token-7f3a',
      'Bearer  canary-token-7f3a',
      'Bearer canary-token-7f3a ',
      'Bearer canary-token',
      'Bearer canary-token-7f3ab',
      'Token canary-token-7f3a',
      'canary-token-7f3a',
    ]) {
      expect(check(header)).toBe(false);
    }
  });
});

describe('bearerTokenCheck() with several accepted tokens (--token-env repeated)', () => {
  const check = bearerTokenCheck(['canary-old-1c2d', 'canary-new-3e4f']);

  test('accepts each token and nothing else', () => {
    expect(check('Bearer canary-old-1c2d')).toBe(true);
    expect(check('Bearer canary-new-3e4f')).toBe(true);
    for (const header of [null, 'Bearer canary-old-1c2dcanary-new-3e4f', 'Bearer canary-old-1c2d canary-new-3e4f', 'Bearer canary-other']) expect(check(header)).toBe(false);
  });
});
