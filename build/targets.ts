// Where the build writes and what it names each artifact (docs/design/README.md, "Product shape").
// Every path is absolute, derived from this file's location, so the scripts run from any cwd.
import path from 'node:path';

/** Repository root (the folder holding package.json). */
export const ROOT_DIR: string = path.resolve(import.meta.dir, '..');

/** Output folder, ignored by git. */
export const DIST_DIR: string = path.join(ROOT_DIR, 'dist');

/** The one entry point of both build outputs. */
export const ENTRY_FILE: string = path.join(ROOT_DIR, 'src', 'main.ts');

/** File name of the single-file ESM bundle for Deno and Node.js. */
export const BUNDLE_NAME = 'external-context.mjs';

/** File name of the executable for the machine running the build. */
export const HOST_EXECUTABLE_NAME: string = process.platform === 'win32' ? 'external-context.exe' : 'external-context';

/** One cross-compiled executable: Bun's compile target and the file it becomes. */
export interface CrossTarget {
  /** Bun `--target` value; Bun fetches that runtime from the npm registry once. */
  readonly bunTarget: 'bun-linux-x64' | 'bun-linux-arm64' | 'bun-darwin-x64' | 'bun-darwin-arm64' | 'bun-windows-x64';
  /** File name under dist/. */
  readonly fileName: string;
}

/** The cross-compiled executables of `build:all`, in the order they are built and listed. */
export const CROSS_TARGETS: readonly CrossTarget[] = [
  { bunTarget: 'bun-linux-x64', fileName: 'external-context-linux-x64' },
  { bunTarget: 'bun-linux-arm64', fileName: 'external-context-linux-arm64' },
  { bunTarget: 'bun-darwin-x64', fileName: 'external-context-darwin-x64' },
  { bunTarget: 'bun-darwin-arm64', fileName: 'external-context-darwin-arm64' },
  { bunTarget: 'bun-windows-x64', fileName: 'external-context-windows-x64.exe' },
];

/** Checksum file of `build:all`, GNU `sha256sum` format with bare file names. */
export const CHECKSUMS_NAME = 'SHA256SUMS';

/** Stamp recording the commit the host executable and bundle were built from (for `--if-stale`). */
export const COMMIT_STAMP_NAME = '.build-commit';

/** Paths whose modification makes the host executable and bundle stale (docs/design/README.md, `npm test`). */
export const STALENESS_INPUTS: readonly string[] = [
  path.join(ROOT_DIR, 'src'),
  path.join(ROOT_DIR, 'contracts'),
  path.join(ROOT_DIR, 'build'),
  path.join(ROOT_DIR, 'package.json'),
  path.join(ROOT_DIR, 'package-lock.json'),
];
