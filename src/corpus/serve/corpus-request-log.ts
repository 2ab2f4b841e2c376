// The request log of `corpus serve` (docs/design/providers.md §8.2a): one line per request on
// stderr with the time, status, outcome, result count and duration; never the query, the token,
// a header, a path or a result.

/** `--log-format` values of `corpus serve`. */
export const CORPUS_LOG_FORMATS = ['json', 'text', 'none'] as const;

/** How the request log is written; `none` writes nothing. */
export type CorpusLogFormat = (typeof CORPUS_LOG_FORMATS)[number];

/** The outcome ids, in the order of the request checks (docs/design/providers.md §8.2a). */
export const CORPUS_OUTCOMES = [
  'host-refused',
  'healthy',
  'ready',
  'not-ready',
  'not-found',
  'method-not-allowed',
  'unauthorized',
  'too-large',
  'read-timeout',
  'bad-request',
  'search-failed',
  'ok',
] as const;

/** What became of one request. */
export type CorpusOutcome = (typeof CORPUS_OUTCOMES)[number];

/** One request as the log records it. */
export interface CorpusRequestLogEntry {
  /** When the answer was handed back, ISO 8601 UTC with milliseconds. */
  readonly time: string;
  readonly status: number;
  readonly outcome: CorpusOutcome;
  /** Items in the answer; 0 for anything but a search. */
  readonly items: number;
  /** Milliseconds from arrival to the answer, rounded. */
  readonly ms: number;
}

/**
 * Formats one request line (without the newline).
 *
 * @returns JSON `{"time","status","outcome","items","ms"}` or text
 *   `<time> <status> <outcome> items=<n> <ms>ms`; undefined for `none`.
 * @see docs/design/providers.md §8.2a
 */
export function formatCorpusRequestLine(entry: CorpusRequestLogEntry, format: CorpusLogFormat): string | undefined {
  if (format === 'none') return undefined;
  if (format === 'json') return JSON.stringify(entry);
  return `${entry.time} ${entry.status} ${entry.outcome} items=${entry.items} ${entry.ms}ms`;
}
