// quoteServerValue(): JSON-encoded, cut to 200 code points (remote.md §2.2).
import { describe, expect, test } from 'bun:test';
import { quoteServerValue } from '../../src/conformance/quote-server-value.ts';

describe('quoteServerValue()', () => {
  test('JSON-encodes strings and values, newlines included, on one line', () => {
    expect(quoteServerValue('context_remember')).toBe('"context_remember"');
    expect(quoteServerValue('a\nb')).toBe('"a\\nb"');
    expect(quoteServerValue({ readOnlyHint: true })).toBe('{"readOnlyHint":true}');
    expect(quoteServerValue(undefined)).toBe('undefined');
  });

  test('cuts the encoded value to 200 code points without splitting a surrogate pair', () => {
    expect(quoteServerValue('x'.repeat(500))).toBe(`"${'x'.repeat(199)}`);
    const astral = quoteServerValue('\u{1F642}'.repeat(300));
    expect([...astral].length).toBe(200);
    expect(astral.endsWith('\u{1F642}')).toBe(true);
  });
});
