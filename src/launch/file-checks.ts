// File-system rules of the launch profile's path fields (docs/design/examples.md §8.3): regular files not
// writable by other users, and a repository directory that is not a file-system root.
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';

/** Mode bits S_IWGRP and S_IWOTH: writable by the group or by everyone. */
const GROUP_OR_OTHERS_WRITE_BITS = 0o022;
/** Mode bit S_ISVTX: in a directory, only a file's owner may rename or remove it. */
const STICKY_BIT = 0o1000;

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
 * Whether one file or folder lets users other than root and `uid` change it
 * (docs/design/examples.md §8.3): its owner is neither root (0) nor `uid`, or it has the group- or
 * world-write bit. A folder with the sticky bit (such as `/tmp`) may have those bits, since
 * nobody else can rename or remove what it holds.
 *
 * @param info `stat()` of the file or folder (`uid`, `mode`).
 * @param uid The user running `launch`.
 */
export function isWritableByOthers(info: Pick<Stats, 'uid' | 'mode'>, uid: number): boolean {
  if (info.uid !== 0 && info.uid !== uid) return true;
  if ((info.mode & GROUP_OR_OTHERS_WRITE_BITS) === 0) return false;
  return !((info.mode & 0o170000) === 0o040000 && (info.mode & STICKY_BIT) !== 0);
}

/**
 * Whether other users can change an existing file: the file itself or any folder above it,
 * on the path as given and on its canonical (symlink-resolved) path (docs/design/examples.md §8.3).
 * Always false on Windows, which has no POSIX owners and mode bits.
 *
 * @param filePath Absolute path of an existing file.
 * @returns True when one of those entries fails {@link isWritableByOthers}; a `stat` or
 *   `realpath` error counts as writable (the caller has already seen the file exist).
 */
export async function writableByOthers(filePath: string): Promise<boolean> {
  if (process.platform === 'win32') return false;
  // Bun, Node.js and Deno with --allow-sys all have getuid on POSIX.
  const uid = process.getuid?.() ?? -1;
  try {
    const entries = new Set([...withFolders(path.resolve(filePath)), ...withFolders(await realpath(filePath))]);
    for (const entry of entries) if (isWritableByOthers(await stat(entry), uid)) return true;
    return false;
  } catch {
    return true;
  }
}

/** The path and every folder above it, up to the file-system root. */
function withFolders(filePath: string): string[] {
  const entries = [filePath];
  for (let folder = path.dirname(filePath); entries.at(-1) !== folder; folder = path.dirname(folder)) entries.push(folder);
  return entries;
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
