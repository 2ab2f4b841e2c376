// context_search input: validation in the order of docs/design/profile-v1.md §3.1, then normalization
// (§3.2). Messages never contain the query.
import * as v from 'valibot';
import { isPlainObject } from '../util/plain-object.ts';
import { MAX_QUERY_CODE_POINTS, SEARCH_INPUT_MESSAGES, SearchArgumentsSchema } from './schemas.ts';
import { hasAtMostCodePoints } from '../util/code-points.ts';

/** JS whitespace (`\s`): the characters docs/design/profile-v1.md lists under "JS whitespace". */
export const JS_WHITESPACE_RUN = /\s+/g;

/** Outcome of argument validation: the normalized query, or one exact message. */
export type QueryResult = { readonly ok: true; readonly query: string } | { readonly ok: false; readonly message: string };

/**
 * Validates raw `tools/call` arguments and normalizes the query.
 *
 * @param args The `arguments` value; `undefined` counts as `{}` (row 1).
 * @returns `{ok: true, query}` with whitespace folded and trimmed, or the first failing
 *   message of docs/design/profile-v1.md §3.1/§3.2.
 */
export function parseSearchArguments(args: unknown): QueryResult {
  const input: unknown = args === undefined ? {} : args;
  // Row 2 before row 3: valibot's strictObject reports the known `query` entry first.
  if (isPlainObject(input) && Object.keys(input).some((key) => key !== 'query')) {
    return { ok: false, message: SEARCH_INPUT_MESSAGES.onlyQuery };
  }
  if (!isPlainObject(input) || !Object.prototype.hasOwnProperty.call(input, 'query')) {
    return { ok: false, message: SEARCH_INPUT_MESSAGES.notString };
  }
  const result = v.safeParse(SearchArgumentsSchema, input, { abortEarly: true });
  if (!result.success) return { ok: false, message: result.issues[0].message };
  return normalizeQuery(result.output.query);
}

/**
 * Folds every run of JS whitespace to one space and trims (docs/design/profile-v1.md §3.2).
 *
 * @returns The normalized query, or the §3.2 message when it is empty or too long.
 */
export function normalizeQuery(raw: string): QueryResult {
  const query = raw.replace(JS_WHITESPACE_RUN, ' ').replace(/^ | $/g, '');
  if (query === '') return { ok: false, message: SEARCH_INPUT_MESSAGES.empty };
  if (!hasAtMostCodePoints(query, MAX_QUERY_CODE_POINTS)) return { ok: false, message: SEARCH_INPUT_MESSAGES.tooLong };
  return { ok: true, query };
}
