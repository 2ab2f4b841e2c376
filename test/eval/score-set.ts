// Scores a question set (docs/design/eval.md §4) for one corpus ranking: index its corpus (the
// built set's git-doc and docs/, or the held-back set's pytest manual) with that ranking's
// chunking and search the index in-process. Shared by `npm run eval` and the set tests.
import { join } from 'node:path';
import { buildIndex, type BuildIndexSummary } from '../../src/corpus/index/build-index.ts';
import type { CorpusRanking } from '../../src/corpus/corpus-ranking.ts';
import { openCorpusIndex } from '../../src/corpus/serve/corpus-index.ts';
import type { EvalFigures } from '../../src/eval/metrics.ts';
import { runEval } from '../../src/eval/run-eval.ts';
import { BUILT_CORPUS, REPO_ROOT, type SetCorpus, type SetQuestion } from './question-set.ts';

/** The figures of the whole set and of each half. */
export type SetFigures = Record<'all' | 'known-item' | 'paraphrase', EvalFigures>;

/**
 * Builds the index into `dir` and scores every question.
 *
 * @param questions The set.
 * @param ranking Which chunking and ranking to score.
 * @param dir A temporary folder for the index file.
 * @param corpus What to index (default: the built set's git-doc and docs/).
 */
export async function scoreSet(questions: readonly SetQuestion[], ranking: CorpusRanking, dir: string, corpus: SetCorpus = BUILT_CORPUS): Promise<{ summary: BuildIndexSummary; figures: SetFigures }> {
  const db = join(dir, `${ranking}-${corpus === BUILT_CORPUS ? 'built' : 'other'}.sqlite`);
  const summary = await buildIndex([...corpus.inputs], db, REPO_ROOT, { onSkip: () => {}, onProgress: () => {} }, { include: [...corpus.include] }, ranking);
  const index = await openCorpusIndex(db, REPO_ROOT);
  try {
    const search = async (query: string) => {
      const started = performance.now();
      const items = await index.search(query, 5);
      return { ok: true as const, items, latencyMs: performance.now() - started };
    };
    const score = async (subset: readonly SetQuestion[]): Promise<EvalFigures> => (await runEval(subset, search, 5)).figures;
    return {
      summary,
      figures: {
        all: await score(questions),
        'known-item': await score(questions.filter((question) => question.kind === 'known-item')),
        paraphrase: await score(questions.filter((question) => question.kind === 'paraphrase')),
      },
    };
  } finally {
    index.close();
  }
}
