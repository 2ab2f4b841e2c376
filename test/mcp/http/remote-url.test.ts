// isRemoteUrl(): the URL rule of remote.md §1.1.
import { describe, expect, test } from 'bun:test';
import { isRemoteUrl } from '../../../src/mcp/http/remote-url.ts';

describe('isRemoteUrl()', () => {
  test('accepts https anywhere and http on the three loopback names, with or without a path', () => {
    for (const url of [
      'https://context.example.com/mcp',
      'https://issuer.example.com/tenant/v2',
      'https://idp.example.com',
      'http://localhost:8788/mcp',
      'http://127.0.0.1/jwks.json',
      'http://[::1]:9000/mcp',
      'http://LOCALHOST/mcp',
    ]) {
      expect(isRemoteUrl(url)).toBe(true);
    }
  });

  test('refuses plain http elsewhere, credentials, a query or fragment (even empty), and non-URLs', () => {
    for (const url of [
      'http://context.example.com/mcp',
      'http://127.0.0.2/mcp',
      'http://[::2]/mcp',
      'http://localhost.example.com/mcp',
      'https://user:pass@context.example.com/mcp',
      'https://user@context.example.com/mcp',
      'https://context.example.com/mcp?x=1',
      'https://context.example.com/mcp?',
      'https://context.example.com/mcp#frag',
      'https://context.example.com/mcp#',
      'ftp://context.example.com/mcp',
      '/mcp',
      '',
      'context.example.com/mcp',
    ]) {
      expect(isRemoteUrl(url)).toBe(false);
    }
  });
});
