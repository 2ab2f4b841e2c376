// File-system rules of the launch profile's path fields (docs/design/examples.md §8.3): regular files not
// writable by other users, and a repository directory that is not a file-system root.
import type { Stats } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
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

/** Symlinks followed before a path counts as unresolvable (Linux's MAXSYMLINKS is 40). */
const MAX_SYMLINKS = 40;

/**
 * Whether other users can change an existing file, judged on every entry the path resolves
 * through (docs/design/examples.md §8.3). The path is walked component by component from the
 * file-system root with `lstat`: every folder reached and the file itself must pass
 * {@link isWritableByOthers}; a symlink met on the way must itself be owned by root or the
 * running user (its folder has already passed), and its target is then walked the same way
 * (relative targets from the link's folder, `..` from the resolved folder). So a link in a
 * folder other users can write, a link another user owns (in a sticky folder such as `/tmp`),
 * or a target under such a folder all count as writable.
 * Always false on Windows, which has no POSIX owners and mode bits.
 *
 * @param filePath Path of an existing file (a relative path is taken from the working directory).
 * @returns True when one of those entries fails; an `lstat` or `readlink` error, or more than
 *   40 symlinks, counts as writable (the caller has already seen the file exist).
 */
export async function writableByOthers(filePath: string): Promise<boolean> {
  if (process.platform === 'win32') return false;
  // Bun, Node.js and Deno with --allow-sys all have getuid on POSIX.
  const uid = process.getuid?.() ?? -1;
  try {
    if (isWritableByOthers(await lstat('/'), uid)) return true;
    const start = path.isAbsolute(filePath) ? filePath : `${process.cwd()}/${filePath}`;
    // Components still to walk, first one first; `current` is the resolved folder reached so far.
    const pending = start.split('/').reverse();
    let current = '/';
    let links = 0;
    while (pending.length > 0) {
      const component = pending.pop()!;
      if (component === '' || component === '.') continue;
      if (component === '..') {
        current = path.dirname(current);
        continue;
      }
      const entry = path.join(current, component);
      const info = await lstat(entry);
      if (info.isSymbolicLink()) {
        if ((info.uid !== 0 && info.uid !== uid) || ++links > MAX_SYMLINKS) return true;
        const target = await readlink(entry);
        if (target.startsWith('/')) current = '/';
        pending.push(...target.split('/').reverse());
        continue;
      }
      if (isWritableByOthers(info, uid)) return true;
      current = entry;
    }
    return false;
  } catch {
    return true;
  }
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
