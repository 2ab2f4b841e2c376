// The small SQLite interface the corpus needs, implemented by bun:sqlite (sqlite-bun.ts) and
// node:sqlite (sqlite-node.ts, for Deno and Node.js 22.13 or later).

/** A value bound to a `?` parameter or read from a column. */
export type SqliteValue = string | number | bigint | null | Uint8Array;

/** A prepared statement with positional `?` parameters. */
export interface SqliteStatement {
  /** Runs the statement and returns every row as an object keyed by column name. */
  all(...params: SqliteValue[]): Record<string, unknown>[];
  /** Runs the statement for its effect. */
  run(...params: SqliteValue[]): void;
}

/** An open database connection. */
export interface SqliteDatabase {
  /** Runs one or more statements without parameters. */
  exec(sql: string): void;
  /** Compiles one statement. */
  prepare(sql: string): SqliteStatement;
  /**
   * Finalizes every statement this connection prepared, then closes it: no handle on the
   * database file stays open (Windows renames only closed files). Statements must not be used
   * afterwards.
   */
  close(): void;
}

/** How to open a database file. */
export interface SqliteOpenOptions {
  /** True: open an existing file read-only. False: open read-write, creating the file if absent. */
  readonly readonly: boolean;
}

/** Opens a database file synchronously; throws SQLite's error when the file cannot be opened. */
export type OpenSqliteFunction = (path: string, options: SqliteOpenOptions) => SqliteDatabase;

/** What each per-runtime module exports: loads the runtime's SQLite module (throws when it is missing). */
export type LoadSqliteFunction = () => Promise<OpenSqliteFunction>;
