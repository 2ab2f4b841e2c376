// textResult(): the text-only tool result, with `isError` present only when true.
import { describe, expect, test } from 'bun:test';
import { textResult } from '../../src/mcp/tool.ts';

describe('textResult()', () => {
  test('builds one text block without an isError key by default', () => {
    expect(textResult('hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(Object.keys(textResult('hello'))).toEqual(['content']);
  });

  test('sets isError: true when asked', () => {
    expect(textResult('Search query must not be empty.', true)).toEqual({
      content: [{ type: 'text', text: 'Search query must not be empty.' }],
      isError: true,
    });
  });
});
