// Which ranking the corpus index is built and searched with. `current` is the product's; `previous`
// is the ranking before issue 28 §3 (Markdown-only sections, OR-joined tokens, plain bm25), kept
// callable only so `npm run eval` can print both in one run (docs/design/eval.md §4).

/** The ranking an index is built or searched with. */
export type CorpusRanking = 'current' | 'previous';
