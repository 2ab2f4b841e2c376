// The one rule for every file the deployment trusts (issue 25 §4.3, §6.4; docs/design/examples.md
// §8.3, docs/design/config.md §11): the file, every folder above it and every link on its path
// must be owned by root or the running user and not be group- or world-writable (a sticky
// folder such as /tmp excepted). Used by launch, serve, the auto-recall Hook and check; the
// caller supplies the process facts, so this stays free of `process`.
import type { Stats } from 'node:fs';
// Synchronous on purpose: a few lstat calls cost ~0.02 ms CPU, their promise forms ~0.25 ms
// (a thread-pool round trip each), and the auto-recall Hook walks the path on every run.
import { lstatSync as lstat, readlinkSync as readlink } from 'node:fs';
import path from 'node:path';

/** Mode bits S_IWGRP and S_IWOTH: writable by the group or by everyone. */
const GROUP_OR_OTHERS_WRITE_BITS = 0o022;
/** Mode bit S_ISVTX: in a directory, only a file's owner may rename or remove it. */
const STICKY_BIT = 0o1000;
/** Symlinks followed before a path counts as unresolvable (Linux's MAXSYMLINKS is 40). */
const MAX_SYMLINKS = 40;

/** What the rule needs to know about the running process. */
export interface TrustFacts {
  /** The running user's id (`process.getuid()`); -1 when unknown. */
  readonly uid: number;
  /** The working directory a relative path starts from. */
  readonly cwd: string;
  /** True on Windows, which has no POSIX owners and mode bits: nothing is judged there. */
  readonly windows: boolean;
}

/**
 * Whether one file or folder lets users other than root and `uid` change it: its owner is
 * neither root (0) nor `uid`, or it has the group- or world-write bit. A folder with the sticky
 * bit (such as `/tmp`) may have those bits, since nobody else can rename or remove what it holds.
 *
 * @param info `lstat()` of the file or folder (`uid`, `mode`).
 * @param uid The running user.
 */
export function isWritableByOthers(info: Pick<Stats, 'uid' | 'mode'>, uid: number): boolean {
  if (info.uid !== 0 && info.uid !== uid) return true;
  if ((info.mode & GROUP_OR_OTHERS_WRITE_BITS) === 0) return false;
  return !((info.mode & 0o170000) === 0o040000 && (info.mode & STICKY_BIT) !== 0);
}

/**
 * Whether other users can change an existing file, judged on every entry the path resolves
 * through. The path is walked component by component from the root with `lstat`: every folder
 * reached and the file itself must pass {@link isWritableByOthers}; a symlink met on the way
 * must itself be owned by root or the running user (its folder has already passed), and its
 * target is then walked the same way (relative targets from the link's folder, `..` from the
 * resolved folder).
 *
 * @param filePath Path of an existing file (a relative path is taken from `facts.cwd`).
 * @param facts The running user and working directory.
 * @returns True when one of those entries fails; an `lstat` or `readlink` error, or more than
 *   40 symlinks, counts as writable. Always false on Windows.
 */
export async function writableByOthers(filePath: string, facts: TrustFacts): Promise<boolean> {
  if (facts.windows) return false;
  const uid = facts.uid;
  try {
    if (isWritableByOthers(lstat('/'), uid)) return true;
    const start = path.isAbsolute(filePath) ? filePath : `${facts.cwd}/${filePath}`;
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
      const info = lstat(entry);
      if (info.isSymbolicLink()) {
        if ((info.uid !== 0 && info.uid !== uid) || ++links > MAX_SYMLINKS) return true;
        const target = readlink(entry);
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
