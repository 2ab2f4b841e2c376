// The probe's findings, one field per report section (docs/design/probe.md §2–§4), shared by the runner,
// the verdict and both renderers.
import type { PresetId } from '../config/presets.ts';
import type { FailureDescription } from '../providers/failure.ts';

/** The verdict ids of docs/design/probe.md §3. */
export type ProbeVerdict =
  | 'unreachable'
  | 'unauthorized'
  | 'preset-mismatch'
  | 'managed-contract'
  | 'already-dual-placement'
  | 'empty-corpus'
  | 'dual-placement-unsafe'
  | 'dual-placement-safe'
  | 'dual-placement-divergent';

/** Step 1: the declared search model, or why it was not served. */
export type DeclaredSchemaResult =
  | {
      readonly served: true;
      /** `SearchRequest` or `SearchMemoryRequest`. */
      readonly name: string;
      /** Property names in document order, control characters and the credential removed. */
      readonly fields: readonly string[];
      /** The raw `additionalProperties` value; undefined when the key is not set. */
      readonly additionalProperties: unknown;
    }
  | {
      readonly served: false;
      /** The HTTP status of a non-2xx answer; undefined for anything else. */
      readonly status: number | undefined;
    };

/**
 * Step 2: the real adapter's search. On failure, `reason` is the failure label of
 * docs/design/providers.md §1.6 (`connection-refused`, `http-status 401`, …) and `failure` the full
 * classification with its hint.
 */
export type BaselineResult = { readonly ok: true; readonly items: number } | { readonly ok: false; readonly reason: string; readonly failure: FailureDescription };

/** One raw probe request: its status (0 when none arrived) and ids or a detail text. */
export interface RawOutcome {
  readonly status: number;
  /** Sorted, de-duplicated string `results[].id` values of a 2xx JSON answer with `results`. */
  readonly ids: readonly string[] | undefined;
  /** The detail text of docs/design/probe.md §2 when there are no ids; may be `""` for an empty body. */
  readonly detail: string | undefined;
}

/** Step 3: how the deployment treats an unknown body field. */
export interface UnknownFieldResult {
  readonly result: 'ignored' | 'rejected' | 'inconclusive';
  readonly outcome: RawOutcome;
}

/** Where the scope keys go in one placement request. */
export type PlacementKind = 'filters' | 'root' | 'both';

/** Step 4: one placement request. */
export interface PlacementResult {
  readonly placement: PlacementKind;
  /** True for the row that matches the preset's own placement. */
  readonly preset: boolean;
  readonly outcome: RawOutcome;
}

/** The whole probe report. */
export interface ProbeReport {
  readonly preset: PresetId;
  /** `<origin><basePath><search path>`. */
  readonly endpoint: string;
  readonly declaredSchema: DeclaredSchemaResult;
  readonly baseline: BaselineResult;
  readonly unknownField: UnknownFieldResult;
  /** The three rows in the order filters, root, both; undefined when step 4 did not run. */
  readonly placements: readonly PlacementResult[] | undefined;
  readonly verdict: ProbeVerdict;
}
