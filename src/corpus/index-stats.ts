// `corpus stats`: what an index holds, read without changing it (docs/design/providers.md §8.2b).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openSqlite, SqliteUnavailableError } from '../runtime/sqlite.ts';
import type { SqliteDatabase } from '../runtime/sqlite-types.ts';
import { BUILD_FACT_KEYS } from './index/build-facts.ts';
import { rankingOfFormat, SELECT_FORMAT_SQL } from './corpus-schema.ts';
import { CorpusError } from './corpus-error.ts';

/** What `corpus stats` reports. */
export interface IndexStats {
  /** Files indexed; undefined for an index written before this fact was recorded. */
  readonly files: number | undefined;
  /** Chunks in the index. */
  readonly chunks: number;
  /** The file's size, in bytes. */
  readonly sizeBytes: number;
  /** ISO 8601 UTC time of the build; undefined for an older index. */
  readonly builtAt: string | undefined;
  /** `--exclude` patterns of the build; undefined for an older index. */
  readonly exclude: readonly string[] | undefined;
  /** `--include` patterns of the build; undefined for an older index. */
  readonly include: readonly string[] | undefined;
}

/**
 * Reads the statistics of an index made by `corpus index`, opened read-only.
 *
 * @param path The `--db` path, as given.
 * @param cwd Directory a relative `path` starts from.
 * @returns The figures; a fact the index does not record is undefined.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `index-unreadable` when the file cannot be opened as an index.
 * @see docs/design/providers.md §8.2b
 */
export async function readIndexStats(path: string, cwd: string): Promise<IndexStats> {
  const file = resolve(cwd, path);
  let db: SqliteDatabase | undefined;
  try {
    db = await openSqlite(file, { readonly: true });
    if (rankingOfFormat(db.prepare(SELECT_FORMAT_SQL).all()[0]?.['value']) === undefined) throw new TypeError('The file has no corpus format marker.');
    const meta = new Map(
      db
        .prepare('SELECT key, value FROM corpus_meta')
        .all()
        .map((row) => [String(row['key']), String(row['value'])]),
    );
    const chunks = Number(db.prepare('SELECT count(*) AS n FROM chunks').all()[0]?.['n'] ?? 0);
    const files = meta.get(BUILD_FACT_KEYS.files);
    return {
      files: files === undefined ? undefined : Number(files),
      chunks,
      sizeBytes: statSync(file).size,
      builtAt: meta.get(BUILD_FACT_KEYS.builtAt),
      exclude: stringArray(meta.get(BUILD_FACT_KEYS.exclude)),
      include: stringArray(meta.get(BUILD_FACT_KEYS.include)),
    };
  } catch (error) {
    if (error instanceof SqliteUnavailableError) throw error;
    throw new CorpusError('index-unreadable', path, { cause: error });
  } finally {
    db?.close();
  }
}

function stringArray(json: string | undefined): readonly string[] | undefined {
  if (json === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}
