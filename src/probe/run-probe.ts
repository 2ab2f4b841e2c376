// The probe's read-only requests in order (docs/design/probe.md §2): declared schema, baseline through the
// real adapter, unknown-field policy, and the three placements when they can tell anything.
import { SCOPE_KEYS, type Placement, type ScopeKey } from '../config/presets.ts';
import { bindMem0Adapter } from '../providers/mem0-preset.ts';
import { failureLabel } from '../providers/failure.ts';
import { describeFailure } from '../providers/provider-error.ts';
import { readDeclaredSchema } from './declared-schema.ts';
import type { BaselineResult, PlacementKind, PlacementResult, ProbeReport, RawOutcome, UnknownFieldResult } from './probe-report.ts';
import type { ProbeTarget } from './probe-target.ts';
import { buildProbeBody, PROBE_QUERY, sendProbeSearch } from './raw-search.ts';
import { SEARCH_LIMIT_ITEMS } from '../providers/search-limit.ts';
import { decideVerdict } from './verdict.ts';

/** One timeout shared by every probe request, in ms (docs/design/probe.md §2). */
export const PROBE_TIMEOUT_MS = 30000;

const PLACEMENT_OF: Readonly<Record<PlacementKind, Placement>> = { filters: 'filters', root: 'body', both: 'body-and-filters' };

async function baselineSearch(target: ProbeTarget, signal: AbortSignal): Promise<BaselineResult> {
  // The real adapter, not a re-implementation: a preset whose items the parser drops is wrong too.
  const adapter = bindMem0Adapter(target, { origin: target.origin, writeEnabled: false, proxy: target.proxy });
  try {
    const items = await adapter.search({ query: PROBE_QUERY, limit: SEARCH_LIMIT_ITEMS, signal });
    return { ok: true, items: items.length };
  } catch (error) {
    const failure = describeFailure(error);
    if (failure === undefined) throw error;
    return { ok: false, reason: failureLabel(failure), failure };
  }
}

function unknownFieldResult(outcome: RawOutcome): UnknownFieldResult {
  if (outcome.status >= 200 && outcome.status <= 299) return { result: 'ignored', outcome };
  if (outcome.status === 400 || outcome.status === 422) return { result: 'rejected', outcome };
  return { result: 'inconclusive', outcome };
}

/**
 * Runs the probe against a validated target. Never calls a write path.
 *
 * @param target The validated target.
 * @returns The report with its verdict; at most six requests (one GET, five POST searches).
 * @throws Only on a programmer error; every provider failure becomes part of the report.
 * @see docs/design/probe.md §2, §3
 */
export async function runProbe(target: ProbeTarget): Promise<ProbeReport> {
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  const preset = target.preset;
  const configured = SCOPE_KEYS.filter((key) => target.scope[key] !== undefined);
  const sentOnSearch = configured.filter((key) => preset.scope[key].search !== 'omit');

  const declaredSchema = await readDeclaredSchema(target, signal);
  const baseline = await baselineSearch(target, signal);
  const unknownField = unknownFieldResult(await sendProbeSearch(target, buildProbeBody(target, configured, 'filters', true), signal));

  const alreadyDual = configured.every((key) => preset.scope[key].search === 'body-and-filters');
  let placements: PlacementResult[] | undefined;
  if (baseline.ok && preset.deployment === 'operator-deployed' && !alreadyDual) {
    placements = [];
    for (const placement of ['filters', 'root', 'both'] as const) {
      const outcome = await sendProbeSearch(target, buildProbeBody(target, sentOnSearch, placement), signal);
      placements.push({ placement, preset: isPresetPlacement(target, sentOnSearch, placement), outcome });
    }
  }
  return {
    preset: preset.id,
    endpoint: target.searchUrl,
    declaredSchema,
    baseline,
    unknownField,
    placements,
    verdict: decideVerdict(preset, alreadyDual, baseline, placements),
  };
}

/** True when the preset itself puts every sent key where this placement does. */
function isPresetPlacement(target: ProbeTarget, keys: readonly ScopeKey[], placement: PlacementKind): boolean {
  return keys.length > 0 && keys.every((key) => target.preset.scope[key].search === PLACEMENT_OF[placement]);
}
