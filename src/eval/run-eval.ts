// Runs every question once, in file order, and scores the answers (docs/design/eval.md §1, §3).
import type { EvalQuestion } from './eval-question.ts';
import { type EvalFigures, type QuestionScore, type RankedItem, scoreQuestion, summarize } from './metrics.ts';

/** One question's search, as the run needs it. */
export type EvalSearch = (
  query: string,
) => Promise<{ readonly ok: true; readonly items: readonly RankedItem[]; readonly latencyMs: number } | { readonly ok: false; readonly operatorLine: string; readonly latencyMs: number }>;

/** A finished run. */
export interface EvalRun {
  readonly figures: EvalFigures;
  /** Questions whose search failed (scored as no item). */
  readonly failed: number;
  /** Operator lines of the failures, each kind once, in order of first appearance. */
  readonly failureLines: readonly string[];
  /** Each question's score, in question order. */
  readonly scores: readonly QuestionScore[];
  /** Whether each question's search failed, in question order. */
  readonly failedSearches: readonly boolean[];
}

/**
 * Runs the questions one after another (one search at a time, as a user would ask them).
 *
 * @param questions The questions.
 * @param search Runs one search.
 * @param k Cut-off for MRR and recall, in items.
 * @param onProgress Called after each question with done and total.
 * @returns The figures; a failed search counts as a question with no item.
 */
export async function runEval(questions: readonly EvalQuestion[], search: EvalSearch, k: number, onProgress?: (done: number, total: number) => void): Promise<EvalRun> {
  const scores: QuestionScore[] = [];
  const latencies: number[] = [];
  const failureLines = new Set<string>();
  const failedSearches: boolean[] = [];
  let failed = 0;
  for (const [index, question] of questions.entries()) {
    const answer = await search(question.query);
    latencies.push(answer.latencyMs);
    failedSearches.push(!answer.ok);
    if (!answer.ok) {
      failed++;
      failureLines.add(answer.operatorLine);
    }
    scores.push(scoreQuestion(answer.ok ? answer.items : [], question.relevant, k));
    onProgress?.(index + 1, questions.length);
  }
  return { figures: summarize(scores, latencies, k), failed, failureLines: [...failureLines], scores, failedSearches };
}
