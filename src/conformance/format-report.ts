// The conformance report (docs/design/remote.md §2.3): one line per check, or one JSON object.
import { stringifyEscaped } from '../contract/escape.ts';
import type { CheckResult } from './check-result.ts';

/**
 * The text report.
 *
 * @param results Every check, in order.
 * @returns `PASS|FAIL|WARN <check>: <reason>` lines, each ending in `\n`.
 * @see docs/design/remote.md §2.3
 */
export function formatTextReport(results: readonly CheckResult[]): string {
  return results.map((result) => `${result.status} ${result.name}: ${result.reason}\n`).join('');
}

/**
 * The `--json` report.
 *
 * @param results Every check, in order.
 * @returns `{"ok", "checks": [{"name", "status", "reason"}]}` with 2-space indentation, `<`
 *   and `>` written as `\u003c` and `\u003e`, and a trailing newline. `ok` is true when no
 *   check failed.
 * @see docs/design/remote.md §2.3
 */
export function formatJsonReport(results: readonly CheckResult[]): string {
  const checks = results.map(({ name, status, reason }) => ({ name, status, reason }));
  return `${stringifyEscaped({ ok: !results.some((result) => result.status === 'FAIL'), checks }, 2)}\n`;
}
