// Reading the launch profile like the configuration file (docs/design/config.md §3), plus the POSIX rule
// that no other user may write it (docs/design/examples.md §8.2). Messages never include the path or contents.
import { stat } from 'node:fs/promises';
import { type JsonFileRules, readJsonFile } from '../config/read-json-file.ts';
import { writableByOthers } from './file-checks.ts';
import { LaunchProfileError } from './launch-profile-error.ts';

/** Largest accepted launch profile, in bytes (64 KiB). */
export const MAX_LAUNCH_PROFILE_BYTES = 65536;

const LAUNCH_PROFILE_RULES: JsonFileRules = {
  maxBytes: MAX_LAUNCH_PROFILE_BYTES,
  messages: {
    notAFile: 'External context launch profile is not a valid file.',
    unreadable: 'External context launch profile could not be read.',
    notJson: 'External context launch profile is not valid JSON.',
  },
  toError: (message, cause) => new LaunchProfileError(message, undefined, { cause }),
};

/** The profile, or a folder above it, can be changed by another user (docs/design/examples.md §8.2). */
export const PROFILE_WRITABLE_MESSAGE = 'External context launch profile must not be writable by other users.';

/**
 * Reads and parses the launch profile.
 *
 * @param filePath Absolute path from `--profile`.
 * @returns The parsed JSON value (any type; the schema checks it).
 * @throws {LaunchProfileError} Not a regular file or over 65,536 bytes; (POSIX) a regular file
 *   other users can change, itself or through a folder above it ({@link PROFILE_WRITABLE_MESSAGE});
 *   a `stat` or read error; invalid UTF-8 or JSON.
 * @see docs/design/examples.md §8.2
 */
export async function readLaunchProfile(filePath: string): Promise<unknown> {
  // A missing or non-regular file is left to readJsonFile, which names it.
  const info = await stat(filePath).catch(() => undefined);
  if (info?.isFile() === true && (await writableByOthers(filePath))) throw new LaunchProfileError(PROFILE_WRITABLE_MESSAGE);
  return readJsonFile(filePath, LAUNCH_PROFILE_RULES);
}
