// Reading one managed file for `check` (docs/design/config.md §11): an absolute path, at most
// 1 MiB, JSON without duplicate keys. The cause of a failure is a fixed text, never the contents.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileErrorCause, type JsonFileRules, readJsonFile } from '../config/read-json-file.ts';

/** Largest managed file read, in bytes (1 MiB: settings files grow with unrelated keys). */
const MAX_MANAGED_FILE_BYTES = 1_048_576;

class ManagedFileError extends Error {}

/** Reads a managed JSON file; the error message names the cause, never the contents. */
async function readManagedJson(filePath: string): Promise<unknown> {
  if (!path.isAbsolute(filePath)) throw new ManagedFileError('is not an absolute path');
  try {
    await stat(filePath);
  } catch (error) {
    throw new ManagedFileError(fileErrorCause(error));
  }
  const rules: JsonFileRules = {
    maxBytes: MAX_MANAGED_FILE_BYTES,
    messages: { notAFile: 'is not a regular file of at most 1 MiB', unreadable: 'could not be read', notJson: 'is not valid JSON', duplicateKey: (field) => `has a duplicate key: ${field}` },
    toError: (message, cause) => new ManagedFileError(message === 'could not be read' ? fileErrorCause(cause) : message),
  };
  return readJsonFile(filePath, rules);
}

/**
 * Reads a managed file, or says why not.
 *
 * @param filePath The path as given on the command line.
 * @returns The parsed JSON, or the cause: one of the fixed texts above, never a raw message.
 */
export async function readManagedFile(filePath: string): Promise<{ readonly value: unknown } | { readonly cause: string }> {
  try {
    return { value: await readManagedJson(filePath) };
  } catch (error) {
    return { cause: error instanceof ManagedFileError ? error.message : 'could not be read' };
  }
}
