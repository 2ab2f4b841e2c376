// Temporary directories for tests, with their real (symlink-resolved) path and cleanup.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory owned by a test. */
export interface TempDir {
  /** Canonical absolute path (macOS `/var` → `/private/var`), as repository roots are compared. */
  readonly path: string;
  /** Deletes the directory and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

const live = new Set<TempDir>();

/**
 * Creates a fresh directory under the system temporary directory.
 *
 * @param prefix Name prefix (default `ec-test-`).
 * @returns The directory; remove it with `remove()` or `removeTempDirs()`.
 */
export async function makeTempDir(prefix = 'ec-test-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const dir: TempDir = {
    path,
    async remove() {
      live.delete(dir);
      await rm(path, { recursive: true, force: true });
    },
  };
  live.add(dir);
  return dir;
}

/** Removes every directory `makeTempDir` created and that is not removed yet (for `afterAll`). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all([...live].map((dir) => dir.remove()));
}

/**
 * Runs `fn` with a fresh temporary directory and removes it afterwards, even on failure.
 *
 * @returns What `fn` returns.
 */
export async function withTempDir<T>(fn: (path: string) => Promise<T>, prefix?: string): Promise<T> {
  const dir = await makeTempDir(prefix);
  try {
    return await fn(dir.path);
  } finally {
    await dir.remove();
  }
}
