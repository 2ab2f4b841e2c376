// One evaluation question and the error a bad questions file raises, with the line it is on
// (docs/design/eval.md §2).
import { codePointCount } from '../util/code-points.ts';
import { isPlainObject } from '../util/plain-object.ts';

/** A question: the query as a user would type it, and what a right answer points at. */
export interface EvalQuestion {
  /** 1…2000 Unicode code points, not blank (the context_search query rule). */
  readonly query: string;
  /** Item `id` or `uri` prefixes; an item is relevant when its id or uri starts with one. */
  readonly relevant: readonly string[];
  /** Where the question is: its 1-based line (JSON Lines) or its `_id` (BEIR), for the per-question listing. */
  readonly from?: { readonly line: number } | { readonly id: string };
}

/** Longest query, in Unicode code points (docs/design/profile-v1.md §2). */
export const MAX_QUERY_CODE_POINTS = 2000;
/** Most relevant prefixes per question. */
export const MAX_RELEVANT_PER_QUESTION = 100;
/** Longest relevant prefix, in Unicode code points. */
export const MAX_RELEVANT_CODE_POINTS = 2000;

/** A questions file (or BEIR folder) that cannot be used; the message names file and line. */
export class EvalInputError extends Error {
  override readonly name = 'EvalInputError';
  /** 1-based line of the problem, or undefined for a whole-file problem. */
  readonly line: number | undefined;

  constructor(message: string, line?: number, options?: ErrorOptions) {
    super(message, options);
    this.line = line;
  }
}

/**
 * Checks one parsed JSON Lines record.
 *
 * @param value The record's JSON value.
 * @param where `<file> line <n>` for the message.
 * @param line 1-based line number.
 * @returns The question.
 * @throws {EvalInputError} When the record is not `{"query": string, "relevant": [string, …]}`
 *   with a usable query and 1…100 non-empty prefixes.
 */
export function toQuestion(value: unknown, where: string, line: number): EvalQuestion {
  if (!isPlainObject(value)) throw new EvalInputError(`${where}: a question must be a JSON object with "query" and "relevant".`, line);
  const extra = Object.keys(value).find((key) => key !== 'query' && key !== 'relevant');
  if (extra !== undefined) throw new EvalInputError(`${where}: a question has only "query" and "relevant"; remove the other key.`, line);
  return { query: checkQuery(value['query'], where, line), relevant: checkRelevant(value['relevant'], where, line), from: { line } };
}

/**
 * Checks a query.
 *
 * @throws {EvalInputError} When it is not a non-blank string of at most 2000 code points.
 */
export function checkQuery(query: unknown, where: string, line: number): string {
  if (typeof query !== 'string' || query.trim() === '') throw new EvalInputError(`${where}: "query" must be a non-blank string.`, line);
  if (codePointCount(query) > MAX_QUERY_CODE_POINTS) throw new EvalInputError(`${where}: "query" is longer than 2000 characters.`, line);
  return query;
}

function checkRelevant(relevant: unknown, where: string, line: number): string[] {
  const shape = `${where}: "relevant" must be a list of 1 to ${MAX_RELEVANT_PER_QUESTION} non-empty id or uri prefixes.`;
  if (!Array.isArray(relevant) || relevant.length === 0 || relevant.length > MAX_RELEVANT_PER_QUESTION) throw new EvalInputError(shape, line);
  for (const entry of relevant) {
    if (typeof entry !== 'string' || entry === '' || codePointCount(entry) > MAX_RELEVANT_CODE_POINTS) throw new EvalInputError(shape, line);
  }
  return [...new Set(relevant as string[])];
}
