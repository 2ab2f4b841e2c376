// Test helper: contracts/v1/test-vectors.json with what each input vector must produce. The
// tables name every vector, so a vector added to the file without an expectation fails the
// drift test instead of passing unchecked (profile-v1.md §5.5, §8).
import vectors from '../../contracts/v1/test-vectors.json' with { type: 'json' };

/** One named vector. */
export interface Vector {
  readonly name: string;
  readonly value: unknown;
}

/** A `renderedOutputs` value: provider items and the exact text `T` they render to. */
export interface RenderedVector {
  readonly name: string;
  readonly value: { readonly providerItems: readonly Record<string, unknown>[]; readonly text: string };
}

/** The five vector lists of `contracts/v1/test-vectors.json`. */
export const VECTORS: {
  readonly validInputs: readonly Vector[];
  readonly invalidInputs: readonly Vector[];
  readonly validOutputs: readonly Vector[];
  readonly invalidOutputs: readonly Vector[];
  readonly renderedOutputs: readonly RenderedVector[];
} = vectors;

/** The exact messages of profile-v1.md §3.1 and §3.2, written out independently of src/. */
export const MESSAGES = {
  onlyQuery: 'context_search accepts only the "query" argument.',
  notString: 'Search query must be a string.',
  empty: 'Search query must not be empty.',
  tooManyCodePoints: 'Search query must contain at most 2000 Unicode characters.',
  tooLong: 'Search query is too long.',
} as const;

/** Invalid input vector name → the §3.1 message the tool must return. */
export const INVALID_INPUT_MESSAGES: Readonly<Record<string, string>> = {
  'missing query': MESSAGES.notString,
  'blank query': MESSAGES.empty,
  'model-selected corpus': MESSAGES.onlyQuery,
  'over-long astral query': MESSAGES.tooManyCodePoints,
  'non-string query': MESSAGES.notString,
  'empty query': MESSAGES.empty,
  'null query': MESSAGES.notString,
  'model-selected limit': MESSAGES.onlyQuery,
  'model-selected filter': MESSAGES.onlyQuery,
  'over-long ASCII query': MESSAGES.tooManyCodePoints,
};

/** Valid input vector name → the normalized query the provider must receive. */
export const VALID_INPUT_QUERIES: Readonly<Record<string, string>> = {
  'plain query': 'deployment policy',
  'multiline Unicode query': '部署 策略 🙂',
  'maximum astral query': '\u{1F642}'.repeat(2000),
  'single character query': 'a',
  'query padded with whitespace': 'deployment policy',
  'maximum ASCII query': 'q'.repeat(2000),
};

/** Looks up an expectation and fails loudly when a vector has none. */
export function expectation(table: Readonly<Record<string, string>>, name: string): string {
  const value = table[name];
  if (value === undefined) throw new Error(`No expectation for test vector "${name}"; add it to test/contract/vectors.ts.`);
  return value;
}
