// printable(): the one-line display of administrator or provider text in operator output
// (config.md §3). F6 of the break report: bidi controls and zero-width characters passed raw.
import { describe, expect, test } from 'bun:test';
import { printable } from '../../src/util/printable.ts';

const escaped = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

describe('printable()', () => {
  test('escapes C0, C1, the line and paragraph separators, bidi controls and invisible format characters', () => {
    const ranges: readonly (readonly [number, number])[] = [
      [0x0000, 0x001f],
      [0x007f, 0x009f],
      [0x200b, 0x200f],
      [0x2028, 0x202e],
      [0x2060, 0x2064],
      [0x2066, 0x2069],
      [0xfeff, 0xfeff],
    ];
    for (const [from, to] of ranges) {
      for (let code = from; code <= to; code++) expect(printable(`a${String.fromCharCode(code)}b`)).toBe(`a${escaped(code)}b`);
    }
  });

  test('keeps printable text, including non-Latin letters, emoji and a no-break space', () => {
    for (const text of ['/etc/external-context/config.json', 'Déploiement — guide', '日本語', '🙂 ok', 'a\u00a0b', 'a\u2065b']) expect(printable(text)).toBe(text);
  });

  test('a right-to-left override can no longer disguise a file name', () => {
    expect(printable('context_search\u202egnp.exe')).toBe('context_search\\u202egnp.exe');
    expect(printable('\u2066evil\u2069\u200b\ufeff')).toBe('\\u2066evil\\u2069\\u200b\\ufeff');
  });
});
