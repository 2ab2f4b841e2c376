// A minimal child-process environment, so the parent's proxy, config and credential variables
// never reach a process under test by accident.

const PASSED_THROUGH = ['PATH', 'HOME', 'USERPROFILE', 'SYSTEMROOT', 'SystemRoot', 'TEMP', 'TMP', 'TMPDIR', 'LANG'] as const;

/**
 * The parent's PATH, HOME, temporary-directory and locale variables (when set) plus `extra`.
 * Nothing else is inherited: no `*_PROXY`, no `QWEN_EXTERNAL_CONTEXT_CONFIG`, no credentials.
 *
 * @param extra Variables to add or override; an `undefined` value removes the variable.
 */
export function cleanEnv(extra: Readonly<Record<string, string | undefined>> = {}): Record<string, string> {
  // The per-user Hook log (docs/design/hooks.md §7.1) stays off: no Hook under test writes into the
  // runner's home, and check's hook-log item reads no file of the runner's.
  const env: Record<string, string> = { EXTERNAL_CONTEXT_HOOK_LOG: 'off' };
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
