import { expect, test } from 'bun:test';
import { validateServer } from '../../../src/gateway/config/validate-server.ts';

test('validateServer() resolves headers of an enabled server only', () => {
  const raw = { enabled: true, url: 'https://e.com/mcp', headers: { 'X-Key': '${K}' } };
  expect(validateServer('s', raw, { K: 'canary' }).transport.headers).toEqual({ 'x-key': 'canary' });
  expect(validateServer('s', { ...raw, enabled: false }, {}).transport.headers).toEqual({ 'x-key': '${K}' });
});

test('validateServer() checks the URL before the timeouts and the headers', () => {
  expect(() => validateServer('s', { url: 'nope', connectTimeoutMs: 1, headers: [] }, {})).toThrow('Frontend MCP URL is invalid.');
  expect(() => validateServer('s', { url: 'https://e.com/', connectTimeoutMs: 1, headers: [] }, {})).toThrow('100-30000');
});

test('validateServer() treats non-object headers as headers for the loopback HTTP rule', () => {
  expect(() => validateServer('s', { url: 'http://127.0.0.1/', headers: 'x' }, {})).toThrow('Remote Frontend MCP requires HTTPS');
  expect(validateServer('s', { url: 'http://127.0.0.1/', headers: {} }, {}).transport.url).toBe('http://127.0.0.1/');
});
