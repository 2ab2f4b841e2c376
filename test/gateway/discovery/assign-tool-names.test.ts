import { expect, test } from 'bun:test';
import { assignToolNames, baseToolName, hashedToolName, isPlainToolName } from '../../../src/gateway/discovery/assign-tool-names.ts';
import { createHash } from 'node:crypto';

const RESERVED = new Set(['respond_frontend_tool_permission']);

test('assignToolNames() keeps plain names and hashes long or dotted ones', () => {
  const result = assignToolNames([{ serverKey: 'documents', remoteNames: ['search', 'files.read', 'x'.repeat(100)] }], RESERVED);
  expect(result.names.get('documents')).toEqual(['mcp__documents__search', hashedToolName('documents', 'files.read'), hashedToolName('documents', 'x'.repeat(100))]);
  expect(result.failures.size).toBe(0);
});

test('assignToolNames() hashes every tool whose plain names collide, across servers', () => {
  // mcp__a__b__c from server "a" tool "b__c" and from server "a__b" tool "c".
  const result = assignToolNames(
    [
      { serverKey: 'a', remoteNames: ['b__c'] },
      { serverKey: 'a__b', remoteNames: ['c'] },
    ],
    RESERVED,
  );
  expect(result.names.get('a')).toEqual([hashedToolName('a', 'b__c')]);
  expect(result.names.get('a__b')).toEqual([hashedToolName('a__b', 'c')]);
  expect(hashedToolName('a', 'b__c')).not.toBe(hashedToolName('a__b', 'c'));
});

test('assignToolNames() hashes a plain name equal to a reserved host name', () => {
  const result = assignToolNames([{ serverKey: 'x', remoteNames: ['y'] }], new Set([...RESERVED, 'mcp__x__y']));
  expect(result.names.get('x')).toEqual([hashedToolName('x', 'y')]);
});

test("assignToolNames() hashes a plain name equal to another tool's hashed name", () => {
  const hashed = hashedToolName('s', 'a.b');
  // A second tool of the same server whose plain name is exactly that hashed name.
  const twin = hashed.slice('mcp__s__'.length);
  expect(`mcp__s__${twin}`).toBe(hashed);
  const result = assignToolNames([{ serverKey: 's', remoteNames: ['a.b', twin] }], RESERVED);
  expect(result.names.get('s')).toEqual([hashed, hashedToolName('s', twin)]);
  expect(result.failures.size).toBe(0);
});

test('assignToolNames() fails the later server when a hashed name still collides with a reserved one', () => {
  const hashed = hashedToolName('late', 'a.b');
  const result = assignToolNames(
    [
      { serverKey: 'early', remoteNames: ['ok'] },
      { serverKey: 'late', remoteNames: ['a.b'] },
    ],
    new Set([...RESERVED, hashed]),
  );
  expect(result.names.get('early')).toEqual(['mcp__early__ok']);
  expect(result.failures.get('late')).toBe(`Duplicate Frontend MCP tool name: ${hashed}`);
});

test('assignToolNames() never lets respond_frontend_tool_permission be a gateway tool name', () => {
  const result = assignToolNames([{ serverKey: 's', remoteNames: ['t'] }], RESERVED);
  expect([...result.names.values()].flat()).not.toContain('respond_frontend_tool_permission');
});

test('baseToolName() builds mcp__<server>__<tool> and isPlainToolName() accepts it up to 64 characters', () => {
  expect(baseToolName('documents', 'search')).toBe('mcp__documents__search');
  expect(isPlainToolName('mcp__documents__search')).toBe(true);
  expect(isPlainToolName(`mcp__d__${'x'.repeat(56)}`)).toBe(true);
  expect(isPlainToolName(`mcp__d__${'x'.repeat(57)}`)).toBe(false);
  expect(isPlainToolName('mcp__d__a.b')).toBe(false);
});

test('hashedToolName() sanitizes, cuts to 55 and appends 8 hex of SHA-256(server NUL tool)', () => {
  const digest = createHash('sha256').update('documents\u0000files/search.v2').digest('hex').slice(0, 8);
  expect(hashedToolName('documents', 'files/search.v2')).toBe(`mcp__documents__files_search_v2_${digest}`);
  const long = hashedToolName('documents', 'x'.repeat(128));
  expect(long).toHaveLength(64);
  expect(long).toMatch(/^[A-Za-z0-9_-]{55}_[0-9a-f]{8}$/);
  expect(hashedToolName('documents', 'x'.repeat(128))).toBe(long);
});
