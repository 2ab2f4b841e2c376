// The process facts the trusted-file rule needs (src/util/trusted-path.ts): the running user,
// the working directory and the platform, read here because only runtime/ reads `process`.
import process from 'node:process';
import type { TrustFacts } from '../util/trusted-path.ts';

/**
 * This process's {@link TrustFacts}.
 *
 * @returns `uid` -1 when the runtime does not tell it (Deno without `--allow-sys` may refuse
 *   `getuid`); `cwd` `/` when the working directory is gone.
 */
export function trustFacts(): TrustFacts {
  let uid = -1;
  try {
    uid = process.getuid?.() ?? -1;
  } catch {
    // Deno without --allow-sys: see refuseUntrustedConfig, which then judges by the file's owner.
  }
  let cwd = '/';
  try {
    cwd = process.cwd();
  } catch {
    // A deleted working directory: the configuration path is absolute anyway.
  }
  return { uid, cwd, windows: process.platform === 'win32' };
}
