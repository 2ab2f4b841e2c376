// SQLite under Deno and Node.js 22.13 or later: node:sqlite, imported with a non-literal
// specifier because @types/node 20 does not declare it.
import type { LoadSqliteFunction, SqliteDatabase, SqliteOpenOptions, SqliteValue } from './sqlite-types.ts';

interface NodeStatement {
  all(...params: SqliteValue[]): Record<string, unknown>[];
  run(...params: SqliteValue[]): unknown;
}

interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string, options: { readOnly: boolean }) => NodeDatabase;
}

const NODE_SQLITE = 'node:sqlite';

/**
 * Loads `node:sqlite` and returns a function that opens a database with it.
 *
 * @see sqlite.ts for the contract.
 */
export const loadSqliteNode: LoadSqliteFunction = async () => {
  const { DatabaseSync } = (await import(NODE_SQLITE)) as NodeSqliteModule;
  return (path: string, options: SqliteOpenOptions): SqliteDatabase => {
    const db = new DatabaseSync(path, { readOnly: options.readonly });
    return {
      exec: (sql) => db.exec(sql),
      prepare: (sql) => {
        const statement = db.prepare(sql);
        return { all: (...params) => statement.all(...params), run: (...params) => void statement.run(...params) };
      },
      close: () => db.close(),
    };
  };
};
