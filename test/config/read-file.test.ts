// readConfigJson(): a regular file of at most 65536 bytes, strict UTF-8 with one optional
// BOM, JSON; messages name the file and why (a fixed cause, or a line and column), never the
// content or a parser message (config.md §3).
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/config-error.ts';
import { MAX_CONFIG_BYTES, readConfigJson } from '../../src/config/read-file.ts';
import { rejectionOf } from '../support/thrown-error.ts';
import { createTempConfigDir } from './temp-config.ts';

const NOT_A_FILE = (file: string, why: string): string => `External context config is not a valid file: ${file}: ${why}.`;
const UNREADABLE = (file: string, why: string): string => `External context config could not be read: ${file}: ${why}.`;
const NOT_JSON = (file: string, why: string): string => `External context config is not valid JSON: ${file}: ${why}.`;

const temp = createTempConfigDir('ec-read-file-');
afterAll(() => temp.remove());

async function failure(file: string): Promise<ConfigError> {
  return rejectionOf(ConfigError, readConfigJson(file));
}

/** A JSON text of exactly `bytes` bytes: an object padded with trailing spaces. */
function jsonOfSize(bytes: number): string {
  const body = '{"version":1}';
  return body + ' '.repeat(bytes - body.length);
}

describe('readConfigJson()', () => {
  test('readConfigJson() parses a JSON file', async () => {
    expect(await readConfigJson(temp.write({ version: 1, nested: { a: [1, 'x'] } }))).toEqual({ version: 1, nested: { a: [1, 'x'] } });
  });

  test('readConfigJson() returns non-object JSON for the schema to judge', async () => {
    expect(await readConfigJson(temp.write('[1,2]'))).toEqual([1, 2]);
    expect(await readConfigJson(temp.write('null'))).toBeNull();
  });

  test(`readConfigJson() accepts exactly ${MAX_CONFIG_BYTES} bytes and rejects 65537 bytes`, async () => {
    expect(MAX_CONFIG_BYTES).toBe(65536);
    expect(await readConfigJson(temp.write(jsonOfSize(65536)))).toEqual({ version: 1 });
    const big = temp.write(jsonOfSize(65537));
    expect((await failure(big)).message).toBe(NOT_A_FILE(big, 'larger than 64 KiB'));
  });

  test('readConfigJson() rejects a directory as not a valid file', async () => {
    const dir = temp.mkdir('a-directory.json');
    expect((await failure(dir)).message).toBe(NOT_A_FILE(dir, 'is a directory'));
  });

  test('readConfigJson() follows a symlink to a file and rejects one to a directory', async () => {
    const target = temp.write({ version: 2 });
    const link = path.join(temp.dir, 'link-to-file.json');
    symlinkSync(target, link);
    expect(await readConfigJson(link)).toEqual({ version: 2 });
    const dirLink = path.join(temp.dir, 'link-to-dir.json');
    symlinkSync(temp.mkdir('linked-dir'), dirLink);
    expect((await failure(dirLink)).message).toBe(NOT_A_FILE(dirLink, 'is a directory'));
  });

  test('readConfigJson() reports a missing file or a dangling symlink as unreadable', async () => {
    const missing = path.join(temp.dir, 'missing.json');
    expect((await failure(missing)).message).toBe(UNREADABLE(missing, 'not found'));
    const dangling = path.join(temp.dir, 'dangling.json');
    symlinkSync(path.join(temp.dir, 'nowhere.json'), dangling);
    expect((await failure(dangling)).message).toBe(UNREADABLE(dangling, 'not found'));
    const below = path.join(temp.write('{}', 'plain-file'), 'below-a-file.json');
    expect((await failure(below)).message).toBe(UNREADABLE(below, 'not found (a parent is not a directory)'));
  });

  test('readConfigJson() reports a file it may not read as unreadable', async () => {
    const file = temp.write({ version: 1 }, 'no-permission.json');
    chmodSync(file, 0o000);
    try {
      // Root reads every file; the rule can only be observed as another user.
      if (typeof process.getuid === 'function' && process.getuid() === 0) return;
      expect((await failure(file)).message).toBe(UNREADABLE(file, 'permission denied'));
    } finally {
      chmodSync(file, 0o600);
    }
  });

  test('readConfigJson() rejects invalid UTF-8 as not valid JSON', async () => {
    const bytes = temp.write(new Uint8Array([...new TextEncoder().encode('{"version":1,"x":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]));
    expect((await failure(bytes)).message).toBe(NOT_JSON(bytes, 'not UTF-8'));
    // A lone surrogate encoded as CESU bytes is invalid UTF-8 too.
    const surrogate = temp.write(new Uint8Array([...new TextEncoder().encode('{"x":"'), 0xed, 0xa0, 0x80, ...new TextEncoder().encode('"}')]));
    expect((await failure(surrogate)).message).toBe(NOT_JSON(surrogate, 'not UTF-8'));
  });

  test('readConfigJson() accepts one leading byte-order mark and rejects a second one', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const json = new TextEncoder().encode('{"version":1}');
    expect(await readConfigJson(temp.write(new Uint8Array([...bom, ...json])))).toEqual({ version: 1 });
    const twice = temp.write(new Uint8Array([...bom, ...bom, ...json]));
    expect((await failure(twice)).message).toBe(NOT_JSON(twice, 'line 1, column 1'));
  });

  test('readConfigJson() rejects text that is not JSON with the line and column, without a parser message or content', async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['', 'line 1, column 1'],
      ['{', 'line 1, column 2'],
      ['{"version":1,}', 'line 1, column 14'],
      ["{'version':1}", 'line 1, column 2'],
      ['// comment\n{}', 'line 1, column 1'],
      ['CANARY-not-json', 'line 1, column 1'],
      ['{\n  "version": 1\n  "provider": {}\n}', 'line 3, column 3'],
      ['{\n  "a": "é€😀", "b": tru\n}', 'line 2, column 23'],
      ['[1] x', 'line 1, column 5'],
    ];
    for (const [text, where] of cases) {
      const file = temp.write(text);
      const error = await failure(file);
      expect(error.message).toBe(NOT_JSON(file, where));
      expect(error.message).not.toContain('CANARY');
    }
  });

  test('readConfigJson() shows control characters in the path as escapes', async () => {
    const dir = temp.mkdir('line\nbreak');
    const missing = path.join(dir, 'c.json');
    expect((await failure(missing)).message).toBe(UNREADABLE(missing.replace('\n', '\\u000a'), 'not found'));
  });
});
