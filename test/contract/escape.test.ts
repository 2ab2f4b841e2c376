// Angle-bracket escaping (profile-v1.md §5.2): `<` → `\u003c`, `>` → `\u003e`, lowercase
// hex, and the text stays valid JSON that parses back to the same value.
import { describe, expect, test } from 'bun:test';
import { escapeAngleBrackets, stringifyEscaped } from '../../src/contract/escape.ts';

describe('escapeAngleBrackets()', () => {
  test('replaces every angle bracket with its lowercase six-character escape', () => {
    const json = JSON.stringify({ content: '<script>alert(1)</script> a>b<c' });
    const escaped = escapeAngleBrackets(json);
    expect(escaped).not.toMatch(/[<>]/);
    expect(escaped).toContain('\\u003cscript\\u003e');
    expect(escaped).not.toMatch(/\\u003[CE]/);
    expect(escaped.length).toBe(json.length + 5 * 6); // six brackets, five extra units each
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
  });

  test('leaves text without angle brackets unchanged', () => {
    const json = JSON.stringify({ a: '"quoted" \\ \u2028 🙂' });
    expect(escapeAngleBrackets(json)).toBe(json);
  });

  test('escapes brackets next to an escaped backslash so the JSON still parses to the same string', () => {
    const value = { s: '\\<\\>' };
    const escaped = escapeAngleBrackets(JSON.stringify(value));
    expect(escaped).toBe('{"s":"\\\\\\u003c\\\\\\u003e"}');
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

describe('stringifyEscaped()', () => {
  test('is compact JSON.stringify followed by escaping', () => {
    expect(stringifyEscaped({ a: ['<b>'] })).toBe('{"a":["\\u003cb\\u003e"]}');
  });

  test('indents when a space count is given and stays valid JSON', () => {
    const text = stringifyEscaped({ a: '<x>' }, 2);
    expect(text).toBe('{\n  "a": "\\u003cx\\u003e"\n}');
    expect(JSON.parse(text)).toEqual({ a: '<x>' });
  });
});
