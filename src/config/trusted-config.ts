// The configuration is a file the deployment trusts: it picks the corpus and the credential, so
// the rule of every trusted file applies to it (src/util/trusted-path.ts; docs/design/config.md §2).
import { stat } from 'node:fs/promises';
import { type TrustFacts, writableByOthers } from '../util/trusted-path.ts';
import { ConfigError } from './config-error.ts';

/** docs/design/config.md §2: the configuration, a folder above it or a link on its path can be changed by other users. */
export const UNTRUSTED_CONFIG_MESSAGE =
  'External context configuration can be changed by other users: the file, a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others. Run external-context check for the fix.';

/**
 * Whether other users can change the configuration file.
 *
 * @param configPath The absolute configuration path.
 * @param facts The running user and working directory. When the user is unknown (Deno without
 *   `--allow-sys`), the file's own owner stands in for it: the folders and links are still judged.
 * @returns True when the file, a folder above it or a link on its path fails the rule.
 */
export async function configWritableByOthers(configPath: string, facts: TrustFacts): Promise<boolean> {
  let judged = facts;
  if (facts.uid === -1 && !facts.windows) {
    try {
      judged = { ...facts, uid: (await stat(configPath)).uid };
    } catch {
      return true;
    }
  }
  return writableByOthers(configPath, judged);
}

/**
 * Refuses a configuration other users can change (issue 25 §4.3).
 *
 * @param configPath The absolute configuration path of the loaded binding.
 * @param facts The running user and working directory.
 * @throws {ConfigError} {@link UNTRUSTED_CONFIG_MESSAGE}.
 * @see docs/design/config.md §2
 */
export async function refuseUntrustedConfig(configPath: string, facts: TrustFacts): Promise<void> {
  if (await configWritableByOthers(configPath, facts)) throw new ConfigError(UNTRUSTED_CONFIG_MESSAGE);
}
