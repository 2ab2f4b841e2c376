// The corpus ranking of format 2 indexes (docs/design/providers.md §8.2): stop words out, the
// minimum-evidence rule, a bounded candidate set from every word required (AND) and then any
// word (OR), bm25 with title and path weighted above the body, and the re-rank of rerank.ts.
import type { SqliteDatabase } from '../../runtime/sqlite-types.ts';
import { queryWords, wordExpression } from './query-terms.ts';
import { rerank } from './rerank.ts';

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

// Whether a word occurs in the index at all: the first posting only, no ranking.
const EXISTS_SQL = 'SELECT rowid FROM chunks WHERE chunks MATCH ? LIMIT 1';

const SEARCH_SQL = `
SELECT rowid, id, content, title, uri, updated_at, bm25(chunks, ${COLUMN_WEIGHTS.join(', ')}) AS rank
FROM chunks WHERE chunks MATCH ? ORDER BY rank, rowid LIMIT ?
`;

/**
 * Prepares the search on an open format 2 index.
 *
 * @param db The index, open read-only.
 * @returns A function from query and limit to rows best first; empty when the query has no
 *   word but stop words, when more than half of its words occur nowhere in the index, or when
 *   nothing matches.
 * @see docs/design/providers.md §8.2
 */
export function createRankedSearch(db: SqliteDatabase): (query: string, limit: number) => RankedRow[] {
  const search = db.prepare(SEARCH_SQL);
  const exists = db.prepare(EXISTS_SQL);
  const run = (match: string): RankedRow[] => search.all(match, MAX_CANDIDATES).map(toRow);
  return (query, limit) => {
    const words = queryWords(query);
    if (words.length === 0) return [];
    const expressions = words.map(wordExpression);
    // Minimum evidence: when most of the query's words occur nowhere in the index, what the
    // rest match is chance, not an answer.
    const unknown = expressions.filter((expression) => exists.all(expression).length === 0).length;
    if (unknown * 2 > words.length) return [];
    const all = run(expressions.join(' AND '));
    const seen = new Set(all.map((row) => row.rowid));
    const some = words.length === 1 ? [] : run(expressions.join(' OR ')).filter((row) => !seen.has(row.rowid));
    return rerank([...all, ...some], words.map((word) => word.key)).slice(0, limit);
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
