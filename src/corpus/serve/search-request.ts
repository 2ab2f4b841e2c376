// The service's request body: exactly a query (1…2000 code points, not blank) and a limit
// (integer 1…5) (docs/design/providers.md §8.2 row 6).
import * as v from 'valibot';
import { codePointCount } from '../../util/code-points.ts';

/** Longest query, in Unicode code points. */
export const MAX_QUERY_CODE_POINTS = 2000;
/** Most items one request may ask for. */
export const MAX_LIMIT_ITEMS = 5;

/** A valid request body: no other key is allowed. */
export const SearchRequestSchema = v.strictObject({
  // valibot's length actions count UTF-16 units, so the code-point bound is an explicit check.
  query: v.pipe(
    v.string(),
    v.check((query) => {
      const length = codePointCount(query);
      return length >= 1 && length <= MAX_QUERY_CODE_POINTS;
    }),
    v.check((query) => /\S/.test(query)),
  ),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT_ITEMS)),
});

/** A validated request body. */
export type SearchRequest = v.InferOutput<typeof SearchRequestSchema>;
