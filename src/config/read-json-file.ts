// Reading an administrator's JSON file: a regular file under a byte cap, strict UTF-8 with one
// optional byte-order mark, JSON (docs/design/config.md §3). The configuration and the launch profile
// (docs/design/examples.md §8.2) both follow these rules; each supplies its own messages and error class.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { jsonErrorPosition } from './json-error-position.ts';
import { printable } from '../util/printable.ts';

/** The three failures a reader names; the text of each is the caller's. */
export interface JsonFileMessages {
  /** Not a regular file, over the cap, or refused by `refuseStat`. */
  readonly notAFile: string;
  /** A `stat`, open or read error. */
  readonly unreadable: string;
  /** Invalid UTF-8 or invalid JSON. */
  readonly notJson: string;
}

/** What one kind of administrator file differs in. */
export interface JsonFileRules {
  /** Largest accepted file, in bytes; exactly this many bytes is accepted. */
  readonly maxBytes: number;
  readonly messages: JsonFileMessages;
  /**
   * Builds the caller's error from one of `messages`; `cause` is undefined for `notAFile`.
   * `detail` is `<path>: <why>` (`not found`, `permission denied`, `is a directory`, `larger
   * than 64 KiB`, `line 3, column 5`, …), for callers whose messages name the file.
   */
  readonly toError: (message: string, cause: unknown, detail: string) => Error;
  /** An extra rule on the `stat` result that makes the file `notAFile` when it returns true. */
  readonly refuseStat?: (info: Stats) => boolean;
}

/**
 * Why a file cannot be read, from a failed `stat`, `open` or `realpath`: `not found`,
 * `not found (a parent is not a directory)`, `permission denied`, `is a directory`,
 * `too many symbolic links`, `invalid path`, `system error <code>` (the code only, never the
 * error's message), or `unknown error`.
 */
export function fileErrorCause(error: unknown): string {
  const code = error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';
  switch (code) {
    case 'ENOENT':
    case 'NotFound':
      return 'not found';
    case 'EACCES':
    case 'EPERM':
    case 'PermissionDenied':
      return 'permission denied';
    case 'EISDIR':
    case 'IsADirectory':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not found (a parent is not a directory)';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
      return 'invalid path';
    default:
      return /^[A-Za-z]{2,20}$/.test(code) ? `system error ${code}` : 'unknown error';
  }
}

/**
 * Reads and parses a JSON file under the administrator-file rules.
 *
 * Messages never include the contents or a parser message: only the caller's three texts,
 * and the `detail` (the path and a fixed cause) the caller may append.
 *
 * @param filePath Absolute path (the caller has checked it).
 * @param rules The byte cap, messages, error class and any extra `stat` rule.
 * @returns The parsed JSON value (any type; the caller's schema checks it).
 * @throws The error `rules.toError` builds: `notAFile` when the path is not a regular file
 *   (symlinks followed), exceeds `maxBytes` (also when it grew after `stat`) or `refuseStat`
 *   refuses it; `unreadable` for a `stat`, open or read error; `notJson` for invalid UTF-8 or JSON.
 * @see docs/design/config.md §3; docs/design/examples.md §8.2
 */
export async function readJsonFile(filePath: string, rules: JsonFileRules): Promise<unknown> {
  const { maxBytes, messages, toError } = rules;
  const shown = printable(filePath);
  const tooLarge = `${shown}: larger than ${maxBytes % 1024 === 0 ? `${maxBytes / 1024} KiB` : `${maxBytes} bytes`}`;
  let info;
  try {
    info = await stat(filePath);
  } catch (error) {
    throw toError(messages.unreadable, error, `${shown}: ${fileErrorCause(error)}`);
  }
  if (info.isDirectory()) throw toError(messages.notAFile, undefined, `${shown}: is a directory`);
  if (!info.isFile()) throw toError(messages.notAFile, undefined, `${shown}: not a regular file`);
  if (info.size > maxBytes) throw toError(messages.notAFile, undefined, tooLarge);
  if (rules.refuseStat?.(info) === true) throw toError(messages.notAFile, undefined, `${shown}: writable by other users`);
  const bytes = await readAtMost(filePath, maxBytes + 1, rules, shown);
  // The file grew after stat.
  if (bytes.byteLength > maxBytes) throw toError(messages.notAFile, undefined, tooLarge);
  let text: string;
  try {
    // Fatal decoding; one leading byte-order mark is dropped (ignoreBOM: false).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw toError(messages.notJson, error, `${shown}: not UTF-8`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const { line, column } = jsonErrorPosition(text);
    throw toError(messages.notJson, error, `${shown}: line ${line}, column ${column}`);
  }
}

async function readAtMost(filePath: string, limitBytes: number, rules: JsonFileRules, shown: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    throw rules.toError(rules.messages.unreadable, error, `${shown}: ${fileErrorCause(error)}`);
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
    throw rules.toError(rules.messages.unreadable, error, `${shown}: ${fileErrorCause(error)}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
