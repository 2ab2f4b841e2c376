// `check --mcp-config` and `--settings`: the managed files themselves follow the one rule for
// every file the deployment trusts (src/util/trusted-path.ts; issue 25 §6.4), as the same files
// do when named by a launch profile (docs/design/examples.md §8.3).
import { stat } from 'node:fs/promises';
import { trustFacts } from '../runtime/trust-facts.ts';
import { writableByOthers } from '../util/trusted-path.ts';
import { type CheckItem, item, printable } from './check-item.ts';

/**
 * The `<id>` item for a managed file: ok when the file, every folder above it and every link
 * on its path are owned by root or the running user and not group- or world-writable.
 *
 * @param id `mcp-config.file` or `settings.file`.
 * @param filePath The file as given on the command line.
 * @returns `ok`, or `fail` with the fix; undefined when the file does not exist (its own item says so).
 * @see docs/design/config.md §11
 */
export async function managedFileTrustItem(id: string, filePath: string): Promise<CheckItem | undefined> {
  try {
    if (!(await stat(filePath)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const shown = printable(filePath);
  if (await writableByOthers(filePath, trustFacts())) {
    return item(
      id,
      'fail',
      `${shown} can be changed by other users: the file, a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others.`,
      `Anyone who can replace it can change what the agent runs: chown root and chmod go-w '${shown}' and each folder above it.`,
    );
  }
  return item(id, 'ok', `${shown}: only root or its owner can change it or the folders above it.`);
}
