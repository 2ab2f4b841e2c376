// Absolute paths of the build outputs and tools that process-level tests run.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two levels above this file). */
export const REPO_ROOT: string = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * The host executable `npm run build` writes: `dist/external-context`, or
 * `dist/external-context.exe` on Windows.
 *
 * @returns An absolute path; the file may not exist yet (tests check or build first).
 */
export function exePath(): string {
  return join(REPO_ROOT, 'dist', process.platform === 'win32' ? 'external-context.exe' : 'external-context');
}

/** The single-file ESM bundle `dist/external-context.mjs` (absolute path). */
export function bundlePath(): string {
  return join(REPO_ROOT, 'dist', 'external-context.mjs');
}

/**
 * A tool installed by the root package, from `node_modules/.bin` (`bun`, `deno`, `tsc`).
 *
 * @param name The binary name without extension.
 */
export function binPath(name: string): string {
  return join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
}
