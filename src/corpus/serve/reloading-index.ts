// The index `corpus serve` answers from, picked up again when the file at `--db` is replaced
// (a re-index renames a new file into place): no restart, and no query fails because of the
// swap (docs/design/providers.md §8.2).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CorpusIndex, type CorpusItem, openCorpusIndex } from './corpus-index.ts';

/** An index that follows its file. */
export interface ReloadingIndex {
  /**
   * Searches the newest index: when the file's identity (device, inode, size, mtime) changed
   * since the last open, the new file is opened first; when it cannot be opened, the old index
   * keeps answering until the file changes again.
   *
   * @param query The user's query.
   * @param limit Most items (1…5).
   * @returns Items best first.
   * @throws {Error} From SQLite when the search fails.
   */
  search(query: string, limit: number): Promise<CorpusItem[]>;
  /**
   * Opens the file at `--db` again now (SIGHUP), whatever its identity: searches that start
   * afterwards use the new index; the old one closes when the searches still running on it end.
   *
   * @throws {CorpusError} `index-unreadable` when the file cannot be opened; the old index keeps answering.
   */
  reopen(): Promise<void>;
  /**
   * Why no search can be answered from the file at `--db` now (`/readyz`,
   * docs/design/providers.md §8.2a): `index-closed` after close(); `index-missing` when no file
   * is there; `index-unreadable` when the file changed and cannot be opened as an index, or the
   * open one no longer reads as one (overwritten in place). A changed file is opened first, as
   * a search would.
   *
   * @returns The reason, or undefined when ready.
   */
  notReadyReason(): Promise<'index-closed' | 'index-missing' | 'index-unreadable' | undefined>;
  /** Closes the open index. */
  close(): void;
}

/**
 * Opens the index at `path` and follows replacements of the file.
 *
 * @param path The `--db` path, as given.
 * @param cwd Directory a relative `path` starts from.
 * @returns The index.
 * @throws {CorpusError} `index-unreadable` when the first open fails (openCorpusIndex).
 * @see docs/design/providers.md §8.2
 *
 * Over 60 lines: a closure over the open index, the file identity it was opened from and the
 * pending re-open, which its four methods share.
 */
export async function openReloadingIndex(path: string, cwd: string): Promise<ReloadingIndex> {
  const file = resolve(cwd, path);
  let seen = identity(file);
  let index: CorpusIndex = await openCorpusIndex(path, cwd);
  let reloading: Promise<void> | undefined;
  let closed = false;
  // The identity whose open failed: the open index is not the file at `--db` any more.
  let failed: string | undefined;
  const refresh = (): Promise<void> | undefined => {
    const now = identity(file);
    if (now === undefined || now === seen) return reloading;
    seen = now;
    reloading ??= openCorpusIndex(path, cwd)
      .then(
        (next) => {
          const old = index;
          if (closed) {
            next.close();
            return;
          }
          index = next;
          failed = undefined;
          // Closes once the searches still running on it end (corpus-index.ts).
          old.close();
        },
        () => {
          failed = now;
        },
      )
      .finally(() => {
        reloading = undefined;
      });
    return reloading;
  };
  return {
    async search(query, limit) {
      const pending = refresh();
      if (pending !== undefined) await pending;
      // The index current at this moment, never one captured before an await.
      return index.search(query, limit);
    },
    async reopen() {
      const now = identity(file);
      let next: CorpusIndex;
      try {
        next = await openCorpusIndex(path, cwd);
      } catch (error) {
        if (now !== undefined) [seen, failed] = [now, now];
        throw error;
      }
      if (closed) {
        next.close();
        return;
      }
      const old = index;
      index = next;
      if (now !== undefined) seen = now;
      failed = undefined;
      old.close();
    },
    async notReadyReason() {
      if (closed) return 'index-closed';
      const now = identity(file);
      if (now === undefined) return 'index-missing';
      if (now !== seen) await refresh();
      if (closed) return 'index-closed';
      if (failed !== undefined && failed === seen) return 'index-unreadable';
      return index.answers() ? undefined : 'index-unreadable';
    },
    close() {
      closed = true;
      index.close();
    },
  };
}

function identity(file: string): string | undefined {
  try {
    const info = statSync(file);
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}
