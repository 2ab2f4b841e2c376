// Retrieval figures of one run: per question the ranked items against its relevant prefixes,
// then the means (docs/design/eval.md §3).

/** What one question's search returned, best first; ids and uris only. */
export interface RankedItem {
  readonly id: string;
  readonly uri?: string | undefined;
}

/** One question's scores. */
export interface QuestionScore {
  /** 1/rank of the first relevant item within the first k, else 0. */
  readonly reciprocalRank: number;
  /** nDCG over the first k items, binary gains. */
  readonly ndcg: number;
  /** Share of the relevant prefixes found within the first k items. */
  readonly recall: number;
  /** Whether the first item is relevant. */
  readonly hit1: boolean;
  /** Whether the search returned no item. */
  readonly empty: boolean;
  /** 1-based rank of the first relevant item among all returned items, or undefined when none is relevant. */
  readonly firstRelevantRank: number | undefined;
}

/**
 * Which relevant prefix an item matches: its id, or else its uri, starts with the prefix.
 *
 * @returns The index in `relevant` of the first matching prefix not yet credited, or -1.
 */
function matchIndex(item: RankedItem, relevant: readonly string[], credited: ReadonlySet<number>): number {
  return relevant.findIndex((prefix, index) => !credited.has(index) && (item.id.startsWith(prefix) || (item.uri?.startsWith(prefix) ?? false)));
}

/**
 * Scores one question. Each relevant prefix is credited once, at the first item that matches
 * it, so several chunks of one relevant file do not count twice.
 *
 * @param items Returned items, best first.
 * @param relevant The question's relevant id or uri prefixes (1 or more).
 * @param k The MRR, nDCG and recall cut-off, in items (a search returns at most 5).
 * @returns The scores; all zero when nothing relevant came back.
 */
export function scoreQuestion(items: readonly RankedItem[], relevant: readonly string[], k: number): QuestionScore {
  const credited = new Set<number>();
  let reciprocalRank = 0;
  let foundWithinK = 0;
  let dcg = 0;
  let hit1 = false;
  let firstRelevantRank: number | undefined;
  for (const [index, item] of items.entries()) {
    const match = matchIndex(item, relevant, credited);
    if (match < 0) continue;
    credited.add(match);
    firstRelevantRank ??= index + 1;
    if (index < k) {
      foundWithinK++;
      if (reciprocalRank === 0) reciprocalRank = 1 / (index + 1);
      dcg += 1 / Math.log2(index + 2);
    }
    if (index === 0) hit1 = true;
  }
  let ideal = 0;
  for (let index = 0; index < Math.min(relevant.length, k); index++) ideal += 1 / Math.log2(index + 2);
  return { reciprocalRank, ndcg: dcg / ideal, recall: foundWithinK / relevant.length, hit1, empty: items.length === 0, firstRelevantRank };
}

/** The figures of a run. */
export interface EvalFigures {
  readonly questions: number;
  readonly k: number;
  /** Mean reciprocal rank within the first k items. */
  readonly mrr: number;
  /** Mean nDCG within the first k items. */
  readonly ndcg: number;
  /** Mean recall within the first k items. */
  readonly recall: number;
  /** Share of questions whose first item is relevant. */
  readonly hit1: number;
  /** Share of questions answered with no item. */
  readonly noItems: number;
  /** Latency percentiles over every search, in ms (rounded to 0.1). */
  readonly latencyMs: { readonly p50: number; readonly p95: number };
}

/**
 * Averages the question scores.
 *
 * @param scores One per question (at least one).
 * @param latenciesMs One per search, in ms.
 * @param k The cut-off the scores used.
 * @returns The means, each in [0, 1], and the latency percentiles (nearest rank).
 */
export function summarize(scores: readonly QuestionScore[], latenciesMs: readonly number[], k: number): EvalFigures {
  const mean = (pick: (score: QuestionScore) => number): number => scores.reduce((sum, score) => sum + pick(score), 0) / Math.max(scores.length, 1);
  return {
    questions: scores.length,
    k,
    mrr: mean((score) => score.reciprocalRank),
    ndcg: mean((score) => score.ndcg),
    recall: mean((score) => score.recall),
    hit1: mean((score) => (score.hit1 ? 1 : 0)),
    noItems: mean((score) => (score.empty ? 1 : 0)),
    latencyMs: { p50: percentile(latenciesMs, 0.5), p95: percentile(latenciesMs, 0.95) },
  };
}

/** Nearest-rank percentile, rounded to 0.1 ms; 0 for no value. */
function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] as number;
  return Math.round(value * 10) / 10;
}
