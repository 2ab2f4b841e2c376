// Reading the launch profile like the configuration file (config.md §3), plus the POSIX rule
// that no other user may write it (examples.md §8.2). Messages never include the path or contents.
import { open, stat } from 'node:fs/promises';
import { isWritableByOthers } from './file-checks.ts';
import { LaunchProfileError } from './launch-profile-error.ts';

/** Largest accepted launch profile, in bytes (64 KiB). */
export const MAX_LAUNCH_PROFILE_BYTES = 65536;

const NOT_A_FILE = 'External context launch profile is not a valid file.';
const UNREADABLE = 'External context launch profile could not be read.';
const NOT_JSON = 'External context launch profile is not valid JSON.';

/**
 * Reads and parses the launch profile.
 *
 * @param filePath Absolute path from `--profile`.
 * @returns The parsed JSON value (any type; the schema checks it).
 * @throws {LaunchProfileError} Not a regular file, over 65,536 bytes or (POSIX) writable by
 *   other users; a `stat` or read error; invalid UTF-8 or JSON.
 * @see examples.md §8.2
 */
export async function readLaunchProfile(filePath: string): Promise<unknown> {
  let info;
  try {
    info = await stat(filePath);
  } catch (error) {
    throw new LaunchProfileError(UNREADABLE, undefined, { cause: error });
  }
  if (!info.isFile() || info.size > MAX_LAUNCH_PROFILE_BYTES || isWritableByOthers(info.mode)) {
    throw new LaunchProfileError(NOT_A_FILE);
  }
  const bytes = await readAtMost(filePath, MAX_LAUNCH_PROFILE_BYTES + 1);
  // The file grew after stat.
  if (bytes.byteLength > MAX_LAUNCH_PROFILE_BYTES) throw new LaunchProfileError(NOT_A_FILE);
  let text: string;
  try {
    // Fatal decoding; one leading byte-order mark is dropped (ignoreBOM: false).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new LaunchProfileError(NOT_JSON, undefined, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new LaunchProfileError(NOT_JSON, undefined, { cause: error });
  }
}

async function readAtMost(filePath: string, limitBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    throw new LaunchProfileError(UNREADABLE, undefined, { cause: error });
  }
  try {
    const buffer = new Uint8Array(limitBytes);
    let total = 0;
    while (total < limitBytes) {
      const { bytesRead } = await handle.read(buffer, total, limitBytes - total, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return buffer.subarray(0, total);
  } catch (error) {
    throw new LaunchProfileError(UNREADABLE, undefined, { cause: error });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
