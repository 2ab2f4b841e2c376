// SQLite under Bun: bun:sqlite, imported with a non-literal specifier so src/ type-checks and
// bundles without bun-types.
import type { LoadSqliteFunction, SqliteDatabase, SqliteOpenOptions, SqliteValue } from './sqlite-types.ts';

interface BunStatement {
  all(...params: SqliteValue[]): Record<string, unknown>[];
  run(...params: SqliteValue[]): unknown;
}

interface BunDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): BunStatement;
  close(): void;
}

interface BunSqliteModule {
  Database: new (path: string, options: { readonly?: boolean; readwrite?: boolean; create?: boolean }) => BunDatabase;
}

const BUN_SQLITE = 'bun:sqlite';

/**
 * Loads `bun:sqlite` and returns a function that opens a database with it.
 *
 * @see sqlite.ts for the contract.
 */
export const loadSqliteBun: LoadSqliteFunction = async () => {
  const { Database } = (await import(BUN_SQLITE)) as BunSqliteModule;
  return (path: string, options: SqliteOpenOptions): SqliteDatabase => {
    const db = options.readonly ? new Database(path, { readonly: true }) : new Database(path, { readwrite: true, create: true });
    return {
      exec: (sql) => void db.exec(sql),
      prepare: (sql) => {
        const statement = db.prepare(sql);
        return { all: (...params) => statement.all(...params), run: (...params) => void statement.run(...params) };
      },
      close: () => db.close(),
    };
  };
};
