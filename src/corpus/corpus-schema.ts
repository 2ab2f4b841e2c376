// The index file layout shared by the indexer and the service: one FTS5 table of chunks plus a
// format marker, so `serve` can refuse a file that `corpus index` did not make. Format 2 adds the
// file path and the split identifiers as searchable columns (docs/design/providers.md §8.1);
// format 1 files, written before it, are still searched with the ranking they were built for.
import type { CorpusRanking } from './corpus-ranking.ts';

/** Value of the `format` row in `corpus_meta`, by the ranking the file was built for. */
export const CORPUS_FORMATS: Readonly<Record<CorpusRanking, string>> = {
  current: 'external-context-corpus/2',
  previous: 'external-context-corpus/1',
};

/** The ranking a `format` value stands for, or undefined for a file `corpus index` did not make. */
export function rankingOfFormat(format: unknown): CorpusRanking | undefined {
  if (format === CORPUS_FORMATS.current) return 'current';
  if (format === CORPUS_FORMATS.previous) return 'previous';
  return undefined;
}

/**
 * DDL of a new index. Searched: `title` (the heading trail), `path` (the relative path without
 * its extension), `content`, and `terms` (the parts of camelCase identifiers of title and
 * content); the other columns are stored only. The porter stemmer over unicode61 lets
 * "installing" find "install"; unicode61 already splits snake_case and kebab-case.
 */
export const CREATE_CORPUS_SQL: Readonly<Record<CorpusRanking, string>> = {
  current: `
CREATE TABLE corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE chunks USING fts5(
  title, path, content, terms, id UNINDEXED, uri UNINDEXED, updated_at UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`,
  previous: `
CREATE TABLE corpus_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE chunks USING fts5(
  title, content, id UNINDEXED, uri UNINDEXED, updated_at UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`,
};

/**
 * Inserts one chunk; parameters in the order title, path, content, terms, id, uri, updated_at
 * (`previous`: title, content, id, uri, updated_at).
 */
export const INSERT_CHUNK_SQL: Readonly<Record<CorpusRanking, string>> = {
  current: 'INSERT INTO chunks (title, path, content, terms, id, uri, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  previous: 'INSERT INTO chunks (title, content, id, uri, updated_at) VALUES (?, ?, ?, ?, ?)',
};

/** Reads the format marker. */
export const SELECT_FORMAT_SQL = "SELECT value FROM corpus_meta WHERE key = 'format'";

/**
 * The format 1 search: best bm25 first (most negative), ties in index order. Parameters: the
 * FTS5 query and the row limit.
 */
export const PREVIOUS_SEARCH_SQL = `
SELECT id, content, title, uri, updated_at, bm25(chunks) AS rank
FROM chunks WHERE chunks MATCH ? ORDER BY rank, rowid LIMIT ?
`;
