// How the bundle tests start dist/external-context.mjs: under the real Deno of the root
// package with the base permissions, and under the real Node.js on PATH (spec README, "Runtimes").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { binPath, bundlePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';

/** The base Deno permissions every command runs with (spec README, "Deno permissions"). */
export const DENO_BASE_PERMISSIONS: readonly string[] = ['--no-prompt', '--allow-read', '--allow-env', '--allow-net'];

/** A runtime and the leading arguments that run the bundle. */
export interface BundleLauncher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * `deno run <permissions> dist/external-context.mjs`.
 *
 * @param permissions The permission flags (default: the base set).
 */
export function denoLauncher(permissions: readonly string[] = DENO_BASE_PERMISSIONS): BundleLauncher {
  return { label: `deno run ${permissions.join(' ')}`, command: binPath('deno'), args: ['run', ...permissions, requireBundle()] };
}

/** `node dist/external-context.mjs`, with the `node` found on PATH. */
export function nodeLauncher(): BundleLauncher {
  return { label: 'node', command: Bun.which('node') ?? 'node', args: [requireBundle()] };
}

/**
 * The bundle's path, after checking that it exists.
 *
 * @throws {Error} If `npm run build` (or the pretest step of `npm test`) has not written it.
 */
export function requireBundle(): string {
  return requireBuilt(bundlePath());
}

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
