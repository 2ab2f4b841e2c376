// The read side of an index file: opened read-only, checked for the format marker, searched
// with bm25 ranking (docs/design/providers.md §8.2).
import { resolve } from 'node:path';
import { openSqlite, SqliteUnavailableError } from '../../runtime/sqlite.ts';
import type { SqliteDatabase, SqliteStatement } from '../../runtime/sqlite-types.ts';
import { bm25Score } from './bm25-score.ts';
import { PREVIOUS_SEARCH_SQL, rankingOfFormat, SELECT_FORMAT_SQL } from '../corpus-schema.ts';
import { createRankedSearch } from './ranked-search.ts';
import { CorpusError } from '../corpus-error.ts';
import { buildFtsQuery } from './fts-query.ts';
import { searchTurns, type Turn } from './search-turns.ts';

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
   * @returns Items best first; empty when the query has no token or nothing matches. Each
   *   statement waits for its turn (search-turns.ts): other requests are answered meanwhile.
   * @throws {Error} From SQLite when the search fails, or when the index was closed before.
   */
  search(query: string, limit: number): Promise<CorpusItem[]>;
  /**
   * Reads the format marker again (a page or two; SQLite re-reads the file when another
   * process changed it): what `/readyz` asks (docs/design/providers.md §8.2a).
   *
   * @returns Whether the open file still reads as an index.
   */
  answers(): boolean;
  /** Closes the database file once the searches running on it have ended. */
  close(): void;
}

/**
 * Opens an index made by `corpus index`, read-only.
 *
 * @param path The `--db` path, as given.
 * @param cwd Directory a relative `path` starts from.
 * @returns The open index.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `index-unreadable` when the file cannot be opened or has no format marker.
 * @see docs/design/providers.md §8.2
 */
export async function openCorpusIndex(path: string, cwd: string): Promise<CorpusIndex> {
  let db: SqliteDatabase | undefined;
  let search: Search;
  let marker: SqliteStatement;
  try {
    db = await openSqlite(resolve(cwd, path), { readonly: true });
    marker = db.prepare(SELECT_FORMAT_SQL);
    const ranking = rankingOfFormat(marker.all()[0]?.['value']);
    if (ranking === undefined) throw new TypeError('The file has no corpus format marker.');
    search = ranking === 'current' ? currentSearch(db) : previousSearch(db.prepare(PREVIOUS_SEARCH_SQL));
  } catch (error) {
    db?.close();
    if (error instanceof SqliteUnavailableError) throw error;
    throw new CorpusError('index-unreadable', path, { cause: error });
  }
  const open = db;
  // A reload closes the old index while searches on it may wait for a turn: the file closes
  // when the last of them ends.
  let running = 0;
  let closed = false;
  return {
    async search(query, limit) {
      if (closed) throw new Error('The index is closed.');
      running++;
      try {
        return await searchTurns.run((turn) => search(query, limit, turn));
      } finally {
        running--;
        if (closed && running === 0) open.close();
      }
    },
    answers: () => {
      if (closed) return false;
      try {
        return rankingOfFormat(marker.all()[0]?.['value']) !== undefined;
      } catch {
        return false;
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      if (running === 0) open.close();
    },
  };
}

type Search = (query: string, limit: number, turn: Turn) => Promise<CorpusItem[]>;

// Format 1: the ranking the file was built for (OR-joined tokens, plain bm25).
function previousSearch(statement: SqliteStatement): Search {
  return async (query, limit, turn) => {
    const match = buildFtsQuery(query);
    if (match === undefined) return [];
    await turn();
    return statement.all(match, limit).map(toItem);
  };
}

function currentSearch(db: SqliteDatabase): Search {
  const ranked = createRankedSearch(db);
  return async (query, limit, turn) => (await ranked(query, limit, turn)).map(toItem);
}

function toItem(row: Readonly<Record<string, unknown>>): CorpusItem {
  return {
    id: String(row['id']),
    content: String(row['content']),
    title: String(row['title']),
    uri: String(row['uri']),
    score: bm25Score(Number(row['rank'])),
    updated_at: String(row['updated_at']),
  };
}
