// Reading an administrator's JSON file: a regular file under a byte cap, strict UTF-8 with one
// optional byte-order mark, JSON (docs/design/config.md §3). The configuration and the launch profile
// (docs/design/examples.md §8.2) both follow these rules; each supplies its own messages and error class.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';

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
  /** Builds the caller's error from one of `messages`; `cause` is undefined for `notAFile`. */
  readonly toError: (message: string, cause: unknown) => Error;
  /** An extra rule on the `stat` result that makes the file `notAFile` when it returns true. */
  readonly refuseStat?: (info: Stats) => boolean;
}

/**
 * Reads and parses a JSON file under the administrator-file rules.
 *
 * Messages never include the path, the contents or a parser message: only the caller's three
 * texts are used.
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
  let info;
  try {
    info = await stat(filePath);
  } catch (error) {
    throw toError(messages.unreadable, error);
  }
  if (!info.isFile() || info.size > maxBytes || rules.refuseStat?.(info) === true) throw toError(messages.notAFile, undefined);
  const bytes = await readAtMost(filePath, maxBytes + 1, rules);
  // The file grew after stat.
  if (bytes.byteLength > maxBytes) throw toError(messages.notAFile, undefined);
  let text: string;
  try {
    // Fatal decoding; one leading byte-order mark is dropped (ignoreBOM: false).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw toError(messages.notJson, error);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw toError(messages.notJson, error);
  }
}

async function readAtMost(filePath: string, limitBytes: number, rules: JsonFileRules): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    throw rules.toError(rules.messages.unreadable, error);
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
    throw rules.toError(rules.messages.unreadable, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
