import { expect, test } from 'bun:test';
import { cutCodePoints, resultText } from '../../../src/gateway/result/untrusted-text.ts';

test('resultText() keeps text blocks, normalizes line breaks, keeps newlines and tabs, removes other controls', () => {
  const content = [
    { type: 'text', text: 'a\r\nb\rc\u0000\u001b[31m\u007f\td' },
    { type: 'image', data: 'x', mimeType: 'image/png' },
    { type: 'text', text: '' },
    { type: 'text', text: 'second' },
    { type: 'text' },
  ];
  expect(resultText(content)).toEqual({ text: 'a\nb\nc[31m\td\nsecond', omitted: 2 });
  expect(resultText(undefined)).toEqual({ text: '', omitted: 0 });
});

test('resultText() cuts each block to 24000 code points without splitting a surrogate pair', () => {
  const { text } = resultText([{ type: 'text', text: '😀'.repeat(24001) }]);
  expect(Array.from(text)).toHaveLength(24000);
  expect(text.endsWith('😀')).toBe(true);
});

test('cutCodePoints() returns short strings unchanged', () => {
  expect(cutCodePoints('abc', 3)).toBe('abc');
  expect(cutCodePoints('a😀b', 2)).toBe('a😀');
});
