// Runtime validation of the context_search contract with valibot. Bounds are explicit
// code-point checks, because valibot's maxLength counts UTF-16 units (docs/design/profile-v1.md §3.3).
// The published contract is the hand-written JSON Schema under contracts/v1/.
import * as v from 'valibot';
import { NOTICE } from './envelope.ts';
import { hasAtMostCodePoints } from '../util/code-points.ts';

/** Exact input-validation messages (docs/design/profile-v1.md §3.1, §3.2). */
export const SEARCH_INPUT_MESSAGES = {
  onlyQuery: 'context_search accepts only the "query" argument.',
  notString: 'Search query must be a string.',
  empty: 'Search query must not be empty.',
  tooManyCodePoints: 'Search query must contain at most 2000 Unicode characters.',
  tooLong: 'Search query is too long.',
} as const;

/** Maximum query length in code points. */
export const MAX_QUERY_CODE_POINTS = 2000;

/** The `query` string: at least one non-whitespace character, at most 2000 code points. */
export const SearchQuerySchema = v.pipe(
  v.string(SEARCH_INPUT_MESSAGES.notString),
  v.regex(/\S/, SEARCH_INPUT_MESSAGES.empty),
  v.check((query) => hasAtMostCodePoints(query, MAX_QUERY_CODE_POINTS), SEARCH_INPUT_MESSAGES.tooManyCodePoints),
);

/** The whole arguments object: exactly `query`. */
export const SearchArgumentsSchema = v.strictObject({ query: SearchQuerySchema }, SEARCH_INPUT_MESSAGES.onlyQuery);

/** Validated context_search arguments. */
export type SearchArguments = v.InferOutput<typeof SearchArgumentsSchema>;

function boundedString(maxCodePoints: number) {
  return v.pipe(
    v.string(),
    v.minLength(1),
    v.check((value) => hasAtMostCodePoints(value, maxCodePoints)),
  );
}

/** One envelope item (docs/design/profile-v1.md §5.4). */
export const EnvelopeItemSchema = v.strictObject({
  id: boundedString(128),
  content: boundedString(1000),
  title: v.exactOptional(boundedString(200)),
  uri: v.exactOptional(boundedString(500)),
  score: v.exactOptional(v.pipe(v.number(), v.finite())),
  updatedAt: v.exactOptional(boundedString(64)),
});

/** The whole envelope (docs/design/profile-v1.md §5.4). */
export const EnvelopeSchema = v.strictObject({
  untrusted_external_context: v.strictObject({
    notice: v.literal(NOTICE),
    items: v.pipe(v.array(EnvelopeItemSchema), v.maxLength(5)),
  }),
});

/** Validated envelope. */
export type EnvelopeOutput = v.InferOutput<typeof EnvelopeSchema>;
