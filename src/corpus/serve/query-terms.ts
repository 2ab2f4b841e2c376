// A user query → the words the corpus ranking searches for (docs/design/providers.md §8.2): runs of
// letters and digits, each once, English stop words left out, at most 12 words, and each
// camelCase word also as the phrase of its parts.

// Tokens are maximal runs of Unicode letters and digits (docs/design/providers.md §8.2).
const TOKEN = /[\p{L}\p{N}]+/gu;
const CASE_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/gu;

/** Most query words searched; the rest are ignored, so a long query's work stays bounded. */
export const MAX_QUERY_WORDS = 12;

// Words that carry no topic: a question's frame ("how do I …") and grammar.
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further
  had has have having he her here hers him his how i if in into is it its itself just me more
  most my myself no nor not now of off on once only or other our ours out over own same she
  should so some such than that the their theirs them then there these they this those through
  to too under until up very was we were what when where which while who whom why will with
  would you your yours yourself want need way get got make use using like`.split(/\s+/u),
);

/** One searched word. */
export interface QueryWord {
  /** The word as typed (case kept, for the camelCase split). */
  readonly text: string;
  /** Lower-cased form. */
  readonly key: string;
  /** Its parts when it is a camelCase word, else empty. */
  readonly parts: readonly string[];
}

/**
 * The words of a query.
 *
 * @param query Any text.
 * @returns Distinct words (case-insensitive) in query order, without stop words, at most
 *   MAX_QUERY_WORDS; empty when the query has no word but stop words (nothing to search for).
 */
export function queryWords(query: string): QueryWord[] {
  const words = new Map<string, QueryWord>();
  for (const [text] of query.matchAll(TOKEN)) {
    const key = text.toLowerCase();
    if (words.has(key)) continue;
    const parts = text.split(CASE_BOUNDARY);
    words.set(key, { text, key, parts: parts.length > 1 ? parts : [] });
  }
  return [...words.values()].filter((word) => !STOP_WORDS.has(word.key)).slice(0, MAX_QUERY_WORDS);
}

/**
 * One word as an FTS5 expression that can never be read as FTS5 syntax: a quoted string, or for
 * a camelCase word `("word" OR "its parts")` (the parts are a phrase in the `terms` column).
 */
export function wordExpression(word: QueryWord): string {
  const quoted = `"${word.text.replace(/"/g, '""')}"`;
  return word.parts.length === 0 ? quoted : `(${quoted} OR "${word.parts.join(' ').replace(/"/g, '""')}")`;
}
