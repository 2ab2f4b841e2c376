// `corpus index`: collects the input files, chunks them and writes a new index file through a
// temporary file renamed into place at the end (docs/design/providers.md §8.1).
import { randomUUID } from 'node:crypto';
import { lstat, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { openSqlite, SqliteUnavailableError } from '../../runtime/sqlite.ts';
import type { SqliteDatabase } from '../../runtime/sqlite-types.ts';
import { chunkFile } from './chunk-file.ts';
import { collectFiles, type FileSelection } from './collect-files.ts';
import { CorpusError } from '../corpus-error.ts';
import type { CorpusRanking } from '../corpus-ranking.ts';
import { CORPUS_FORMATS, CREATE_CORPUS_SQL, INSERT_CHUNK_SQL, rankingOfFormat, SELECT_FORMAT_SQL } from '../corpus-schema.ts';
import { writeBuildFacts } from './build-facts.ts';
import { identifierTerms, pathTerms } from './identifier-terms.ts';
import { readTextFile } from './read-text-file.ts';

/** Why a file was left out. */
export type SkipReason = 'binary' | 'oversize' | 'duplicate' | 'unreadable' | 'name-not-utf8';

/** What `buildIndex` reports while it runs. */
export interface BuildIndexEvents {
  /** A file was skipped; `relativePath` is its path in ids. */
  onSkip(relativePath: string, reason: SkipReason): void;
  /** `count` markup files with this extension (lower case, no dot) were left out of the folders (no --include). */
  onSkipMarkup?(extension: string, count: number): void;
  /** `done` of `total` files have been handled (indexed or skipped). */
  onProgress(done: number, total: number): void;
}

/** The outcome of a run. */
export interface BuildIndexSummary {
  /** Files indexed (including files that produced no chunk). */
  readonly files: number;
  /** Chunks written. */
  readonly chunks: number;
  /** Files skipped (binary, over 1 MiB, listed twice, markup in a folder). */
  readonly skipped: number;
  /** Bytes of the indexed files. */
  readonly bytes: number;
}

/**
 * Builds an index file from files and folders.
 *
 * @param paths Input files and folders, as given.
 * @param out Path of the index to write, as given; replaced only when the run succeeds.
 * @param cwd Directory relative paths start from.
 * @param events Skip and progress callbacks.
 * @param selection --exclude and --include patterns (collectFiles).
 * @param ranking `previous` builds the index as before issue 28 §3, for `npm run eval` only.
 * @returns Counts of files, chunks, skipped files and bytes.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `input-unreadable` for a missing or unreadable input path given on the
 *   command line (a file or folder inside one that cannot be read, or whose name is not UTF-8,
 *   is skipped with a warning instead); `output-unwritable` when the temporary file cannot be written or renamed to `out`;
 *   `output-is-input` when `out` is, or resolves through links to, an input file or lies inside
 *   an input folder; `output-not-index` when `out` exists and is not an index this command
 *   wrote. Nothing is written in those two cases.
 * @see docs/design/providers.md §8.1
 */
export async function buildIndex(
  paths: readonly string[],
  out: string,
  cwd: string,
  events: BuildIndexEvents,
  selection: FileSelection = {},
  ranking: CorpusRanking = 'current',
): Promise<BuildIndexSummary> {
  const target = resolve(cwd, out);
  await checkOutput(paths, target, out, cwd);
  const { files, duplicates, unreadable, markup } = await collectFiles(paths, cwd, selection);
  const temporary = resolve(dirname(target), `.${basename(target)}.${randomUUID()}.tmp`);
  let db: SqliteDatabase | undefined;
  try {
    db = await openOutput(temporary, out, ranking);
    const summary = await writeChunks(db, files, events, ranking);
    writeBuildFacts(db, { builtAt: new Date().toISOString(), files: summary.files, exclude: selection.exclude ?? [], include: selection.include ?? [] });
    for (const path of duplicates) events.onSkip(path, 'duplicate');
    for (const { relativePath, reason } of unreadable) events.onSkip(relativePath, reason);
    for (const { extension, count } of markup) events.onSkipMarkup?.(extension, count);
    db.exec("INSERT INTO chunks (chunks) VALUES ('optimize')");
    db.close();
    db = undefined;
    await rename(temporary, target).catch((error: unknown) => {
      throw new CorpusError('output-unwritable', out, { cause: error });
    });
    const markupCount = markup.reduce((sum, kind) => sum + kind.count, 0);
    return { ...summary, skipped: summary.skipped + duplicates.length + unreadable.length + markupCount };
  } finally {
    db?.close();
    await rm(temporary, { force: true }).catch(() => {});
  }
}

async function openOutput(temporary: string, out: string, ranking: CorpusRanking): Promise<SqliteDatabase> {
  try {
    const db = await openSqlite(temporary, { readonly: false });
    // A temporary file renamed at the end: no journal, no fsync; a crash leaves only the temp file.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
    db.exec(CREATE_CORPUS_SQL[ranking]);
    db.prepare('INSERT INTO corpus_meta (key, value) VALUES (?, ?)').run('format', CORPUS_FORMATS[ranking]);
    return db;
  } catch (error) {
    if (error instanceof SqliteUnavailableError) throw error;
    throw new CorpusError('output-unwritable', out, { cause: error });
  }
}

async function writeChunks(db: SqliteDatabase, files: readonly { path: string; relativePath: string }[], events: BuildIndexEvents, ranking: CorpusRanking): Promise<BuildIndexSummary> {
  const insert = db.prepare(INSERT_CHUNK_SQL[ranking]);
  let indexed = 0;
  let chunks = 0;
  let skipped = 0;
  let bytes = 0;
  db.exec('BEGIN');
  for (const [index, file] of files.entries()) {
    const result = await readTextFile(file.path);
    if (result.kind === 'text') {
      for (const chunk of chunkFile({ relativePath: file.relativePath, text: result.text, mtimeMs: result.mtimeMs }, ranking)) {
        if (ranking === 'previous') insert.run(chunk.title, chunk.content, chunk.id, chunk.uri, chunk.updated_at);
        else insert.run(chunk.title, pathTerms(file.relativePath), chunk.content, identifierTerms(`${chunk.title}\n${chunk.content}`), chunk.id, chunk.uri, chunk.updated_at);
        chunks++;
      }
      indexed++;
      bytes += result.bytes;
    } else {
      skipped++;
      events.onSkip(file.relativePath, result.kind);
    }
    events.onProgress(index + 1, files.length);
  }
  db.exec('COMMIT');
  return { files: indexed, chunks, skipped, bytes };
}

/**
 * Refuses an `--out` that would destroy an input or something this command did not write
 * (docs/design/providers.md §8.1).
 */
async function checkOutput(paths: readonly string[], target: string, out: string, cwd: string): Promise<void> {
  const outPaths = new Set<string>([target]);
  const folder = await realpath(dirname(target)).catch(() => undefined);
  if (folder !== undefined) outPaths.add(join(folder, basename(target)));
  const existing = await lstat(target).catch(() => undefined);
  if (existing !== undefined) {
    const resolved = await realpath(target).catch(() => undefined);
    if (resolved !== undefined) outPaths.add(resolved);
  }
  for (const given of paths) {
    const input = resolve(cwd, given);
    const real = await realpath(input).catch(() => input);
    const info = await stat(real).catch(() => undefined);
    for (const candidate of outPaths) {
      for (const root of new Set([input, real])) {
        if (candidate === root || (info?.isDirectory() === true && isInside(root, candidate))) throw new CorpusError('output-is-input', out);
      }
    }
  }
  if (existing !== undefined && !(await isCorpusIndex(target))) throw new CorpusError('output-not-index', out);
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function isCorpusIndex(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) return false;
  let db: SqliteDatabase | undefined;
  try {
    db = await openSqlite(path, { readonly: true });
    return rankingOfFormat(db.prepare(SELECT_FORMAT_SQL).all()[0]?.['value']) !== undefined;
  } catch (error) {
    if (error instanceof SqliteUnavailableError) throw error;
    return false;
  } finally {
    db?.close();
  }
}
