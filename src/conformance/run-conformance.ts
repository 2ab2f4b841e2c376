// The conformance run (docs/design/remote.md §2.2): connect, then every Profile v1 check over the
// one session under the overall budget, then close. cli/conformance.ts parses the flags, builds
// `connect` and prints the report; the checks and Ajv load only once the command line is valid.
import { type CheckResult, PASS_REASON } from './check-result.ts';
import type { ConnectOutcome } from './conformance-session.ts';

/**
 * Every check against one server: `connect` first; when it fails, no other check runs. The
 * session is closed before this returns.
 *
 * @param connect Opens the connection (stdio child, Streamable HTTP, or an in-memory pair in tests).
 * @param budget The overall `--timeout` deadline (ms since the epoch; default: none) and a
 *   progress callback called after each request.
 * @returns The results in report order; the exit code is 1 when one is `FAIL`.
 * @see docs/design/remote.md §2.1, §2.2
 */
export async function runConformance(connect: () => Promise<ConnectOutcome>, budget: { readonly deadlineMs?: number; readonly progress?: (settled: number) => void } = {}): Promise<CheckResult[]> {
  const outcome = await connect();
  if (!outcome.ok) return [{ name: 'connect', status: 'FAIL', reason: outcome.reason }];
  try {
    const { runChecks } = await import('./run-checks.ts');
    const { withBudget } = await import('./budget-session.ts');
    const session = withBudget(outcome.session, budget.deadlineMs ?? Number.POSITIVE_INFINITY, budget.progress);
    return [{ name: 'connect', status: 'PASS', reason: PASS_REASON }, ...(await runChecks(session))];
  } finally {
    await outcome.session.close();
  }
}
