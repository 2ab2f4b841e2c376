// readConfigJson(): a regular file of at most 65536 bytes, strict UTF-8 with one optional
// BOM, JSON; messages never contain the path or content (config.md §3).
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/config-error.ts';
import { MAX_CONFIG_BYTES, readConfigJson } from '../../src/config/read-file.ts';
import { rejectionOf } from '../support/thrown-error.ts';
import { createTempConfigDir } from './temp-config.ts';

const NOT_A_FILE = 'External context config is not a valid file.';
const UNREADABLE = 'External context config could not be read.';
const NOT_JSON = 'External context config is not valid JSON.';

const temp = createTempConfigDir('ec-read-file-');
afterAll(() => temp.remove());

async function failure(file: string): Promise<ConfigError> {
  const configError = await rejectionOf(ConfigError, readConfigJson(file));
  expect(configError.message).not.toContain(file);
  expect(configError.message).not.toContain(temp.dir);
  return configError;
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
    expect((await failure(temp.write(jsonOfSize(65537)))).message).toBe(NOT_A_FILE);
  });

  test('readConfigJson() rejects a directory as not a valid file', async () => {
    expect((await failure(temp.mkdir('a-directory.json'))).message).toBe(NOT_A_FILE);
  });

  test('readConfigJson() follows a symlink to a file and rejects one to a directory', async () => {
    const target = temp.write({ version: 2 });
    const link = path.join(temp.dir, 'link-to-file.json');
    symlinkSync(target, link);
    expect(await readConfigJson(link)).toEqual({ version: 2 });
    const dirLink = path.join(temp.dir, 'link-to-dir.json');
    symlinkSync(temp.mkdir('linked-dir'), dirLink);
    expect((await failure(dirLink)).message).toBe(NOT_A_FILE);
  });

  test('readConfigJson() reports a missing file or a dangling symlink as unreadable', async () => {
    expect((await failure(path.join(temp.dir, 'missing.json'))).message).toBe(UNREADABLE);
    const dangling = path.join(temp.dir, 'dangling.json');
    symlinkSync(path.join(temp.dir, 'nowhere.json'), dangling);
    expect((await failure(dangling)).message).toBe(UNREADABLE);
    expect((await failure(path.join(temp.write('{}', 'plain-file'), 'below-a-file.json'))).message).toBe(UNREADABLE);
  });

  test('readConfigJson() reports a file it may not read as unreadable', async () => {
    const file = temp.write({ version: 1 }, 'no-permission.json');
    chmodSync(file, 0o000);
    try {
      // Root reads every file; the rule can only be observed as another user.
      if (typeof process.getuid === 'function' && process.getuid() === 0) return;
      expect((await failure(file)).message).toBe(UNREADABLE);
    } finally {
      chmodSync(file, 0o600);
    }
  });

  test('readConfigJson() rejects invalid UTF-8 as not valid JSON', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"version":1,"x":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}')]);
    expect((await failure(temp.write(bytes))).message).toBe(NOT_JSON);
    // A lone surrogate encoded as CESU bytes is invalid UTF-8 too.
    const surrogate = new Uint8Array([...new TextEncoder().encode('{"x":"'), 0xed, 0xa0, 0x80, ...new TextEncoder().encode('"}')]);
    expect((await failure(temp.write(surrogate))).message).toBe(NOT_JSON);
  });

  test('readConfigJson() accepts one leading byte-order mark and rejects a second one', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const json = new TextEncoder().encode('{"version":1}');
    expect(await readConfigJson(temp.write(new Uint8Array([...bom, ...json])))).toEqual({ version: 1 });
    expect((await failure(temp.write(new Uint8Array([...bom, ...bom, ...json])))).message).toBe(NOT_JSON);
  });

  test('readConfigJson() rejects text that is not JSON, without a parser message', async () => {
    for (const text of ['', '{', '{"version":1,}', "{'version':1}", '// comment\n{}', 'CANARY-not-json']) {
      const error = await failure(temp.write(text));
      expect(error.message).toBe(NOT_JSON);
      expect(error.message).not.toContain('CANARY');
    }
  });
});
