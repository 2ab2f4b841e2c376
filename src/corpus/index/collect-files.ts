// Lists the regular files under the paths given to `corpus index`: folders recursively, each
// folder's entries in sorted order, with a stable relative path per file, leaving out `.git/`,
// what the repository's `.gitignore` files ignore, what --exclude/--include select, and, unless
// --include is given, markup files found in folders (docs/design/providers.md §8.1).
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { CorpusError } from '../corpus-error.ts';
import { markupExtension } from './markup-files.ts';

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
  /**
   * Entries inside a walked folder that are skipped with a warning: a folder that cannot be
   * read, or an entry whose name is not UTF-8 (shown as its folder's path plus `/?`).
   */
  readonly unreadable: { readonly relativePath: string; readonly reason: 'unreadable' | 'name-not-utf8' }[];
  /**
   * Markup files (markup-files.ts) found inside walked folders and left out because no
   * --include was given: per extension (lower case), the count, in order of first appearance.
   */
  readonly markup: { readonly extension: string; readonly count: number }[];
}

/** Which files a run takes, beyond the built-in rules. */
export interface FileSelection {
  /** gitignore-style patterns, matched against the relative path: a match is left out. */
  readonly exclude?: readonly string[] | undefined;
  /** gitignore-style patterns: when any is given, only files matching one are taken. */
  readonly include?: readonly string[] | undefined;
}

/** One folder's `.gitignore` rules. */
interface IgnoreRules {
  readonly folder: string;
  readonly rules: Ignore;
}

/**
 * Collects every regular file under `paths`.
 *
 * A file's relative path is taken from `cwd` when the file lies under it, else from the
 * folder that contains the path argument, so ids do not depend on where the machine keeps
 * the corpus. Symbolic links inside folders are not followed (no cycles); a path argument
 * that is itself a link is followed. Inside folders, `.git` entries are never taken, nor what
 * a `.gitignore` file of the walked folder or of its repository's folders above it ignores;
 * `selection` excludes and includes by relative path; without any --include, a markup file
 * (`.html`, `.css`, `.js`, `.json`, `.xml`, `.svg`, … ) inside a folder is left out and counted.
 * A file named directly is always taken unless `selection` leaves it out.
 *
 * @param paths Files and folders, as given on the command line.
 * @param cwd Directory that relative arguments and relative paths start from.
 * @param selection --exclude and --include patterns.
 * @returns Files in argument order, each folder walked in code-unit order of entry names.
 * @throws {CorpusError} `input-unreadable` when a path does not exist or cannot be read.
 * @see docs/design/providers.md §8.1
 */
export async function collectFiles(paths: readonly string[], cwd: string, selection: FileSelection = {}): Promise<CollectedFiles> {
  const files: InputFile[] = [];
  const duplicates: string[] = [];
  const unreadable: CollectedFiles['unreadable'] = [];
  const seen = new Set<string>();
  const markup = new Map<string, number>();
  const exclude = selection.exclude?.length ? ignore().add([...selection.exclude]) : undefined;
  const include = selection.include?.length ? ignore().add([...selection.include]) : undefined;
  for (const given of paths) {
    const root = resolve(cwd, given);
    const base = relativeBase(root, cwd);
    const found: string[] = [];
    let walked = false;
    const skip = (path: string, reason: 'unreadable' | 'name-not-utf8'): void => void unreadable.push({ relativePath: relativeOf(base, path), reason });
    const excluded = (path: string, folder: boolean): boolean => exclude?.ignores(relativeOf(base, path) + (folder ? '/' : '')) === true;
    try {
      const info = await stat(root);
      walked = info.isDirectory();
      if (walked) await walk(root, found, await ancestorRules(root), excluded, skip);
      else if (info.isFile()) found.push(root);
    } catch (error) {
      throw new CorpusError('input-unreadable', given, { cause: error });
    }
    for (const path of found) {
      const relativePath = relativeOf(base, path);
      if (exclude?.ignores(relativePath) === true) continue;
      if (include !== undefined && !include.ignores(relativePath)) continue;
      const extension = walked && include === undefined ? markupExtension(relativePath) : undefined;
      if (extension !== undefined) {
        markup.set(extension, (markup.get(extension) ?? 0) + 1);
        continue;
      }
      if (seen.has(relativePath)) duplicates.push(relativePath);
      else files.push({ path, relativePath });
      seen.add(relativePath);
    }
  }
  return { files, duplicates, unreadable, markup: [...markup].map(([extension, count]) => ({ extension, count })) };
}

function relativeOf(base: string, path: string): string {
  return relative(base, path).split(sep).join('/');
}

function relativeBase(root: string, cwd: string): string {
  const fromCwd = relative(cwd, root);
  const outside = fromCwd === '..' || fromCwd.startsWith(`..${sep}`) || isAbsolute(fromCwd);
  return outside ? dirname(root) : cwd;
}

async function walk(
  folder: string,
  found: string[],
  inherited: readonly IgnoreRules[],
  excluded: (path: string, folder: boolean) => boolean,
  skip: (path: string, reason: 'unreadable' | 'name-not-utf8') => void,
  top = true,
): Promise<void> {
  const own = await gitignoreOf(folder);
  const rules = own === undefined ? inherited : [...inherited, own];
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    // A folder given on the command line must be readable; one found inside is skipped.
    if (top) throw error;
    skip(folder, 'unreadable');
    return;
  }
  // Code-unit order, not locale order: the same tree gives the same order on every machine.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const path = join(folder, entry.name);
    const isFolder = entry.isDirectory();
    if (!isFolder && !entry.isFile()) continue;
    // A name that is not UTF-8 comes back with U+FFFD in it and names no file: the path cannot
    // be an id or a uri, so the entry is skipped (named by its folder, never the lossy name).
    if (entry.name.includes('\uFFFD') && !(await exists(path))) {
      skip(join(folder, '?'), 'name-not-utf8');
      continue;
    }
    if (gitIgnored(rules, path, isFolder) || excluded(path, isFolder)) continue;
    if (isFolder) await walk(path, found, rules, excluded, skip, false);
    else found.push(path);
  }
}

/** Deeper rules win, as in git: a later match (ignore or `!` re-include) decides. */
function gitIgnored(rules: readonly IgnoreRules[], path: string, folder: boolean): boolean {
  let ignored = false;
  for (const { folder: at, rules: matcher } of rules) {
    const result = matcher.test(relativeOf(at, path) + (folder ? '/' : ''));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function gitignoreOf(folder: string): Promise<IgnoreRules | undefined> {
  let text: string;
  try {
    const file = join(folder, '.gitignore');
    const info = await stat(file);
    // A .gitignore is a small text file; a huge or odd one is not read.
    if (!info.isFile() || info.size > 1024 * 1024) return undefined;
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  return { folder, rules: ignore().add(text) };
}

/** The `.gitignore` rules of the folders above `root` up to its repository's top (the folder holding `.git`). */
async function ancestorRules(root: string): Promise<IgnoreRules[]> {
  if (await exists(join(root, '.git'))) return [];
  const chain: string[] = [];
  for (let folder = dirname(root); ; folder = dirname(folder)) {
    chain.unshift(folder);
    if (await exists(join(folder, '.git'))) break;
    if (dirname(folder) === folder) return [];
  }
  const rules: IgnoreRules[] = [];
  for (const folder of chain) {
    const own = await gitignoreOf(folder);
    if (own !== undefined) rules.push(own);
  }
  return rules;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
