// How a check reason quotes what a server sent (docs/design/remote.md §2.2): JSON-encoded, cut to 200
// code points, so a reason stays one line whatever the server put in a name or message.
import { cutCodePoints } from '../util/code-points.ts';

/** The most code points a quoted server value takes in a reason. */
export const MAX_QUOTED_CODE_POINTS = 200;

/**
 * Quotes a server value for a reason.
 *
 * @param value A tool name, message, JSON pointer or any JSON value (`undefined` is written `undefined`).
 * @returns `JSON.stringify(value)` cut to 200 code points; `<` and `>` are left to the report's
 *   own escaping.
 * @see docs/design/remote.md §2.2
 */
export function quoteServerValue(value: unknown): string {
  const json = value === undefined ? 'undefined' : JSON.stringify(value);
  return cutCodePoints(json ?? 'undefined', MAX_QUOTED_CODE_POINTS);
}
