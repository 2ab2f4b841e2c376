import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, sqliteSupported } from '../../src/runtime/sqlite.ts';
import { loadSqliteBun } from '../../src/runtime/sqlite-bun.ts';
import { loadSqliteNode } from '../../src/runtime/sqlite-node.ts';
import type { OpenSqliteFunction } from '../../src/runtime/sqlite-types.ts';

const dir = mkdtempSync(join(tmpdir(), 'runtime-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqliteSupported()', () => {
  test('is true for Bun and Deno whatever the Node.js version', () => {
    expect(sqliteSupported('bun', [0, 0, 0])).toBe(true);
    expect(sqliteSupported('deno', [0, 0, 0])).toBe(true);
  });

  test('is false on Node.js 20 and before 22.13, true from 22.13 (and 23.4, 24)', () => {
    const cases: [[number, number, number], boolean][] = [
      [[20, 3, 0], false],
      [[20, 19, 5], false],
      [[22, 12, 0], false],
      [[22, 13, 0], true],
      [[23, 3, 0], false],
      [[23, 4, 0], true],
      [[24, 0, 0], true],
    ];
    for (const [version, supported] of cases) expect(sqliteSupported('node', version)).toBe(supported);
  });

  test('is true for the running Bun', () => {
    expect(sqliteSupported()).toBe(true);
  });
});

// bun:sqlite is what Bun uses; Bun also implements node:sqlite, so the module Deno and
// Node.js use runs here too.
const LOADERS: [string, () => Promise<OpenSqliteFunction>][] = [
  ['bun:sqlite', loadSqliteBun],
  ['node:sqlite', loadSqliteNode],
];

for (const [name, load] of LOADERS) {
  describe(`${name} adapter`, () => {
    test('creates a file with FTS5, binds ? parameters, and reopens it read-only', async () => {
      const open = await load();
      const path = join(dir, `${name.replace(':', '-')}.sqlite`);
      const db = open(path, { readonly: false });
      db.exec("CREATE VIRTUAL TABLE t USING fts5(a, tokenize = 'porter unicode61 remove_diacritics 2')");
      db.prepare('INSERT INTO t VALUES (?)').run('Installing café tools');
      db.close();
      const ro = open(path, { readonly: true });
      expect(
        ro
          .prepare('SELECT a, bm25(t) < 0 AS hit FROM t WHERE t MATCH ?')
          .all('"install" OR "cafe"')
          .map((row) => ({ ...row })),
      ).toEqual([{ a: 'Installing café tools', hit: 1 }]);
      expect(() => ro.exec("INSERT INTO t VALUES ('x')")).toThrow();
      ro.close();
    });

    test('refuses to open a missing file read-only', async () => {
      const open = await load();
      expect(() => open(join(dir, 'missing.sqlite'), { readonly: true })).toThrow();
    });
  });
}

describe('openSqlite()', () => {
  test("opens with the running runtime's SQLite", async () => {
    const db = await openSqlite(':memory:', { readonly: false });
    expect(db.prepare('SELECT 1 + ? AS two').all(1)).toEqual([{ two: 2 }]);
    db.close();
  });
});
