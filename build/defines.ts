// Build-time constants substituted into src/ (src/version.ts declares them).

/**
 * The `define` map for Bun.build.
 *
 * @param commit 12 hex digits, or undefined to leave the constant undeclared so that
 *   src/version.ts reports `(commit unknown)`.
 * @returns Identifier → JavaScript expression source.
 */
export function commitDefines(commit: string | undefined): Record<string, string> {
  return commit === undefined ? {} : { EXTERNAL_CONTEXT_BUILD_COMMIT: JSON.stringify(commit) };
}
