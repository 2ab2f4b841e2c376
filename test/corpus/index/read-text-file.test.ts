import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_FILE_BYTES, readTextFile } from '../../../src/corpus/index/read-text-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'corpus-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('readTextFile()', () => {
  test('returns the text with CRLF and CR turned into LF, the BOM dropped, the mtime and the size', async () => {
    const path = file('a.md', '\uFEFFone\r\ntwo\rthree');
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect(await readTextFile(path)).toEqual({ kind: 'text', text: 'one\ntwo\nthree', mtimeMs: 1_700_000_000_000, bytes: 17 });
  });

  test('skips a file containing U+0000 or invalid UTF-8 as binary', async () => {
    expect(await readTextFile(file('nul.txt', 'text\u0000more'))).toEqual({ kind: 'binary' });
    expect(await readTextFile(file('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9])))).toEqual({ kind: 'binary' });
  });

  test('a file that cannot be read (gone, or a folder where a file was listed) is unreadable, not an exception', async () => {
    expect(await readTextFile(join(dir, 'removed-meanwhile.md'))).toEqual({ kind: 'unreadable' });
    expect(await readTextFile(dir)).toEqual({ kind: 'unreadable' });
  });

  test('accepts exactly 1 MiB and skips one byte more as oversize', async () => {
    expect((await readTextFile(file('max.txt', 'a'.repeat(MAX_FILE_BYTES)))).kind).toBe('text');
    expect(await readTextFile(file('big.txt', 'a'.repeat(MAX_FILE_BYTES + 1)))).toEqual({ kind: 'oversize' });
  });
});
