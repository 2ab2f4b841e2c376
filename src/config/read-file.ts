// Reading the configuration file: a regular file of at most 64 KiB, strict UTF-8, JSON
// (config.md §3). Messages never include the path, the contents or a parser message.
import { open, stat } from 'node:fs/promises';
import { ConfigError } from './config-error.ts';

/** Largest accepted configuration file, in bytes (64 KiB). */
export const MAX_CONFIG_BYTES = 65536;

const NOT_A_FILE = 'External context config is not a valid file.';
const UNREADABLE = 'External context config could not be read.';
const NOT_JSON = 'External context config is not valid JSON.';

/**
 * Reads and parses a JSON file under the configuration rules.
 *
 * @param filePath Absolute path (already checked by locateConfig).
 * @returns The parsed JSON value (any type; the schema checks it).
 * @throws {ConfigError} Not a regular file or over 65,536 bytes; unreadable; invalid UTF-8 or JSON.
 * @see config.md §3
 */
export async function readConfigJson(filePath: string): Promise<unknown> {
  let info;
  try {
    info = await stat(filePath);
  } catch (error) {
    throw new ConfigError(UNREADABLE, undefined, { cause: error });
  }
  if (!info.isFile() || info.size > MAX_CONFIG_BYTES) throw new ConfigError(NOT_A_FILE);
  const bytes = await readAtMost(filePath, MAX_CONFIG_BYTES + 1);
  // The file grew after stat.
  if (bytes.byteLength > MAX_CONFIG_BYTES) throw new ConfigError(NOT_A_FILE);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new ConfigError(NOT_JSON, undefined, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(NOT_JSON, undefined, { cause: error });
  }
}

async function readAtMost(filePath: string, limitBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    throw new ConfigError(UNREADABLE, undefined, { cause: error });
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
    throw new ConfigError(UNREADABLE, undefined, { cause: error });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
