import { expect, test } from 'bun:test';
import { resolveHeaders } from '../../../src/gateway/config/resolve-headers.ts';

test('resolveHeaders() replaces only exact references and keeps literal values', () => {
  expect(resolveHeaders({ authorization: '${TOKEN}', 'x-static': 'plain' }, { TOKEN: 'Bearer canary' })).toEqual({
    authorization: 'Bearer canary',
    'x-static': 'plain',
  });
});

test('resolveHeaders() accepts 8192 characters and rejects 8193 without the value in the message', () => {
  expect(resolveHeaders({ a: '${T}' }, { T: 'c'.repeat(8192) })['a']).toHaveLength(8192);
  expect(() => resolveHeaders({ a: '${T}' }, { T: 'c'.repeat(8193) })).toThrow('Frontend MCP environment variable is too long: T');
});

test('resolveHeaders() never finds names through the prototype', () => {
  expect(() => resolveHeaders({ a: '${__PROTO__}' }, {})).toThrow('Frontend MCP environment variable is missing: __PROTO__');
  expect(() => resolveHeaders({ a: '${TOSTRING}' }, Object.create({ TOSTRING: 'x' }))).toThrow('missing: TOSTRING');
});

test('resolveHeaders() rejects a value with a tab or other control character', () => {
  expect(() => resolveHeaders({ a: '${T}' }, { T: 'canary\tx' })).toThrow('Frontend MCP contains an invalid header.');
});
