// The per-question listing of `eval --verbose` and `eval --json`, and the skipped-queries warning
// (docs/design/eval.md §1, §3): which questions the deployment misses, so an administrator can
// look at them. Only the operator's own question text and a rank: never an item or a body.
import { printable } from '../util/printable.ts';
import type { EvalQuestion } from './eval-question.ts';
import type { EvalRun } from './run-eval.ts';

/** One question's line of the listing. */
export interface QuestionResult {
  /** 1-based line of the JSON Lines file; absent for BEIR. */
  readonly line?: number;
  /** The BEIR query `_id`; absent for JSON Lines. */
  readonly id?: string;
  readonly query: string;
  /** Rank (1…5) of the first relevant item among the returned ones, or null when none is relevant. */
  readonly rank: number | null;
  /** Whether the search failed (then rank is null). */
  readonly failed: boolean;
}

/** The listing, in question order. */
export function questionResults(questions: readonly EvalQuestion[], run: EvalRun): QuestionResult[] {
  return questions.map((question, index) => ({
    ...question.from,
    query: question.query,
    rank: run.scores[index]?.firstRelevantRank ?? null,
    failed: run.failedSearches[index] === true,
  }));
}

/** The listing as text lines: rank (or none, failed), where the question is, its query escaped. */
export function renderQuestions(results: readonly QuestionResult[]): string {
  const where = results.map((result) => (result.line !== undefined ? `line ${result.line}` : `id ${printable(result.id ?? '')}`));
  const width = Math.max(...where.map((text) => text.length));
  const lines = results.map((result, index) => {
    const rank = result.failed ? 'failed' : result.rank === null ? 'none' : String(result.rank);
    return `  ${rank.padEnd(6)}  ${(where[index] as string).padEnd(width)}  ${printable(result.query)}`;
  });
  return `\nRank of the first relevant item, per question:\n${lines.map((line) => `${line}\n`).join('')}`;
}

/** The stderr warning for BEIR queries left out (without the `[external-context]` prefix). */
export function skippedLine(skipped: number, qrels: string): string {
  const subject = skipped === 1 ? '1 query has' : `${skipped} queries have`;
  return `${subject} no relevant document (no score above 0 in ${qrels}) and ${skipped === 1 ? 'was' : 'were'} skipped.`;
}
