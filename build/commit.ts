// The commit embedded in `--version` (src/version.ts): 12 hex digits of HEAD, or none when the
// tree being built is not itself a git checkout (a tarball unpacked inside another repository
// must not borrow that repository's commit).
import { realpathSync } from 'node:fs';

const COMMIT_DIGITS = 12;

/**
 * Reads the commit of the checkout rooted at `rootDir`.
 *
 * @param rootDir Absolute path of the repository root.
 * @returns The first 12 lowercase hex digits of HEAD, or undefined when `rootDir` is not the
 *   top level of a git checkout, git is missing, or HEAD has no commit yet.
 */
export function readBuildCommit(rootDir: string): string | undefined {
  const topLevel = git(rootDir, ['rev-parse', '--show-toplevel']);
  if (topLevel === undefined || !sameDirectory(topLevel, rootDir)) return undefined;
  const head = git(rootDir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head === undefined || !/^[0-9a-f]{40,64}$/.test(head)) return undefined;
  return head.slice(0, COMMIT_DIGITS);
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    const result = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'ignore', stdin: 'ignore' });
    return result.exitCode === 0 ? result.stdout.toString().trim() : undefined;
  } catch {
    // git is not installed: a build outside a checkout prints `(commit unknown)`.
    return undefined;
  }
}

function sameDirectory(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
