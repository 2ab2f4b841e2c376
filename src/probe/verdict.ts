// The probe verdict: the table of docs/design/probe.md §3 evaluated in order, its exact report line and
// its exit code.
import type { Preset } from '../config/presets.ts';
import { isNoAnswerClass } from '../providers/failure.ts';
import type { BaselineResult, PlacementResult, ProbeVerdict } from './probe-report.ts';

/** The line printed under `Verdict` (exact, docs/design/probe.md §3). */
export const VERDICT_LINES: Readonly<Record<ProbeVerdict, string>> = {
  unreachable: 'UNREACHABLE: the probe could not reach this endpoint; the preset was not tested.',
  unauthorized: 'UNAUTHORIZED: this endpoint refused the credential; the preset was not tested.',
  'preset-mismatch': 'MISMATCH: this preset does not work against this endpoint.',
  'managed-contract': 'MANAGED: this preset targets a vendor-operated service with one published contract; placements are not compared.',
  'already-dual-placement': 'ALREADY DUAL: this preset already sends scope at the request root and under "filters".',
  'empty-corpus': 'INCONCLUSIVE: the baseline search matched no memories.',
  'dual-placement-unsafe': "UNSAFE: the deployment rejects scope in both places; keep this preset's placement.",
  'dual-placement-safe': 'SAFE: scope under "filters", at the request root and in both places returns the same memories.',
  'dual-placement-divergent': "DIVERGENT: the placements return different memories; keep this preset's placement and check the deployment.",
};

/** Exit code per verdict: 1 for a negative answer, 0 otherwise (docs/design/probe.md §3). */
export const VERDICT_EXIT_CODES: Readonly<Record<ProbeVerdict, 0 | 1>> = {
  unreachable: 1,
  unauthorized: 1,
  'preset-mismatch': 1,
  'managed-contract': 0,
  'already-dual-placement': 0,
  'empty-corpus': 1,
  'dual-placement-unsafe': 0,
  'dual-placement-safe': 0,
  'dual-placement-divergent': 0,
};

function is2xx(status: number): boolean {
  return status >= 200 && status <= 299;
}

function sameIds(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((id, index) => id === b[index]);
}

/**
 * Decides the verdict; the first matching row of docs/design/probe.md §3 wins. Pure.
 *
 * @param preset The claimed preset (its deployment).
 * @param alreadyDual True when the preset sends every configured scope key in both places.
 * @param baseline Step 2.
 * @param placements Step 4 in the order filters, root, both; undefined when it did not run.
 * @returns The verdict id.
 * @see docs/design/probe.md §3
 */
export function decideVerdict(preset: Preset, alreadyDual: boolean, baseline: BaselineResult, placements: readonly PlacementResult[] | undefined): ProbeVerdict {
  if (!baseline.ok) {
    // Faults that are not the preset's are named before any comparison (issue 14 item 3).
    if (isNoAnswerClass(baseline.failure.id)) return 'unreachable';
    if (baseline.failure.id === 'http-status' && (baseline.failure.status === 401 || baseline.failure.status === 403)) return 'unauthorized';
    return 'preset-mismatch';
  }
  if (preset.deployment === 'managed') return 'managed-contract';
  if (alreadyDual) return 'already-dual-placement';
  const filtersOnly = placements?.find((row) => row.placement === 'filters')?.outcome;
  const both = placements?.find((row) => row.placement === 'both')?.outcome;
  // Step 4 always runs past rows 1–3; a missing row would be a programmer error.
  if (filtersOnly === undefined || both === undefined) throw new TypeError('Placement results are missing.');
  if (!is2xx(filtersOnly.status)) return 'preset-mismatch';
  // Three equally empty result sets look like agreement and are not.
  if (filtersOnly.ids === undefined || filtersOnly.ids.length === 0) return 'empty-corpus';
  if (!is2xx(both.status)) return 'dual-placement-unsafe';
  return sameIds(both.ids, filtersOnly.ids) ? 'dual-placement-safe' : 'dual-placement-divergent';
}
