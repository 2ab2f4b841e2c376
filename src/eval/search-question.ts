// One question as one ordinary read-only search: the `context_search` code path (`runSearch`)
// with the timeout `serve` gives it, as `check --search` runs it (docs/design/eval.md §1).
import { runSearch } from '../search/run-search.ts';
import type { OpenBinding } from '../search/open-binding.ts';
import type { RankedItem } from './metrics.ts';

/** What one search gave: the items (id and uri only), or the operator line of its failure. */
export type QuestionSearch =
  | { readonly ok: true; readonly items: readonly RankedItem[]; readonly latencyMs: number }
  | { readonly ok: false; readonly operatorLine: string; readonly latencyMs: number };

/**
 * Runs one search for a question. Kept to this one function so the search path is shared with
 * `serve` and `check --search` and nothing else of eval touches the provider.
 *
 * @param opened The loaded binding and its adapter.
 * @param query The question's query.
 * @returns The bounded items or the failure's operator line (never a body, URL or credential),
 *   with the latency in ms from the start of the timeout (docs/design/providers.md §1.4).
 */
export async function searchQuestion(opened: OpenBinding, query: string): Promise<QuestionSearch> {
  let started = performance.now();
  const outcome = await runSearch(
    opened.provider,
    { query },
    {
      timeoutMs: opened.binding.timeoutMs,
      onStart: () => {
        started = performance.now();
      },
    },
  );
  const latencyMs = performance.now() - started;
  if (outcome.status === 'ok') {
    const items = outcome.rendered.structuredContent.untrusted_external_context.items.map((item) => ({ id: item.id, uri: item.uri }));
    return { ok: true, items, latencyMs };
  }
  const operatorLine = outcome.status === 'failed' ? outcome.operatorLine : `external-context: context_search refused the query: ${outcome.message}`;
  return { ok: false, operatorLine, latencyMs };
}
