// Opens SQLite on whichever runtime is executing: bun:sqlite under Bun, node:sqlite under Deno
// and Node.js 22.13 or later. Older Node.js has no usable node:sqlite (docs/design/providers.md §8).
import { nodeVersion, RUNTIME, type RuntimeName } from './runtime.ts';
import type { OpenSqliteFunction, SqliteDatabase, SqliteOpenOptions } from './sqlite-types.ts';

/** SQLite (with FTS5) is not available on this runtime. */
export class SqliteUnavailableError extends Error {
  override readonly name = 'SqliteUnavailableError';

  constructor(options: { cause?: unknown } = {}) {
    super('SQLite is not available on this runtime.', options);
  }
}

/**
 * Whether a runtime provides SQLite with FTS5 without flags.
 *
 * Node.js unflagged `node:sqlite` in 22.13 (22.x line) and 23.4 (23.x line); Node 20 has none.
 *
 * @param runtime The runtime name (default: the executing one).
 * @param version Node.js version as [major, minor, patch] (ignored for Bun and Deno).
 * @returns True for Bun, Deno and Node.js 22.13+ / 23.4+ / 24+.
 * @see docs/design/providers.md §8, docs/design/README.md "Runtimes"
 */
export function sqliteSupported(runtime: RuntimeName = RUNTIME, version: readonly [number, number, number] = nodeVersion()): boolean {
  if (runtime !== 'node') return true;
  const [major, minor] = version;
  if (major === 22) return minor >= 13;
  if (major === 23) return minor >= 4;
  return major >= 24;
}

/**
 * Opens a SQLite database file.
 *
 * @param path File path; with `readonly: false` the file is created when absent.
 * @param options `readonly: true` opens an existing file read-only.
 * @returns The open connection.
 * @throws {SqliteUnavailableError} When the runtime has no SQLite (Node.js before 22.13).
 * @throws {Error} From SQLite when the file cannot be opened.
 * @see docs/design/providers.md §8
 */
export async function openSqlite(path: string, options: SqliteOpenOptions): Promise<SqliteDatabase> {
  if (!sqliteSupported()) throw new SqliteUnavailableError();
  let open: OpenSqliteFunction;
  try {
    open = RUNTIME === 'bun' ? await (await import('./sqlite-bun.ts')).loadSqliteBun() : await (await import('./sqlite-node.ts')).loadSqliteNode();
  } catch (error) {
    throw new SqliteUnavailableError({ cause: error });
  }
  return open(path, options);
}
