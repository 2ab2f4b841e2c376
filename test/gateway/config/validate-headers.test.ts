import { expect, test } from 'bun:test';
import { validateHeaders } from '../../../src/gateway/config/validate-headers.ts';

test('validateHeaders() lowercases names and keeps values and ${VAR} references as written', () => {
  expect(validateHeaders({ 'X-Api-Key': 'literal', Authorization: '${TOKEN_1}' })).toEqual({ 'x-api-key': 'literal', authorization: '${TOKEN_1}' });
  expect(validateHeaders(undefined)).toEqual({});
});

test('validateHeaders() accepts 16 headers and names of 80 characters', () => {
  const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`h${index}`, 'v']));
  expect(Object.keys(validateHeaders(sixteen))).toHaveLength(16);
  expect(validateHeaders({ ['a'.repeat(80)]: 'v' })).toEqual({ ['a'.repeat(80)]: 'v' });
});

test('validateHeaders() rejects every reserved transport header', () => {
  for (const name of ['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
    expect(() => validateHeaders({ [name.toUpperCase()]: 'v' })).toThrow('Frontend MCP contains an invalid header.');
  }
});

test('validateHeaders() never puts a header value in a message', () => {
  try {
    validateHeaders({ 'x-a': 'canary ${X}' });
  } catch (error) {
    expect((error as Error).message).toBe('Frontend MCP header x-a must be a literal value or exactly one ${VARIABLE} reference.');
  }
});
