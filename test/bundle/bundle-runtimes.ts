// What the bundle tests expect of every build output: the version line, the command names and
// the unknown-command line. How each runtime is started is test/support/launchers.ts (issue 26
// §3); its launchers are re-exported here for the files that still import them from this one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

export { type BundleLauncher, DENO_BASE_PERMISSIONS, denoLauncher, nodeLauncher, requireBundle } from '../support/launchers.ts';

/** The package version from package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The `--version` line of a build: `external-context <version> (commit <12 hex>|unknown)`. */
export function versionLinePattern(): RegExp {
  return new RegExp(`^external-context ${packageVersion().replaceAll('.', '\\.')} \\(commit ([0-9a-f]{12}|unknown)\\)\\n$`);
}

/** Every top-level command of the spec README's table, in `--help` order. */
export const COMMAND_NAMES: readonly string[] = ['serve', 'hook', 'check', 'eval', 'probe', 'gateway', 'launch', 'corpus', 'conformance'];

/** The exact stderr of an unknown command (spec README, "Commands, exit codes and runtimes"). */
export function unknownCommandLine(typed: string, suggestion?: string): string {
  return suggestion === undefined
    ? `[external-context] Unknown command "${typed}". Run "external-context --help".\n`
    : `[external-context] Unknown command "${typed}". Did you mean "${suggestion}"?\n`;
}
