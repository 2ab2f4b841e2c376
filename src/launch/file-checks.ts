// File-system rules of the launch profile's path fields (docs/design/examples.md §8.3): regular files not
// writable by other users, and a repository directory that is not a file-system root.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { writableByOthers as writableByOthersFor } from '../util/trusted-path.ts';

/** Reasons the path checks report (docs/design/examples.md §8.3). */
export const FILE_REASONS = {
  absolute: 'must be an absolute path',
  regularFile: 'must name an existing regular file',
  directory: 'must name an existing directory',
  root: 'must not be a file-system root',
  othersWritable: 'must not be writable by other users',
} as const;

/** One of the path reasons. */
export type FileReason = (typeof FILE_REASONS)[keyof typeof FILE_REASONS];

/**
 * Whether other users can change an existing file: the one rule of util/trusted-path.ts, with
 * this process's user and working directory.
 *
 * @param filePath Path of an existing file.
 * @returns True when the file, a folder above it or a link on its path fails the rule.
 */
export function writableByOthers(filePath: string): Promise<boolean> {
  return writableByOthersFor(filePath, { uid: process.getuid?.() ?? -1, cwd: process.cwd(), windows: process.platform === 'win32' });
}

/**
 * Checks an administrator file: absolute, an existing regular file (symlinks followed), not
 * writable by other users, nor in a folder they can write ({@link writableByOthers}).
 *
 * @param value The configured path (already a string without U+0000).
 * @returns The failing reason, or undefined when the file is acceptable.
 */
export async function checkAdminFile(value: string): Promise<FileReason | undefined> {
  if (!path.isAbsolute(value)) return FILE_REASONS.absolute;
  let info;
  try {
    info = await stat(value);
  } catch {
    return FILE_REASONS.regularFile;
  }
  if (!info.isFile()) return FILE_REASONS.regularFile;
  if (await writableByOthers(value)) return FILE_REASONS.othersWritable;
  return undefined;
}

/** Outcome of {@link resolveRepository}. */
export type RepositoryCheck = { readonly ok: true; readonly canonical: string } | { readonly ok: false; readonly reason: FileReason };

/**
 * Canonicalizes the repository: absolute, `realpath` succeeds, a directory, not a file-system
 * root (`path.parse(p).root === p` rejects `/`, `C:\` and UNC share roots).
 *
 * @param value The configured path.
 * @returns The symlink-resolved directory, or the failing reason.
 */
export async function resolveRepository(value: string): Promise<RepositoryCheck> {
  if (!path.isAbsolute(value)) return { ok: false, reason: FILE_REASONS.absolute };
  let canonical: string;
  try {
    canonical = await realpath(value);
    if (!(await stat(canonical)).isDirectory()) return { ok: false, reason: FILE_REASONS.directory };
  } catch {
    return { ok: false, reason: FILE_REASONS.directory };
  }
  if (path.parse(canonical).root === canonical) return { ok: false, reason: FILE_REASONS.root };
  return { ok: true, canonical };
}
