import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { chunkText, MAX_CHUNK_CODE_POINTS } from '../../../src/corpus/index/chunk-text.ts';

const codePoints = (text: string): number => [...text].length;

describe('chunkText()', () => {
  test('packs short paragraphs into one chunk joined by a blank line', () => {
    expect(chunkText('one\n\n\n two\n  \nthree  ')).toEqual(['one\n\n two\n\nthree']);
  });

  test('starts a new chunk when the next paragraph would pass the limit', () => {
    const a = 'a'.repeat(600);
    const b = 'b'.repeat(600);
    expect(chunkText(`${a}\n\n${b}`)).toEqual([a, b]);
  });

  test('splits an oversized paragraph at lines, then spaces, then between code points', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n');
    const chunks = chunkText(lines);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('\n')).toBe(lines);
    const word = '😀'.repeat(2500);
    const pieces = chunkText(word);
    expect(pieces.map(codePoints)).toEqual([1000, 1000, 500]);
    expect(pieces.join('')).toBe(word);
  });

  test('returns no chunk for blank text', () => {
    expect(chunkText(' \n\n\t\n')).toEqual([]);
  });

  test('every chunk has at most 1000 code points and no text is lost (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 1500 }), fc.constantFrom('\n', '\n\n', ' ')), { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        const chunks = chunkText(text);
        for (const chunk of chunks) {
          expect(codePoints(chunk)).toBeLessThanOrEqual(MAX_CHUNK_CODE_POINTS);
          expect(chunk.trim()).not.toBe('');
        }
        expect(chunks.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
      { numRuns: 200 },
    );
  });
});
