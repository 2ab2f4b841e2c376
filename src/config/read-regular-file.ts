// Reads an administrator file through one descriptor (docs/design/config.md §3): opened once
// without blocking, checked on that descriptor (regular file, size), read from it. Checking a
// path and then reopening it let a swapped link (to a FIFO, say) hang `check` and `serve`; a
// FIFO opened without O_NONBLOCK blocks until a writer appears.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** The bytes, or why the file was refused before or while reading. */
export type RegularFileRead =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array; readonly info: Stats }
  | { readonly kind: 'not-a-file'; readonly why: 'directory' | 'not-regular' | 'refused' }
  | { readonly kind: 'too-large' };

/**
 * Opens `filePath` once (read-only, non-blocking where the platform has O_NONBLOCK), checks the
 * open descriptor, and reads at most `maxBytes + 1` bytes from it.
 *
 * @param filePath Absolute path (symlinks followed).
 * @param maxBytes Largest accepted size, in bytes; exactly this many is accepted.
 * @param refuse An extra rule on the descriptor's `stat` that makes the file `not-a-file`.
 * @returns `not-a-file` for anything but a regular file (or refused by `refuse`), `too-large`
 *   above `maxBytes` (by `stat`, or because the file grew), else the bytes and the `stat`.
 * @throws The open, stat or read error (its `code` tells ENOENT apart).
 * @see docs/design/config.md §3
 */
export async function readRegularFile(filePath: string, maxBytes: number, refuse?: (info: Stats) => boolean): Promise<RegularFileRead> {
  // A trailing separator names a directory: POSIX open fails with ENOTDIR on a file, as Bun and
  // Node.js report, but Deno opened the file anyway. Refused the same way on every runtime.
  if (/[\\/]$/.test(filePath)) throw Object.assign(new Error('The path ends with a separator.'), { code: 'ENOTDIR' });
  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
  const handle = await open(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { kind: 'not-a-file', why: 'directory' };
    if (!info.isFile()) return { kind: 'not-a-file', why: 'not-regular' };
    if (refuse?.(info) === true) return { kind: 'not-a-file', why: 'refused' };
    if (info.size > maxBytes) return { kind: 'too-large' };
    const limit = maxBytes + 1;
    const buffer = new Uint8Array(limit);
    let total = 0;
    while (total < limit) {
      const { bytesRead } = await handle.read(buffer, total, limit - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total > maxBytes) return { kind: 'too-large' };
    return { kind: 'ok', bytes: buffer.subarray(0, total), info };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
