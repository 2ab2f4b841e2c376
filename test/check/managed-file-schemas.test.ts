// The host files' shapes check reads (src/check/managed-file-schemas.ts): lenient, own fields only.
import { describe, expect, test } from 'bun:test';
import { HookGroupSchema, HookSchema, isRecord, McpServersFileSchema, QwenSettingsSchema, readShape, ServerEntrySchema, stringArray } from '../../src/check/managed-file-schemas.ts';

describe('readShape()', () => {
  test('readShape() reads a server entry and turns a field of the wrong type into undefined', () => {
    const entry = readShape(ServerEntrySchema, { command: '/usr/local/bin/external-context', args: ['serve', 7], includeTools: ['context_search'], alwaysLoadTools: true, other: 1 });
    expect(entry).toEqual({ command: '/usr/local/bin/external-context', args: undefined, includeTools: ['context_search'], excludeTools: undefined, alwaysLoadTools: true });
  });

  test('readShape() refuses what is not a JSON object: an array, null, a string', () => {
    for (const value of [[], null, 'mcpServers', 1]) expect(readShape(McpServersFileSchema, value)).toBeUndefined();
  });

  test('readShape() never reads an inherited field', () => {
    const inherited = Object.create({ command: '/tmp/evil' }) as object;
    expect(readShape(ServerEntrySchema, inherited)).toBeUndefined();
    expect(readShape(HookSchema, { command: 'external-context hook auto-recall' })?.command).toBe('external-context hook auto-recall');
  });

  test('readShape() reads the Qwen settings fields check compares, each leniently', () => {
    const settings = readShape(QwenSettingsSchema, { permissions: { allow: ['mcp__external-context__context_search'], ask: 'no' }, hooks: [], slashCommands: { disabled: ['cd'] } });
    expect(settings?.permissions?.allow).toEqual(['mcp__external-context__context_search']);
    expect(settings?.permissions?.ask).toBeUndefined();
    expect(settings?.hooks).toBeUndefined();
    expect(settings?.slashCommands?.disabled).toEqual(['cd']);
    expect(readShape(HookGroupSchema, { matcher: 'x', hooks: {} })).toEqual({ matcher: 'x', hooks: undefined });
  });
});

test('isRecord() and stringArray() accept exactly a JSON object and a list of strings', () => {
  expect(isRecord({})).toBe(true);
  expect(isRecord([])).toBe(false);
  expect(isRecord(null)).toBe(false);
  expect(stringArray(['a', 'b'])).toEqual(['a', 'b']);
  expect(stringArray(['a', 1])).toBeUndefined();
  expect(stringArray('a')).toBeUndefined();
});
