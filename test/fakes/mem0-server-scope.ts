// How the Mem0 server fake resolves the scope of a search from root ids and `filters`
// (mem0-services.md §2.3 merge rule, §2.5 legacy behaviour, §3 PolarDB, §5 `scope` option).
import { isNonEmptyString, isPlainObject } from './strict-json.ts';

/** The `scope` option of the Mem0 server fake. */
export type ScopeMode = 'merge' | 'polardb' | 'root-only' | 'filters-only';

/** A resolved scope: the filters records must satisfy, or the error the service answers. */
export type ScopeResolution = { readonly ok: true; readonly filters: Record<string, unknown> } | { readonly ok: false; readonly status: 400 | 500; readonly detail: string };

/** Texts of the scope errors. `polardbUserId` is the fake's own (unverified) text. */
export const SCOPE_ERRORS = {
  /** Library 2.x through the current stock server (§2.3). */
  filtersRequired: "filters must contain at least one of: user_id, agent_id, run_id. Example: filters={'user_id': 'u1'}",
  /** Library before 2.0 (§2.5): a search without a root id. */
  rootIdRequired: "At least one of 'user_id', 'agent_id', or 'run_id' must be provided.",
  polardbUserId: 'filters.user_id is required.',
} as const;

const ROOT_IDS = ['user_id', 'agent_id', 'run_id'] as const;

/**
 * Resolves the filters a search applies.
 *
 * - `merge`: `filters` (or `{}`), then each truthy root id copied over the same key; 400
 *   `filtersRequired` when no entity id remains.
 * - `filters-only`: `filters` alone, root ids ignored; 400 `filtersRequired` likewise.
 * - `root-only`: truthy root ids alone, `filters` ignored; 500 `rootIdRequired` without one.
 * - `polardb`: `filters.user_id` (required, 400 `polardbUserId`) plus a truthy root
 *   `agent_id`; every other key ignored.
 * - `legacy` (stock `legacy2025`): a search without a truthy root id is 500 `rootIdRequired`
 *   before the mode applies.
 */
export function resolveScope(body: Record<string, unknown>, mode: ScopeMode, legacy: boolean): ScopeResolution {
  const rootIds = Object.fromEntries(ROOT_IDS.filter((key) => isNonEmptyString(body[key])).map((key) => [key, body[key]]));
  const bodyFilters = isPlainObject(body['filters']) ? body['filters'] : {};
  if (legacy && Object.keys(rootIds).length === 0) return { ok: false, status: 500, detail: SCOPE_ERRORS.rootIdRequired };
  switch (mode) {
    case 'merge':
      return requireEntity({ ...bodyFilters, ...rootIds });
    case 'filters-only':
      return requireEntity({ ...bodyFilters });
    case 'root-only':
      return Object.keys(rootIds).length === 0 ? { ok: false, status: 500, detail: SCOPE_ERRORS.rootIdRequired } : { ok: true, filters: rootIds };
    case 'polardb': {
      const userId = bodyFilters['user_id'];
      if (!isNonEmptyString(userId)) return { ok: false, status: 400, detail: SCOPE_ERRORS.polardbUserId };
      const filters: Record<string, unknown> = { user_id: userId };
      if (isNonEmptyString(body['agent_id'])) filters['agent_id'] = body['agent_id'];
      return { ok: true, filters };
    }
  }
}

function requireEntity(filters: Record<string, unknown>): ScopeResolution {
  // 2026-07-02 builds no longer forward empty-string ids, so they do not count as scope.
  const scoped = ROOT_IDS.some((key) => filters[key] !== undefined && filters[key] !== null && filters[key] !== '');
  return scoped ? { ok: true, filters } : { ok: false, status: 400, detail: SCOPE_ERRORS.filtersRequired };
}
