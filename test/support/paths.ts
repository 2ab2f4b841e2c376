// Absolute paths of the build outputs and tools that process-level tests run.
import { existsSync } from 'node:fs';
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

/**
 * A build output's path, after checking that it exists. No tier is dropped silently: a missing
 * `dist/` file fails the run and names the command that makes it (the rule the fixture gates
 * of test/support/fixture-tier.ts follow).
 *
 * @param file An absolute path under `dist/` (`exePath()`, `bundlePath()`).
 * @returns `file`.
 * @throws Error `<file> is missing: run npm run build (npm test builds it in pretest).`
 */
export function requireBuilt(file: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build (npm test builds it in pretest).`);
  return file;
}

/**
 * A build output's `--help` text as the source module exports it: the first line of a built
 * program names the commit it was built from (`external-context 0.1.0 (commit 0123456789ab)`),
 * the source's `help` says `(commit unknown)`. Only that first-line commit is replaced.
 *
 * @param text The program's stdout.
 * @returns `text` with a 12-hex-digit commit on its first line turned into `unknown`.
 */
export function withSourceCommit(text: string): string {
  return text.replace(/^(external-context \S+) \(commit [0-9a-f]{12}\)\n/, '$1 (commit unknown)\n');
}
