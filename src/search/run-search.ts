// The single context_search code path shared by the MCP server, the auto-recall Hook and
// `check --search`: validate and normalize, one provider call, bound and escape (docs/design/style.md).
import { boundItems } from '../contract/bound.ts';
import { type RenderedEnvelope, renderEnvelope } from '../contract/envelope.ts';
import { parseSearchArguments } from '../contract/query.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { SearchProvider } from '../providers/types.ts';
import { describeFailure, type FailureDescription } from './failure-class.ts';

/** The stable error text of every provider failure (docs/design/profile-v1.md §6). */
export const SEARCH_FAILED = 'External context search failed.';

/** The fixed result limit sent to every provider. */
export const SEARCH_LIMIT = 5;

/** What one search produced. */
export type SearchOutcome =
  | { readonly status: 'ok'; readonly rendered: RenderedEnvelope; readonly itemCount: number }
  | { readonly status: 'invalid-input'; readonly message: string }
  | { readonly status: 'failed'; readonly message: typeof SEARCH_FAILED; readonly operatorLine: string; readonly failure: FailureDescription | undefined };

/**
 * Runs one context_search.
 *
 * @param provider The bound read adapter.
 * @param args Raw tool arguments (`undefined` counts as `{}`).
 * @param signal Caller cancellation combined with the operation timeout.
 * @returns `ok` with the rendered envelope (possibly `items: []`); `invalid-input` with the
 *   exact message and no provider call; or `failed` with the stable text, the operator
 *   line of docs/design/providers.md §1.6 and the failure class (undefined for an exception
 *   that is not a request failure). Never throws.
 */
export async function runSearch(provider: SearchProvider, args: unknown, signal: AbortSignal): Promise<SearchOutcome> {
  const query = parseSearchArguments(args);
  if (!query.ok) return { status: 'invalid-input', message: query.message };
  try {
    const items = await provider.search({ query: query.query, limit: SEARCH_LIMIT, signal });
    const bounded = boundItems(items);
    return { status: 'ok', rendered: renderEnvelope(bounded), itemCount: bounded.length };
  } catch (error) {
    return { status: 'failed', message: SEARCH_FAILED, operatorLine: searchOperatorLine(error), failure: describeFailure(error) };
  }
}

/**
 * The operator stderr line for a failed search: the HTTP status when the error carries one,
 * else the fixed class message, else the stable text. Never a query, URL or body.
 *
 * @see docs/design/providers.md §1.6
 */
export function searchOperatorLine(error: unknown): string {
  const prefix = 'external-context: context_search failed:';
  if (error instanceof ProviderError) {
    return error.status !== undefined ? `${prefix} HTTP ${error.status}` : `${prefix} ${error.message}`;
  }
  return `${prefix} ${SEARCH_FAILED}`;
}
