// The corpus ranking of format 2 indexes (docs/design/providers.md §8.2): stop words out, the
// minimum-evidence rule, a bounded candidate set from every word required (AND) and then any
// word (OR), bm25 with title and path weighted above the body, and the re-rank of rerank.ts.
import type { SqliteDatabase } from '../../runtime/sqlite-types.ts';
import { queryWords, wordExpression } from './query-terms.ts';
import { rerank } from './rerank.ts';
import type { Turn } from './search-turns.ts';

/** bm25 column weights: title, path, content, terms (the split identifiers). Measured with `npm run eval`. */
export const COLUMN_WEIGHTS = [2, 2, 1, 1] as const;

/** Most rows each FTS5 pass returns: the candidate set the re-rank sees. */
export const MAX_CANDIDATES = 30;

/** One ranked row before it becomes an item. */
export type RankedRow = {
  readonly rowid: number;
  readonly id: string;
  readonly content: string;
  readonly title: string;
  readonly uri: string;
  readonly updated_at: string;
  /** A bm25-like value: negative, more negative is better. */
  readonly rank: number;
};

/**
 * Most matches counted per word, and most rows one FTS5 pass ranks with bm25: the bound on a
 * query's work whatever its words (bm25 ranks every match before the limit applies).
 */
export const MAX_RANKED_MATCHES = 2000;

// Matches of one word, counted up to a cap: postings only, no ranking.
const COUNT_SQL = 'SELECT count(*) AS n FROM (SELECT rowid FROM chunks WHERE chunks MATCH ? LIMIT ?)';
// The rowid below which a pass stops ranking: the MAX_RANKED_MATCHES-th match from the end.
const FLOOR_SQL = 'SELECT rowid FROM chunks WHERE chunks MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?';

const SEARCH_SQL = `
SELECT rowid, id, content, title, uri, updated_at, bm25(chunks, ${COLUMN_WEIGHTS.join(', ')}) AS rank
FROM chunks WHERE chunks MATCH ? AND rowid >= ? ORDER BY rank, rowid LIMIT ?
`;

/**
 * Prepares the search on an open format 2 index.
 *
 * Plan: count each word's matches up to MAX_RANKED_MATCHES; a word with more is common. The
 * AND pass takes every word; the OR pass only the words that are not common (a common word
 * still counts in the re-rank's word share), or none when every word is common. A pass with
 * more than MAX_RANKED_MATCHES matches ranks only the last MAX_RANKED_MATCHES of them in
 * index order, so no pass ranks more rows than that.
 *
 * Each statement waits for its turn (search-turns.ts), so the event loop answers other requests
 * between the statements of one query.
 *
 * @param db The index, open read-only.
 * @returns A function from query, limit and turn to rows best first; empty when the query has no
 *   word but stop words, when more than half of its words occur nowhere in the index, or when
 *   nothing matches.
 * @see docs/design/providers.md §8.2
 */
export function createRankedSearch(db: SqliteDatabase): (query: string, limit: number, turn: Turn) => Promise<RankedRow[]> {
  const search = db.prepare(SEARCH_SQL);
  const count = db.prepare(COUNT_SQL);
  const floor = db.prepare(FLOOR_SQL);
  const run = async (match: string, bounded: boolean, turn: Turn): Promise<RankedRow[]> => {
    let from = 0;
    if (bounded) {
      await turn();
      from = Number(floor.all(match, MAX_RANKED_MATCHES - 1)[0]?.['rowid'] ?? 0);
    }
    await turn();
    return search.all(match, from, MAX_CANDIDATES).map(toRow);
  };
  return async (query, limit, turn) => {
    const words = queryWords(query);
    if (words.length === 0) return [];
    const expressions = words.map(wordExpression);
    const matches: number[] = [];
    for (const expression of expressions) {
      await turn();
      matches.push(Number(count.all(expression, MAX_RANKED_MATCHES + 1)[0]?.['n'] ?? 0));
    }
    // Minimum evidence: when most of the query's words occur nowhere in the index, what the
    // rest match is chance, not an answer.
    if (matches.filter((n) => n === 0).length * 2 > words.length) return [];
    const selective = expressions.filter((_, index) => (matches[index] as number) <= MAX_RANKED_MATCHES);
    const all = await run(expressions.join(' AND '), selective.length === 0, turn);
    const seen = new Set(all.map((row) => row.rowid));
    const some = words.length === 1 || selective.length === 0 ? [] : (await run(selective.join(' OR '), false, turn)).filter((row) => !seen.has(row.rowid));
    return rerank(
      [...all, ...some],
      words.map((word) => word.key),
    ).slice(0, limit);
  };
}

function toRow(row: Record<string, unknown>): RankedRow {
  return {
    rowid: Number(row['rowid']),
    id: String(row['id']),
    content: String(row['content']),
    title: String(row['title']),
    uri: String(row['uri']),
    updated_at: String(row['updated_at']),
    rank: Number(row['rank']),
  };
}
