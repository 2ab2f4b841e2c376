// Reading the configuration file: a regular file of at most 64 KiB, strict UTF-8, JSON
// (docs/design/config.md §3). Messages never include the path, the contents or a parser message.
import { ConfigError } from './config-error.ts';
import { type JsonFileRules, readJsonFile } from './read-json-file.ts';

/** Largest accepted configuration file, in bytes (64 KiB). */
export const MAX_CONFIG_BYTES = 65536;

const CONFIG_FILE_RULES: JsonFileRules = {
  maxBytes: MAX_CONFIG_BYTES,
  messages: {
    notAFile: 'External context config is not a valid file.',
    unreadable: 'External context config could not be read.',
    notJson: 'External context config is not valid JSON.',
  },
  // docs/design/config.md §3: the message names the file and why (the path is the administrator's own).
  toError: (message, cause, detail) => new ConfigError(`${message.slice(0, -1)}: ${detail}.`, undefined, { cause }),
};

/**
 * Reads and parses a JSON file under the configuration rules.
 *
 * @param filePath Absolute path (already checked by locateConfig).
 * @returns The parsed JSON value (any type; the schema checks it).
 * @throws {ConfigError} Not a regular file or over 65,536 bytes; unreadable; invalid UTF-8 or JSON.
 * @see docs/design/config.md §3
 */
export function readConfigJson(filePath: string): Promise<unknown> {
  return readJsonFile(filePath, CONFIG_FILE_RULES);
}
