// Reads one input file as UTF-8 text, or says why it is skipped: over 1 MiB, or binary
// (contains U+0000 or is not valid UTF-8) (docs/design/providers.md §8.1).
import { readFile, stat } from 'node:fs/promises';

/** Largest file indexed, in bytes (1 MiB); larger files are skipped. */
export const MAX_FILE_BYTES = 1_048_576;

/** A readable text file, or the reason it is skipped. */
export type TextFileResult = { readonly kind: 'text'; readonly text: string; readonly mtimeMs: number; readonly bytes: number } | { readonly kind: 'binary' } | { readonly kind: 'oversize' };

/**
 * Reads a file for indexing.
 *
 * @param path File-system path of a regular file.
 * @returns The text (leading BOM dropped, CRLF and CR turned into LF) with the modification
 *   time in ms and the size in bytes, or `binary` / `oversize`.
 * @throws {Error} From the file system when the file cannot be read.
 */
export async function readTextFile(path: string): Promise<TextFileResult> {
  const info = await stat(path);
  if (info.size > MAX_FILE_BYTES) return { kind: 'oversize' };
  const bytes = await readFile(path);
  // The file may have grown between stat and read.
  if (bytes.byteLength > MAX_FILE_BYTES) return { kind: 'oversize' };
  if (bytes.includes(0)) return { kind: 'binary' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'binary' };
  }
  return { kind: 'text', text: text.replace(/\r\n?/g, '\n'), mtimeMs: info.mtimeMs, bytes: bytes.byteLength };
}
