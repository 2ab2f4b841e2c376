// Where the configuration file is: `--config` first, then QWEN_EXTERNAL_CONTEXT_CONFIG,
// both absolute; a conflict stops the process (docs/design/config.md §2).
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { ownEnv } from '../util/own-env.ts';

/** The environment variable that names the configuration file. */
export const CONFIG_ENV = 'QWEN_EXTERNAL_CONTEXT_CONFIG';

/**
 * How `--config` appeared on the command line: absent (`undefined`), given without a value
 * (`null`), or given with a value (the string, possibly empty).
 */
/** Neither `--config` nor the variable was given (docs/design/config.md §2). */
export const NO_CONFIGURATION = 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.';

export type ConfigFlag = string | null | undefined;

/**
 * Picks the configuration path.
 *
 * @param flag The `--config` flag as parsed.
 * @param env The environment; QWEN_EXTERNAL_CONTEXT_CONFIG is read as an own property.
 * @returns The path as the operator gave it.
 * @throws {ConfigError} With the exact messages of docs/design/config.md §2.
 */
export function locateConfig(flag: ConfigFlag, env: Readonly<Record<string, string | undefined>>): string {
  const variable = ownEnv(env, CONFIG_ENV);
  if (flag !== undefined) {
    if (flag === null || flag === '' || !path.isAbsolute(flag)) {
      throw new ConfigError('--config must name an absolute file path.');
    }
    if (typeof variable === 'string' && variable !== '' && path.resolve(variable) !== path.resolve(flag)) {
      throw new ConfigError('--config and QWEN_EXTERNAL_CONTEXT_CONFIG name different files.');
    }
    return flag;
  }
  if (typeof variable !== 'string' || variable === '') throw new ConfigError(NO_CONFIGURATION);
  if (!path.isAbsolute(variable)) throw new ConfigError('QWEN_EXTERNAL_CONTEXT_CONFIG must name an absolute file path.');
  return variable;
}
