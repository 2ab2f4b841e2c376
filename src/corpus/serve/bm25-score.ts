// Maps an FTS5 bm25() value onto a score in [0, 1) that grows with relevance (docs/design/providers.md §8.2).

// The largest double below 1: keeps the score in [0, 1) when -b is so large that the quotient rounds to 1.
const BELOW_ONE = 1 - 2 ** -53;

/**
 * The score of one row.
 *
 * @param bm25 The row's `bm25()` value; negative when the row matches, more negative is better.
 * @returns `(-b) / (1 - b)` for `b < 0`, else 0; always in [0, 1).
 * @see docs/design/providers.md §8.2
 */
export function bm25Score(bm25: number): number {
  if (!(bm25 < 0)) return 0;
  const score = -bm25 / (1 - bm25);
  return score < 1 ? score : BELOW_ONE;
}
