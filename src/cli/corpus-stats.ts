// `external-context corpus stats`: what an index holds (docs/design/providers.md §8.2b).
import { resolve } from 'node:path';
import { versionLine } from '../version.ts';
import { checkStartup, failure } from './corpus-startup.ts';
import { EXIT_OK } from './exit-codes.ts';
import { type Io, writeLine } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';

/** `corpus stats --help`. */
export const statsHelp = `${versionLine()}
Show what an index made by corpus index holds, without changing it.

USAGE
  external-context corpus stats --db <file> [--json]

  Prints files, chunks, size in bytes, when it was built, and the --exclude and --include
  patterns of the corpus index run. An index written by an older build shows "unknown" for
  the facts it does not record.

OPTIONS
  --db <file>   Index made by \`corpus index\` (required); opened read-only.
  --json        One JSON object {"files","chunks","sizeBytes","builtAt","exclude","include"}
                on stdout (null for an unknown fact).
  -h, --help    Show this help.

EXIT CODES
  0 shown, 1 the file is not a readable index or the runtime has no SQLite, 2 usage error.

EXAMPLES
  external-context corpus stats --db corpus.sqlite
`;

/**
 * Runs `corpus stats`.
 *
 * @returns 0 when shown, 1 when the file is not a readable index (one stderr line).
 * @throws {UsageError} On a bad command line.
 * @see docs/design/providers.md §8.2b
 */
export async function runStats(args: string[], io: Io): Promise<number> {
  const { values } = parseFlags(args, { db: { type: 'string' }, json: { type: 'boolean' } } as const, 'corpus stats');
  const db = values['db'];
  if (typeof db !== 'string' || db === '') throw new UsageError('Option --db needs the path of an index made by corpus index.', 'corpus stats');
  const blocked = await checkStartup(io, [{ name: 'read', target: resolve(io.cwd, db) }]);
  if (blocked !== undefined) return blocked;
  const { readIndexStats } = await import('../corpus/index-stats.ts');
  let stats;
  try {
    stats = await readIndexStats(db, io.cwd);
  } catch (error) {
    return failure(io, error);
  }
  if (values['json'] === true) {
    const { files, chunks, sizeBytes, builtAt, exclude, include } = stats;
    writeLine(io.stdout, JSON.stringify({ files: files ?? null, chunks, sizeBytes, builtAt: builtAt ?? null, exclude: exclude ?? null, include: include ?? null }));
    return EXIT_OK;
  }
  const list = (patterns: readonly string[] | undefined, empty: string): string => (patterns === undefined ? 'unknown' : patterns.length === 0 ? empty : patterns.join(' '));
  for (const line of [
    `files: ${stats.files ?? 'unknown'}`,
    `chunks: ${stats.chunks}`,
    `size: ${stats.sizeBytes} bytes`,
    `built-at: ${stats.builtAt ?? 'unknown'}`,
    `excludes: ${list(stats.exclude, '(none)')}`,
    `includes: ${list(stats.include, '(every file)')}`,
  ]) {
    writeLine(io.stdout, line);
  }
  return EXIT_OK;
}
