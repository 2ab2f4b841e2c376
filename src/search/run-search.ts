// The single context_search code path shared by the MCP server, the auto-recall Hook and
// `check --search`: validate and normalize, one provider call, bound and escape (docs/design/style.md).
import { boundItems } from '../contract/bound.ts';
import { type RenderedEnvelope, renderEnvelope } from '../contract/envelope.ts';
import { parseSearchArguments } from '../contract/query.ts';
import { redactItems } from '../contract/redact-secrets.ts';
import { type FailureDescription, operatorLabel } from '../providers/failure.ts';
import { type OutboundDeadline, withOutboundDeadline } from '../providers/outbound.ts';
import { describeFailure } from '../providers/provider-error.ts';
import { SEARCH_LIMIT_ITEMS } from '../providers/search-limit.ts';
import type { SearchProvider } from '../providers/types.ts';

/** The stable error text of every provider failure (docs/design/profile-v1.md §6). */
export const SEARCH_FAILED = 'External context search failed.';

/** The fixed result limit sent to every provider, in items (the one constant of providers/search-limit.ts). */
export const SEARCH_LIMIT: typeof SEARCH_LIMIT_ITEMS = SEARCH_LIMIT_ITEMS;

/** What one search produced. */
export type SearchOutcome =
  | {
      readonly status: 'ok';
      readonly rendered: RenderedEnvelope;
      readonly itemCount: number;
      /** Secrets replaced by `redactSecrets` (0 when it is off); never what they were. */
      readonly redactions: number;
    }
  | { readonly status: 'invalid-input'; readonly message: string }
  | {
      readonly status: 'failed';
      readonly message: typeof SEARCH_FAILED;
      readonly operatorLine: string;
      /** The failure class (docs/design/providers.md §1.6); undefined for an exception that is not a request failure. */
      readonly failure: FailureDescription | undefined;
    };

/**
 * Runs one context_search.
 *
 * @param provider The bound read adapter.
 * @param args Raw tool arguments (`undefined` counts as `{}`).
 * @param deadline The caller's cancellation and the operation timeout in ms; the fetch is
 *   warmed before the timeout starts (docs/design/providers.md §1.4), and `onStart` is called then.
 * @returns `ok` with the rendered envelope (possibly `items: []`); `invalid-input` with the
 *   exact message and no provider call; or `failed` with the stable text and the operator
 *   line of docs/design/providers.md §1.6. Never throws.
 */
export async function runSearch(provider: SearchProvider, args: unknown, deadline: OutboundDeadline): Promise<SearchOutcome> {
  const query = parseSearchArguments(args);
  if (!query.ok) return { status: 'invalid-input', message: query.message };
  return runPreparedSearch(provider, query.query, deadline);
}

/**
 * Runs one search for a query its caller has already prepared by its own rules, without the
 * MCP argument normalisation: the auto-recall Hook folds, trims, then cuts to 512 code points
 * (docs/design/hooks.md §2.3 step 9), and trimming again after the cut would drop a final space.
 *
 * @param provider The bound read adapter.
 * @param query A non-empty query, sent as it is.
 * @param deadline The caller's cancellation and the operation timeout in ms, as for runSearch.
 * @returns `ok` or `failed` as runSearch; never `invalid-input`. Never throws.
 */
export async function runPreparedSearch(provider: SearchProvider, query: string, deadline: OutboundDeadline): Promise<SearchOutcome> {
  try {
    const answer = await withOutboundDeadline(deadline, (signal) => provider.search({ query, limit: SEARCH_LIMIT, signal }));
    // redactSecrets (docs/design/config.md §4.3): content and titles, before bounding.
    const { items, redactions } = provider.redactSecrets === true ? redactItems(answer) : { items: answer, redactions: 0 };
    const bounded = boundItems(items);
    return { status: 'ok', rendered: renderEnvelope(bounded), itemCount: bounded.length, redactions };
  } catch (error) {
    return { status: 'failed', message: SEARCH_FAILED, operatorLine: searchOperatorLine(error), failure: describeFailure(error) };
  }
}

/**
 * The operator stderr line for a failed search: the failure class (with the status for
 * `http-status` and `redirect`), or the stable text for anything that is not a request
 * failure. Never a query, URL or body.
 *
 * @returns e.g. `external-context: context_search failed: connection-refused`,
 *   `external-context: context_search failed: http-status 404`,
 *   `external-context: context_search failed: proxy-failure HTTPS_PROXY`.
 * @see docs/design/providers.md §1.6
 */
export function searchOperatorLine(error: unknown): string {
  const prefix = 'external-context: context_search failed:';
  const failure = describeFailure(error);
  return failure === undefined ? `${prefix} ${SEARCH_FAILED}` : `${prefix} ${operatorLabel(failure)}`;
}
