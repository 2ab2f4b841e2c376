import { expect, test } from 'bun:test';
import { validateServerUrl } from '../../../src/gateway/config/validate-server-url.ts';

const HTTPS = 'Remote Frontend MCP requires HTTPS; local HTTP cannot carry headers.';

test('validateServerUrl() accepts IPv6 loopback http://[::1] without headers (improvement 1)', () => {
  expect(validateServerUrl('http://[::1]:8123/mcp', false)).toBe('http://[::1]:8123/mcp');
  expect(() => validateServerUrl('http://[::1]:8123/mcp', true)).toThrow(HTTPS);
  expect(() => validateServerUrl('http://[::2]:8123/mcp', false)).toThrow(HTTPS);
});

test('validateServerUrl() never echoes the URL in its messages', () => {
  for (const url of ['https://canary-user:canary-pass@example.com/', 'http://canary.example/', 'canary']) {
    try {
      validateServerUrl(url, false);
      throw new Error('expected an error');
    } catch (error) {
      expect((error as Error).message).not.toContain('canary');
    }
  }
});

test('validateServerUrl() accepts exactly 2048 characters', () => {
  const url = `https://example.com/${'a'.repeat(2048 - 20)}`;
  expect(url).toHaveLength(2048);
  expect(validateServerUrl(url, true)).toBe(url);
  expect(() => validateServerUrl(`${url}a`, true)).toThrow('Frontend MCP URL is invalid.');
});
