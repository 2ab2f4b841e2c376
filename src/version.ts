// Product version and build commit. The version is kept equal to package.json (a test checks
// it); the commit is substituted by build/build.ts through `--define` at build time.

declare const EXTERNAL_CONTEXT_BUILD_COMMIT: string | undefined;

/** Bare package version, as sent in MCP `serverInfo.version` and the `user-agent` header. */
export const VERSION = '0.1.0';

/** The 12-hex-digit build commit, or `unknown` for a run from source or a build outside git. */
export const COMMIT: string = typeof EXTERNAL_CONTEXT_BUILD_COMMIT === 'string' && /^[0-9a-f]{12}$/.test(EXTERNAL_CONTEXT_BUILD_COMMIT) ? EXTERNAL_CONTEXT_BUILD_COMMIT : 'unknown';

/** The `--version` line: `external-context <version> (commit <12 hex digits>|unknown)`. */
export function versionLine(): string {
  return `external-context ${VERSION} (commit ${COMMIT})`;
}
