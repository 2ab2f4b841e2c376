// What the user is asked about: a short, canonical rendering of the frozen arguments of a
// pending operation (docs/design/frontend-mcp.md §9, request step 3).
import { canonicalJson } from '../canonical-json.ts';
import { cutCodePoints } from '../result/untrusted-text.ts';

/** Longest string value shown, in code points (then `…`). */
export const SUMMARY_VALUE_CODE_POINTS = 200;
/** Longest summary, in code points (then `…`). */
export const SUMMARY_CODE_POINTS = 600;
/** Longest operation text (the tool description), in code points. */
export const OPERATION_CODE_POINTS = 400;

/**
 * Canonical JSON of the arguments with each string value cut to 200 code points plus `…`,
 * the whole cut to 600 code points plus `…`.
 *
 * @param args The frozen arguments.
 * @returns The summary text.
 * @see docs/design/frontend-mcp.md §9
 */
export function argumentsSummary(args: unknown): string {
  const text = canonicalJson(shortenStrings(args));
  const cut = cutCodePoints(text, SUMMARY_CODE_POINTS);
  return cut === text ? text : `${cut}…`;
}

/**
 * The operation shown with a confirmation request: the tool description, at most 400 code points.
 *
 * @param description The tool's model-visible description.
 * @returns The description, cut when longer.
 */
export function operationText(description: string): string {
  return cutCodePoints(description, OPERATION_CODE_POINTS);
}

function shortenStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    const cut = cutCodePoints(value, SUMMARY_VALUE_CODE_POINTS);
    return cut === value ? value : `${cut}…`;
  }
  if (Array.isArray(value)) return value.map(shortenStrings);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shortenStrings(item)]));
  }
  return value;
}
