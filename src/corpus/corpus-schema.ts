// The index file layout shared by the indexer and the service: one FTS5 table of chunks plus a
// format marker, so `serve` can refuse a file that `corpus index` did not make.

/** Value of the `format` row in `corpus_meta`. */
export const CORPUS_FORMAT = 'external-context-corpus/1';

/**
 * DDL of a new index. `title` and `content` are searched (bm25 over both); the other columns
 * are stored only. The porter stemmer over unicode61 lets "installing" find "install".
 */
export const CREATE_CORPUS_SQL = `
CREATE TABLE corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE chunks USING fts5(
  title, content, id UNINDEXED, uri UNINDEXED, updated_at UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

/** Inserts one chunk; parameters in the order title, content, id, uri, updated_at. */
export const INSERT_CHUNK_SQL = 'INSERT INTO chunks (title, content, id, uri, updated_at) VALUES (?, ?, ?, ?, ?)';

/** Reads the format marker. */
export const SELECT_FORMAT_SQL = "SELECT value FROM corpus_meta WHERE key = 'format'";

/**
 * The search: best bm25 first (most negative), ties in index order. Parameters: the FTS5
 * query and the row limit.
 */
export const SEARCH_SQL = `
SELECT id, content, title, uri, updated_at, bm25(chunks) AS rank
FROM chunks WHERE chunks MATCH ? ORDER BY rank, rowid LIMIT ?
`;
