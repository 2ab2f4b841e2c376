import { expect, test } from 'bun:test';
import { checkUnknownKeys } from '../../../src/gateway/config/check-unknown-keys.ts';

test('checkUnknownKeys() accepts every defined field and leaves header and tool names alone', () => {
  expect(() =>
    checkUnknownKeys({
      version: 1,
      servers: {
        s: {
          enabled: true, url: 'x', connectTimeoutMs: 1, refreshOnListChanged: false,
          headers: { 'any-name': 'v' },
          tools: { anything: { enabled: true, readOnly: true, approval: 'none', timeoutMs: 1, maxResultBytes: 1, maxCallsPerTurn: 1, description: 'd' } },
        },
      },
    }),
  ).not.toThrow();
});

test('checkUnknownKeys() names the first unknown field by its path and skips objects of the wrong type', () => {
  expect(() => checkUnknownKeys({ version: 1, servers: { s: { tools: { t: { readonly: true } } } } })).toThrow(
    'Frontend MCP configuration contains an unknown field: servers.s.tools.t.readonly',
  );
  expect(() => checkUnknownKeys({ version: 1, servers: { s: 'x', t: { tools: [] } } })).not.toThrow();
});
