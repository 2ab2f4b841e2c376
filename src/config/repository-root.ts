// The auto-recall repository root: absolute, resolvable, a directory, not a file-system
// root; stored canonical so the Hook can compare canonical paths (docs/design/config.md §7.2).
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config-error.ts';

const MESSAGE = 'External context repository root is invalid. Field: autoRecall.repositoryRoot.';

/**
 * Canonicalizes `autoRecall.repositoryRoot`.
 *
 * @param root The configured root.
 * @returns The symlink-resolved absolute directory path.
 * @throws {ConfigError} If any rule of docs/design/config.md §7.2 fails (one message for all).
 */
export async function resolveRepositoryRoot(root: string): Promise<string> {
  if (!path.isAbsolute(root)) throw new ConfigError(MESSAGE, 'autoRecall.repositoryRoot');
  let canonical: string;
  try {
    canonical = await realpath(root);
    if (!(await stat(canonical)).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new ConfigError(MESSAGE, 'autoRecall.repositoryRoot', { cause: error });
  }
  if (path.parse(canonical).root === canonical) throw new ConfigError(MESSAGE, 'autoRecall.repositoryRoot');
  return canonical;
}
