// parseHeader(): `--header "Name: value"` of remote.md §2.1.
import { describe, expect, test } from 'bun:test';
import { parseHeader } from '../../src/conformance/parse-header.ts';

describe('parseHeader()', () => {
  test('splits at the first colon and trims the value', () => {
    expect(parseHeader('Authorization: Bearer a:b:c ')).toEqual({ ok: true, name: 'Authorization', value: 'Bearer a:b:c' });
    expect(parseHeader('X-Empty:')).toEqual({ ok: true, name: 'X-Empty', value: '' });
  });

  test('refuses a missing colon, an invalid name and a value with CR or LF', () => {
    for (const text of ['Authorization Bearer x', ': x', 'Bad Name: x', ' Authorization: x', 'Na\u00efve: x', 'X: a\r\nInjected: b']) {
      expect(parseHeader(text)).toEqual({ ok: false, reason: 'form' });
    }
  });

  test('refuses every transport header in any case', () => {
    for (const name of ['host', 'Content-Length', 'CONTENT-TYPE', 'accept', 'Connection', 'transfer-encoding', 'Mcp-Session-Id', 'mcp-protocol-version', 'Last-Event-ID']) {
      expect(parseHeader(`${name}: x`)).toEqual({ ok: false, reason: 'transport' });
    }
  });
});
