// Lists the regular files under the paths given to `corpus index`: folders recursively, each
// folder's entries in sorted order, with a stable relative path per file (docs/design/providers.md §8.1).
import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CorpusError } from '../corpus-error.ts';

/** A file to index. */
export interface InputFile {
  /** Absolute file-system path. */
  readonly path: string;
  /** Path used in ids and uris, with `/` separators (see collectFiles). */
  readonly relativePath: string;
}

/** The files found, plus relative paths that were listed more than once (skipped). */
export interface CollectedFiles {
  readonly files: InputFile[];
  readonly duplicates: string[];
}

/**
 * Collects every regular file under `paths`.
 *
 * A file's relative path is taken from `cwd` when the file lies under it, else from the
 * folder that contains the path argument, so ids do not depend on where the machine keeps
 * the corpus. Symbolic links inside folders are not followed (no cycles); a path argument
 * that is itself a link is followed.
 *
 * @param paths Files and folders, as given on the command line.
 * @param cwd Directory that relative arguments and relative paths start from.
 * @returns Files in argument order, each folder walked in code-unit order of entry names.
 * @throws {CorpusError} `input-unreadable` when a path does not exist or cannot be read.
 */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<CollectedFiles> {
  const files: InputFile[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    const root = resolve(cwd, given);
    const base = relativeBase(root, cwd);
    const found: string[] = [];
    try {
      const info = await stat(root);
      if (info.isDirectory()) await walk(root, found);
      else if (info.isFile()) found.push(root);
    } catch (error) {
      throw new CorpusError('input-unreadable', given, { cause: error });
    }
    for (const path of found) {
      const relativePath = relative(base, path).split(sep).join('/');
      if (seen.has(relativePath)) duplicates.push(relativePath);
      else files.push({ path, relativePath });
      seen.add(relativePath);
    }
  }
  return { files, duplicates };
}

function relativeBase(root: string, cwd: string): string {
  const fromCwd = relative(cwd, root);
  const outside = fromCwd === '..' || fromCwd.startsWith(`..${sep}`) || isAbsolute(fromCwd);
  return outside ? dirname(root) : cwd;
}

async function walk(folder: string, found: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  // Code-unit order, not locale order: the same tree gives the same order on every machine.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, found);
    else if (entry.isFile()) found.push(path);
  }
}
