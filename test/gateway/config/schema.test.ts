// The field schemas of the Frontend MCP configuration (frontend-mcp.md §2.3): URL, headers and integer
// policy values, driven through validateServer() and validateToolPolicy(), which run them in order.
import { expect, test } from 'bun:test';
import { validateServer, validateToolPolicy } from '../../../src/gateway/config/validate-config.ts';
import { thrownBy } from '../../support/thrown-error.ts';

const HTTPS = 'Remote Frontend MCP requires HTTPS; local HTTP cannot carry headers.';

/** The normalized URL of a disabled server with `url` and, when asked, one literal header. */
function serverUrl(url: string, withHeaders: boolean): string {
  return validateServer('s', withHeaders ? { url, headers: { 'x-a': 'v' } } : { url }, {}).transport.url;
}

/** The headers of a disabled server, as written (`${VAR}` is not resolved). */
function headersOf(headers: unknown): Readonly<Record<string, string>> {
  return validateServer('s', headers === undefined ? { url: 'https://e.com/' } : { url: 'https://e.com/', headers }, {}).transport.headers;
}

/** `maxCallsPerTurn` (1–4, default 2) of an enabled read-only tool. */
function maxCalls(value: unknown): number {
  return validateToolPolicy('s', 't', value === undefined ? { enabled: true, readOnly: true } : { enabled: true, readOnly: true, maxCallsPerTurn: value }).maxCallsPerTurn;
}

test('the URL schema accepts IPv6 loopback http://[::1] without headers (improvement 1)', () => {
  expect(serverUrl('http://[::1]:8123/mcp', false)).toBe('http://[::1]:8123/mcp');
  expect(() => serverUrl('http://[::1]:8123/mcp', true)).toThrow(HTTPS);
  expect(() => serverUrl('http://[::2]:8123/mcp', false)).toThrow(HTTPS);
});

test('the URL schema never echoes the URL in its messages', () => {
  // Each URL must be refused: thrownBy() fails the test when the call returns, which a
  // try/catch around its own "expected an error" could not (issue 25 §5).
  for (const url of ['https://canary-user:canary-pass@example.com/', 'http://canary.example/', 'canary']) {
    const error = thrownBy(Error, () => serverUrl(url, false));
    expect({ url, message: error.message }).toEqual({ url, message: expect.stringMatching(/Frontend MCP /u) });
    expect(error.message).not.toContain('canary');
  }
});

test('the URL schema accepts exactly 2048 characters', () => {
  const url = `https://example.com/${'a'.repeat(2048 - 20)}`;
  expect(url).toHaveLength(2048);
  expect(serverUrl(url, true)).toBe(url);
  expect(() => serverUrl(`${url}a`, true)).toThrow('Frontend MCP URL is invalid.');
});

test('a policy integer is the default when absent and accepts both bounds', () => {
  expect(maxCalls(undefined)).toBe(2);
  expect(maxCalls(1)).toBe(1);
  expect(maxCalls(4)).toBe(4);
});

test('a policy integer never coerces strings, booleans, fractions or null', () => {
  for (const value of ['3', true, 2.5, null, Number.NaN, 5, 0]) {
    expect(() => maxCalls(value)).toThrow('Frontend MCP policy value must be 1-4.');
  }
});

test('the headers schema lowercases names and keeps values and ${VAR} references as written', () => {
  expect(headersOf({ 'X-Api-Key': 'literal', Authorization: '${TOKEN_1}' })).toEqual({ 'x-api-key': 'literal', authorization: '${TOKEN_1}' });
  expect(headersOf(undefined)).toEqual({});
});

test('the headers schema accepts 16 headers and names of 80 characters', () => {
  const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`h${index}`, 'v']));
  expect(Object.keys(headersOf(sixteen))).toHaveLength(16);
  expect(headersOf({ ['a'.repeat(80)]: 'v' })).toEqual({ ['a'.repeat(80)]: 'v' });
});

test('the headers schema rejects every reserved transport header', () => {
  for (const name of ['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
    expect(() => headersOf({ [name.toUpperCase()]: 'v' })).toThrow('Frontend MCP contains an invalid header.');
  }
});

test('the headers schema never puts a header value in a message', () => {
  const error = thrownBy(Error, () => headersOf({ 'x-a': 'canary ${X}' }));
  expect(error.message).toBe('Frontend MCP header x-a must be a literal value or exactly one ${VARIABLE} reference.');
});

test('the headers schema checks each header in file order: a repeated name before a later bad reference', () => {
  expect(() => headersOf({ A: 'x', a: 'y', b: '${bad' })).toThrow('Frontend MCP contains an invalid header.');
  expect(() => headersOf({ b: '${bad', A: 'x', a: 'y' })).toThrow('Frontend MCP header b must be a literal value');
});
