// sanitizeDetail() and stripUnsafe(): the detail text rules of probe.md §2.
import { describe, expect, test } from 'bun:test';
import { MAX_DETAIL_CODE_POINTS, sanitizeDetail, stripUnsafe } from '../../src/probe/sanitize-detail.ts';

const KEY = 'sk-secret-key';

describe('sanitizeDetail()', () => {
  test('collapses whitespace runs to one space and trims the ends', () => {
    expect(sanitizeDetail('  a\n\n b\t\tc\r\n\u00a0d\u2028e  ', KEY)).toBe('a b c d e');
    expect(sanitizeDetail('', KEY)).toBe('');
  });

  test('replaces every occurrence of the credential, also when split by control characters or whitespace', () => {
    expect(sanitizeDetail(`x ${KEY} y ${KEY}`, KEY)).toBe('x [redacted] y [redacted]');
    expect(sanitizeDetail(`sk-secret\u001b-key`, KEY)).toBe('[redacted]');
    expect(sanitizeDetail('a  b', 'a b')).toBe('[redacted]');
  });

  test('redacts the credential as a service echoes it: lowercased, uppercased, a prefix or a suffix of 6 or more', () => {
    const key = 'sk-Live-3F9a2C7e1B0d';
    expect(sanitizeDetail(`invalid api key ${key.toLowerCase()}`, key)).toBe('invalid api key [redacted]');
    expect(sanitizeDetail(`INVALID KEY ${key.toUpperCase()}.`, key)).toBe('INVALID KEY [redacted].');
    expect(sanitizeDetail('key sk-Live-3F9a... is revoked', key)).toBe('key [redacted] is revoked');
    expect(sanitizeDetail('key ending in 7e1B0d is revoked', key)).toBe('key ending in [redacted] is revoked');
    expect(sanitizeDetail(`{"error":"bad token","token":"${key}"}`, key)).not.toContain('3F9a2C');
    // Common short words and unrelated words stay.
    expect(sanitizeDetail('unknown field user_id: not allowed', key)).toBe('unknown field user_id: not allowed');
  });

  test('removes C0, DEL, C1 and Cf characters', () => {
    expect(sanitizeDetail('\u0000a\u0007b\u007fc\u0085d\u009be\u200bf\u202eg\ufeffh\u00adi', KEY)).toBe('abcdefg hi'); // U+FEFF is JS whitespace, so it becomes a space
    expect(sanitizeDetail('a \u0001 b', KEY)).toBe('a b');
  });

  test('cuts to 300 code points, counting astral characters once', () => {
    expect([...sanitizeDetail('😀'.repeat(400), KEY)]).toHaveLength(MAX_DETAIL_CODE_POINTS);
    expect(sanitizeDetail('x'.repeat(300), KEY)).toBe('x'.repeat(300));
    expect(sanitizeDetail(`${'x'.repeat(295)}${KEY}`, KEY)).toBe(`${'x'.repeat(295)}[reda`);
  });
});

describe('stripUnsafe()', () => {
  test('removes control and format characters and the credential, keeping whitespace', () => {
    expect(stripUnsafe(`a\u001b[0m  ${KEY}\u200b`, KEY)).toBe('a[0m  [redacted]');
  });
});
