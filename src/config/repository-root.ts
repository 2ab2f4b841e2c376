// The auto-recall repository root: absolute, resolvable, a directory, not a file-system
// root; stored canonical so the Hook can compare canonical paths (docs/design/config.md §7.2).
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { fileErrorCause } from './read-json-file.ts';

/** The step-5 message with the rule that failed (docs/design/config.md §7.2). */
function invalid(reason: string, cause?: unknown): ConfigError {
  return new ConfigError(`External context repository root is invalid: ${reason}. Field: autoRecall.repositoryRoot.`, 'autoRecall.repositoryRoot', { cause });
}

/**
 * Canonicalizes `autoRecall.repositoryRoot`.
 *
 * @param root The configured root.
 * @returns The symlink-resolved absolute directory path.
 * @throws {ConfigError} If any rule of docs/design/config.md §7.2 fails (one message for all).
 */
export async function resolveRepositoryRoot(root: string): Promise<string> {
  if (!path.isAbsolute(root)) throw invalid('it must be an absolute path');
  let canonical: string;
  try {
    canonical = await realpath(root);
  } catch (error) {
    const cause = fileErrorCause(error);
    throw invalid(cause.startsWith('not found') ? 'it does not exist' : `it cannot be resolved (${cause})`, error);
  }
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(canonical)).isDirectory();
  } catch (error) {
    throw invalid(`it cannot be resolved (${fileErrorCause(error)})`, error);
  }
  if (!isDirectory) throw invalid('it is not a directory');
  if (path.parse(canonical).root === canonical) throw invalid('it must not be a file-system root');
  return canonical;
}
