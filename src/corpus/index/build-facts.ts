// The facts `corpus index` records beside the chunks, for `corpus stats` (docs/design/providers.md
// §8.2b): when the index was built, how many files it holds, and the command line's selection.
import type { SqliteDatabase } from '../../runtime/sqlite-types.ts';

/** The `corpus_meta` keys written after the chunks. */
export const BUILD_FACT_KEYS = { builtAt: 'built_at', files: 'files', exclude: 'exclude', include: 'include' } as const;

/** What one run of `corpus index` records. */
export interface BuildFacts {
  /** ISO 8601 UTC time the run finished writing chunks. */
  readonly builtAt: string;
  /** Files indexed. */
  readonly files: number;
  /** `--exclude` patterns, in command-line order. */
  readonly exclude: readonly string[];
  /** `--include` patterns, in command-line order. */
  readonly include: readonly string[];
}

/**
 * Writes the build facts into `corpus_meta` (one row per key; lists as JSON arrays).
 *
 * @param db The index being written.
 * @param facts What the run did.
 */
export function writeBuildFacts(db: SqliteDatabase, facts: BuildFacts): void {
  const insert = db.prepare('INSERT INTO corpus_meta (key, value) VALUES (?, ?)');
  insert.run(BUILD_FACT_KEYS.builtAt, facts.builtAt);
  insert.run(BUILD_FACT_KEYS.files, String(facts.files));
  insert.run(BUILD_FACT_KEYS.exclude, JSON.stringify(facts.exclude));
  insert.run(BUILD_FACT_KEYS.include, JSON.stringify(facts.include));
}
