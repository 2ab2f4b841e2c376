// SQLite under Bun: bun:sqlite, imported with a non-literal specifier so src/ type-checks and
// bundles without bun-types.
import type { LoadSqliteFunction, SqliteDatabase, SqliteOpenOptions, SqliteValue } from './sqlite-types.ts';

interface BunStatement {
  all(...params: SqliteValue[]): Record<string, unknown>[];
  run(...params: SqliteValue[]): unknown;
  finalize(): void;
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
    // bun:sqlite's close() leaves the file open while a prepared statement is not finalized
    // (sqlite3_close_v2), and Windows cannot rename or delete an open file: close() finalizes
    // every statement first (docs/design/providers.md §8.1).
    const statements: BunStatement[] = [];
    return {
      exec: (sql) => void db.exec(sql),
      prepare: (sql) => {
        const statement = db.prepare(sql);
        statements.push(statement);
        return { all: (...params) => statement.all(...params), run: (...params) => void statement.run(...params) };
      },
      close: () => {
        for (const statement of statements.splice(0)) statement.finalize();
        db.close();
      },
    };
  };
};
