// The probe's raw search requests (docs/design/probe.md §2 steps 3–4): the preset's search body with the
// scope keys moved to one placement, sent once, and the answer reduced to ids or a detail.
import { SCOPE_WIRE_NAMES, type ScopeKey } from '../config/presets.ts';
import { sendRawRequest, type CredentialHeader } from '../providers/http-client.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { PlacementKind, RawOutcome } from './probe-report.ts';
import type { ProbeTarget } from './probe-target.ts';
import { sanitizeDetail } from './sanitize-detail.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { SEARCH_LIMIT_ITEMS } from '../providers/search-limit.ts';

/** The probe's search query (docs/design/probe.md §2 step 2). */
export const PROBE_QUERY = 'deployment policy';
/** The extra key of the unknown-field request (docs/design/probe.md §2 step 3). */
export const UNKNOWN_FIELD = '__qwen_preset_probe_unused__';

/** Fixed detail texts of docs/design/probe.md §2. */
export const DETAILS = {
  noResults: 'response had no results array',
  notJson: 'response was not valid JSON',
  unreadable: 'response body was unreadable',
  incomplete: 'request did not complete',
} as const;

/**
 * Builds a probe search body. Pure.
 *
 * Key order of docs/design/providers.md §5.4: `query`, the limit field, the fixed options, the root scope
 * keys (`user_id`, `agent_id`, `app_id`), `filters`, then the unknown field when asked for.
 *
 * @param target The preset and the scope values.
 * @param keys The scope keys to place, in `userId`, `agentId`, `appId` order.
 * @param placement `filters`, `root` or `both`.
 * @param withUnknownField Adds `"__qwen_preset_probe_unused__": 1` as the last key.
 * @returns The serialized JSON body.
 * @see docs/design/probe.md §2 steps 3–4; docs/design/providers.md §5.4
 */
export function buildProbeBody(target: ProbeTarget, keys: readonly ScopeKey[], placement: PlacementKind, withUnknownField = false): string {
  const preset = target.preset;
  const body: Record<string, unknown> = { query: PROBE_QUERY, [preset.limitField]: SEARCH_LIMIT_ITEMS };
  for (const [name, value] of preset.fixedSearchOptions) body[name] = value;
  const entries = keys.flatMap((key) => {
    const value = target.scope[key];
    return value === undefined ? [] : [[SCOPE_WIRE_NAMES[key], value] as const];
  });
  if (placement !== 'filters') for (const [name, value] of entries) body[name] = value;
  if (placement !== 'root' && entries.length > 0) body['filters'] = Object.fromEntries(entries);
  if (withUnknownField) body[UNKNOWN_FIELD] = 1;
  return JSON.stringify(body);
}

function credentialHeader(target: ProbeTarget): CredentialHeader {
  const { name, scheme } = target.preset.credentialHeader;
  return { name, value: scheme === '' ? target.credential : `${scheme} ${target.credential}` };
}

/**
 * Reduces a raw answer to ids or a detail text. Pure.
 *
 * @param status The HTTP status.
 * @param text The decoded body, or undefined when it could not be read.
 * @param credential Redacted from any detail.
 * @returns Non-2xx: the sanitized body; 2xx: sorted unique string ids, or a fixed detail.
 * @see docs/design/probe.md §2 ("Detail text")
 */
export function classifyRawAnswer(status: number, text: string | undefined, credential: string): RawOutcome {
  if (text === undefined) return { status, ids: undefined, detail: DETAILS.unreadable };
  if (status < 200 || status > 299) return { status, ids: undefined, detail: sanitizeDetail(text, credential) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { status, ids: undefined, detail: DETAILS.notJson };
  }
  const results = isPlainObject(value) ? value['results'] : undefined;
  if (!Array.isArray(results)) return { status, ids: undefined, detail: DETAILS.noResults };
  const ids = new Set<string>();
  for (const item of results) {
    const id: unknown = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['id'] : undefined;
    if (typeof id === 'string') ids.add(id);
  }
  return { status, ids: [...ids].sort(), detail: undefined };
}

/**
 * Sends one raw probe search: POST with the preset's credential header, exactly once.
 *
 * @param target The validated target (search URL, credential, route).
 * @param body A body from `buildProbeBody`.
 * @param signal The probe's shared 30000 ms signal.
 * @returns The outcome; status 0 with `request did not complete` when no response arrived.
 * @see docs/design/probe.md §2
 */
export async function sendProbeSearch(target: ProbeTarget, body: string, signal: AbortSignal): Promise<RawOutcome> {
  try {
    const response = await sendRawRequest({
      method: 'POST',
      url: target.searchUrl,
      credential: credentialHeader(target),
      body,
      signal,
      proxy: target.proxy,
    });
    return classifyRawAnswer(response.status, response.text, target.credential);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { status: 0, ids: undefined, detail: DETAILS.incomplete };
  }
}
