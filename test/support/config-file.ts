// Writes configuration (or any JSON/text) files for tests into temporary directories.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.ts';

/** Where and how {@link writeConfigFile} writes. */
export interface WriteConfigOptions {
  /** Target directory (default: a new temporary directory, removed by `removeTempDirs()`). */
  readonly dir?: string;
  /** File name (default `config.json`). */
  readonly name?: string;
}

/**
 * Writes a configuration file. An object is written as `JSON.stringify(value, null, 2)`; a
 * string or bytes are written verbatim (for malformed or oversized files).
 *
 * @returns The absolute path of the file.
 */
export async function writeConfigFile(config: unknown, options: WriteConfigOptions = {}): Promise<string> {
  const dir = options.dir ?? (await makeTempDir('ec-config-')).path;
  const path = join(dir, options.name ?? 'config.json');
  const data = typeof config === 'string' || config instanceof Uint8Array ? config : `${JSON.stringify(config, null, 2)}\n`;
  await writeFile(path, data);
  return path;
}
