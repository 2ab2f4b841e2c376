// One line of the conformance report (docs/design/remote.md §2.2, §2.3).

/** How a check ended. */
export type CheckStatus = 'PASS' | 'FAIL' | 'WARN';

/** One check's outcome. */
export interface CheckResult {
  /** The exact check name of docs/design/remote.md §2.2 (`input-vector: <vector name>` for vectors). */
  readonly name: string;
  readonly status: CheckStatus;
  /** `ok` for PASS, else a fixed one-line phrase of this product. */
  readonly reason: string;
}

/** The reason of every PASS. */
export const PASS_REASON = 'ok';
