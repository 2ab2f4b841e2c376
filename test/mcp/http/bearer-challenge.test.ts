// authFailureResponse() and bearerToken(): the exact answers of remote.md §1.6.
import { describe, expect, test } from 'bun:test';
import { authFailureResponse, bearerToken } from '../../../src/mcp/http/bearer-challenge.ts';

const M = 'https://context.example.com/.well-known/oauth-protected-resource/mcp';

describe('authFailureResponse()', () => {
  test('each failure has the exact status, WWW-Authenticate and body of the table', async () => {
    const cases = [
      ['no-credential', 401, `Bearer resource_metadata="${M}", scope="context.read"`, '{"error":"unauthorized"}'],
      ['invalid-token', 401, `Bearer error="invalid_token", resource_metadata="${M}", scope="context.read"`, '{"error":"invalid_token"}'],
      ['insufficient-scope', 403, `Bearer error="insufficient_scope", resource_metadata="${M}", scope="context.read"`, '{"error":"insufficient_scope"}'],
      ['jwks-unavailable', 503, null, '{"error":"temporarily_unavailable"}'],
    ] as const;
    for (const [failure, status, challenge, body] of cases) {
      const response = authFailureResponse(failure, M, 'context.read', { vary: 'Origin' });
      expect(response.status).toBe(status);
      expect(response.headers.get('www-authenticate')).toBe(challenge);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('vary')).toBe('Origin');
      expect(response.headers.get('retry-after')).toBe(failure === 'jwks-unavailable' ? '30' : null);
      expect(await response.text()).toBe(body);
    }
  });
});

describe('bearerToken()', () => {
  test('takes the token after a case-insensitive Bearer scheme', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('BEARER abc def')).toBe('abc def');
  });

  test('gives undefined for no header, another scheme or no token', () => {
    for (const header of [null, '', 'Basic dXNlcg==', 'Bearer', 'Bearer    ', 'Bearerabc', 'Token abc']) {
      expect(bearerToken(header)).toBeUndefined();
    }
  });
});
