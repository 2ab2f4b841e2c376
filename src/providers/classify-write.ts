// Write classification (docs/design/providers.md §6): transport outcomes, the Platform's async-status
// answer, the results-id answer of the stock server and PolarDB, and the valid-id rule.
import type { Preset } from '../config/presets.ts';
import { decodeDirectImport } from './direct-import.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { failureLabel } from './failure.ts';
import type { ProviderError } from './provider-error.ts';
import type { RememberResult } from './types.ts';
import { hasAtMostCodePoints } from '../util/code-points.ts';

/** The operator-line cause for a 2xx body that did not prove storage (docs/design/providers.md §1.6). */
export const CAUSE_NOT_RECOGNIZED = 'response-not-recognized';

/** The operator cause of a Platform answer `{"status":"FAILED"}`: a recognised rejection (docs/design/providers.md §6.2). */
export const CAUSE_PROVIDER_FAILED = 'provider-reported-failed';

/** Statuses that reject a write before any processing: nothing was stored (docs/design/providers.md §6.1). */
export const WRITE_FAILED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 413, 415, 422]);

/** Longest valid provider id in Unicode code points (docs/design/providers.md §6.4). */
export const MAX_PROVIDER_ID_CODE_POINTS = 256;

const UNKNOWN: RememberResult = { status: 'unknown', cause: CAUSE_NOT_RECOGNIZED };

/**
 * The valid-id rule: a string, non-empty after trimming, at most 256 code points, with no
 * code point ≤ U+001F and no U+007F.
 *
 * @param value Any parsed JSON value (`event_id`, `results[].id`).
 * @returns Whether it can be reported as a provider operation id.
 * @see docs/design/providers.md §6.4
 */
export function isValidProviderId(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  return hasAtMostCodePoints(value, MAX_PROVIDER_ID_CODE_POINTS) && !/[\u0000-\u001f\u007f]/u.test(value);
}

/**
 * Classifies a write whose exchange failed (docs/design/providers.md §6.1).
 *
 * @param error The client's error.
 * @returns `failed` for 400, 401, 403, 404, 405, 413, 415 and 422; `unknown` for every other
 *   status (3xx, 408, 409, 429, 5xx …) and for timeouts, cancellation, connection errors,
 *   oversize, invalid UTF-8 and invalid JSON. The cause is the failure label of
 *   docs/design/providers.md §1.6 (`http-status 404`, `redirect 302`, `timeout`, …).
 * @see docs/design/providers.md §6.1, §1.6
 */
export function classifyWriteError(error: ProviderError): RememberResult {
  const cause = failureLabel({ id: error.failureClass, status: error.status });
  if (error.status !== undefined && WRITE_FAILED_STATUSES.has(error.status)) return { status: 'failed', cause };
  return { status: 'unknown', cause };
}

/** §6.2 step 4.3: a DELETE event, or a `data.memory`/`memory` string that is not the content. */
function platformResultRewritten(element: unknown, content: string): boolean {
  if (!isPlainObject(element)) return false;
  if (element['event'] === 'DELETE') return true;
  const data = element['data'];
  const dataMemory = isPlainObject(data) ? data['memory'] : undefined;
  const memory = element['memory'];
  return (typeof dataMemory === 'string' && dataMemory !== content) || (typeof memory === 'string' && memory !== content);
}

/** *async-status* (the Platform), steps 1–5 of docs/design/providers.md §6.2. */
function classifyAsyncStatus(value: unknown, content: string): RememberResult {
  if (!isPlainObject(value)) return UNKNOWN;
  const { status, event_id: eventId, results } = value;
  if (status === 'FAILED') return { status: 'failed', cause: CAUSE_PROVIDER_FAILED };
  if (status === 'PENDING') {
    return isValidProviderId(eventId) ? { status: 'accepted', providerOperationId: eventId } : UNKNOWN;
  }
  if (status !== 'SUCCEEDED') return UNKNOWN;
  if (eventId !== undefined && !isValidProviderId(eventId)) return UNKNOWN;
  // `results: []` is how the Platform answers a silently dropped duplicate: no proof.
  if (results !== undefined && (!Array.isArray(results) || results.length === 0)) return UNKNOWN;
  if (Array.isArray(results) && results.some((element: unknown) => platformResultRewritten(element, content))) return UNKNOWN;
  return isValidProviderId(eventId) ? { status: 'stored', providerOperationId: eventId } : { status: 'stored' };
}

/** §6.3 step 2: the exact content, or (PolarDB) its encoded message list. */
function isEcho(memory: string, content: string, acceptEncodedEcho: boolean): boolean {
  return memory === content || (acceptEncodedEcho && decodeDirectImport(memory) === content);
}

/** *results-id* (stock server, PolarDB), steps 1–4 of docs/design/providers.md §6.3. */
function classifyResultsId(value: unknown, content: string, acceptEncodedEcho: boolean): RememberResult {
  const results = isPlainObject(value) ? value['results'] : undefined;
  if (!Array.isArray(results)) return UNKNOWN;
  const elements = (results as readonly unknown[]).filter(isPlainObject);
  // Every element is checked before any id is trusted: a build that dropped `infer: false`
  // returns a rewritten memory with a valid id.
  for (const element of elements) {
    const metadata = element['metadata'];
    if (element['event'] === 'DELETE' || (isPlainObject(metadata) && metadata['event'] === 'DELETE')) return UNKNOWN;
    const memory = element['memory'];
    if (typeof memory === 'string' && !isEcho(memory, content, acceptEncodedEcho)) return UNKNOWN;
  }
  const id = elements.map((element) => element['id']).find(isValidProviderId);
  return id === undefined ? UNKNOWN : { status: 'stored', providerOperationId: id };
}

/**
 * Classifies the parsed JSON of a 2xx write answer by the preset's result kind.
 *
 * @param value The parsed JSON body.
 * @param preset The preset whose write answered (its `writeResultKind` and, for PolarDB,
 *   `directImportDecoding`, which also accepts the encoded echo).
 * @param content The exact submitted content, for the echo rule.
 * @returns `stored`, `accepted`, `failed` or `unknown`; `failed` and `unknown` carry the
 *   cause `response-not-recognized`. Never throws for any shape (root arrays, `data`
 *   wrappers, non-array `results`).
 * @see docs/design/providers.md §6.2, §6.3
 */
export function classifyWriteResponse(value: unknown, preset: Preset, content: string): RememberResult {
  return preset.writeResultKind === 'async-status' ? classifyAsyncStatus(value, content) : classifyResultsId(value, content, preset.directImportDecoding);
}
