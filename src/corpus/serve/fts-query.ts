// Turns a user query into an FTS5 query that can never be read as FTS5 syntax: each token
// becomes a quoted string, joined with OR (docs/design/providers.md §8.2).

// Tokens are maximal runs of Unicode letters and digits (docs/design/providers.md §8.2).
const TOKEN = /[\p{L}\p{N}]+/gu;

/**
 * Builds the FTS5 MATCH expression for a query.
 *
 * Every token is written as an FTS5 string (`"…"`); tokens repeated in any letter case are
 * kept once. Operators, column filters, prefixes and quotes in the query are never FTS5 syntax.
 *
 * @param query The user's query, any text.
 * @returns `"tok1" OR "tok2" …`, or undefined when the query has no token (only punctuation).
 * @see docs/design/providers.md §8.2
 */
export function buildFtsQuery(query: string): string | undefined {
  const tokens = new Map<string, string>();
  for (const [token] of query.matchAll(TOKEN)) {
    const key = token.toLowerCase();
    if (!tokens.has(key)) tokens.set(key, token);
  }
  if (tokens.size === 0) return undefined;
  // A token holds no `"`, but the FTS5 string rule (double it) is applied anyway.
  return [...tokens.values()].map((token) => `"${token.replace(/"/g, '""')}"`).join(' OR ');
}
