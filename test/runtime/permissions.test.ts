import { describe, expect, test } from 'bun:test';
import { missingPermission, permissionMessage } from '../../src/runtime/permissions.ts';

// Under Deno the check is exercised by test/runtime/deno.test.ts and test/cli/corpus.test.ts.
describe('missingPermission()', () => {
  test('finds nothing missing outside Deno', async () => {
    expect(await missingPermission([{ name: 'write', target: '/' }, { name: 'run' }])).toBeUndefined();
  });
});

describe('permissionMessage()', () => {
  test('gives the spec sentence for each permission', () => {
    expect(permissionMessage('write')).toBe('This command needs the Deno permission --allow-write.');
    expect(permissionMessage('run')).toBe('This command needs the Deno permission --allow-run.');
  });
});
