// decodeDirectImport(): PolarDB's JSON-serialized message list (providers.md §5.5).
import { describe, expect, test } from 'bun:test';
import { decodeDirectImport } from '../../src/providers/direct-import.ts';

describe('decodeDirectImport()', () => {
  test('one user message decodes to its content; other keys are ignored', () => {
    expect(decodeDirectImport('[{"role":"user","content":"Use pnpm."}]')).toBe('Use pnpm.');
    expect(decodeDirectImport('[{"content":"Use pnpm.","role":"user","name":"x"}]')).toBe('Use pnpm.');
  });

  test.each([
    ['plain text', 'Use pnpm.'],
    ['invalid JSON', '[{"role":"user"'],
    ['an object, not an array', '{"role":"user","content":"x"}'],
    ['an empty array', '[]'],
    ['two messages', '[{"role":"user","content":"a"},{"role":"user","content":"b"}]'],
    ['another role', '[{"role":"assistant","content":"x"}]'],
    ['empty content', '[{"role":"user","content":""}]'],
    ['non-string content', '[{"role":"user","content":["x"]}]'],
    ['a non-object element', '["x"]'],
  ])('%s is not the encoding', (_name, value) => {
    expect(decodeDirectImport(value)).toBeUndefined();
  });
});
