// isWeakToken() (docs/design/providers.md §8.2): the floor `corpus serve` puts under its tokens.
import { describe, expect, test } from 'bun:test';
import { isWeakToken, weakTokenText } from '../../../src/corpus/serve/token-strength.ts';

describe('isWeakToken()', () => {
  test('refuses short tokens and tokens of few different characters; counts code points', () => {
    for (const weak of ['x', 'test', 'abcdefghijklmno', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'abababababababababab', 'abcdeabcdeabcdeabcde', '😀'.repeat(15)]) expect(isWeakToken(weak)).toBe(true);
    for (const strong of ['abcdefabcdefabcd', 'canary-token-cli-0d9e', 'f'.repeat(10) + '0123456789', '😀😁😂😃😄😅😀😁😂😃😄😅😀😁😂😃']) expect(isWeakToken(strong)).toBe(false);
  });

  test('the operator line names the flag by position and the fix, never a value', () => {
    expect(weakTokenText('the second --token-env')).toBe(
      'The service token is too weak: the variable given to the second --token-env must hold at least 16 characters, at least 6 of them different (for example the output of openssl rand -hex 32).',
    );
  });
});
