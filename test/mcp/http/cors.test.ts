// checkOrigin(), preflightResponse() and withHeaders(): remote.md §1.5 step 2.
import { describe, expect, test } from 'bun:test';
import { checkOrigin, preflightResponse, withHeaders } from '../../../src/mcp/http/cors.ts';

const ALLOWED = new Set(['https://app.example.com', 'http://localhost:3000']);

describe('checkOrigin()', () => {
  test('no Origin passes without CORS headers', () => {
    expect(checkOrigin(null, ALLOWED)).toEqual({ kind: 'none' });
  });

  test('an allowed origin (lowercased) passes with the three CORS headers echoing the value as sent', () => {
    expect(checkOrigin('https://APP.example.com', ALLOWED)).toEqual({
      kind: 'allowed',
      origin: 'https://APP.example.com',
      headers: { 'access-control-allow-origin': 'https://APP.example.com', vary: 'Origin', 'access-control-expose-headers': 'WWW-Authenticate' },
    });
  });

  test('anything else is refused: null, another port, a trailing slash, an empty list', () => {
    for (const origin of ['null', 'https://app.example.com:444', 'https://app.example.com/', 'http://app.example.com', '']) {
      expect(checkOrigin(origin, ALLOWED)).toEqual({ kind: 'refused' });
    }
    expect(checkOrigin('https://app.example.com', new Set())).toEqual({ kind: 'refused' });
  });
});

describe('preflightResponse()', () => {
  test('is 204 with the method, the allowed request headers and max-age 600', () => {
    const response = preflightResponse({ 'access-control-allow-origin': 'https://app.example.com' }, 'GET');
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(Object.fromEntries(response.headers)).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version',
      'access-control-max-age': '600',
    });
  });
});

describe('withHeaders()', () => {
  test('keeps status and body, adds headers, and returns the same response when there are none', async () => {
    const original = new Response('{"a":1}', { status: 202, headers: { 'content-type': 'application/json' } });
    expect(withHeaders(original, {})).toBe(original);
    const copy = withHeaders(new Response('{"a":1}', { status: 202, headers: { 'content-type': 'application/json' } }), { vary: 'Origin' });
    expect(copy.status).toBe(202);
    expect(copy.headers.get('content-type')).toBe('application/json');
    expect(copy.headers.get('vary')).toBe('Origin');
    expect(await copy.text()).toBe('{"a":1}');
  });
});
