// The display form of memory content in the write-confirmation reason (docs/design/hooks.md §3.3): JSON
// string syntax with every invisible or line-breaking character escaped by the one rule of
// model-visible text (contract/escape.ts), so the user sees exactly what will be stored and
// parsing the form as JSON gives the content back.
import { escapeInvisible } from '../contract/escape.ts';

/**
 * Renders memory content for the confirmation prompt.
 *
 * @param content The exact `tool_input.content` (already valid per docs/design/write.md §2.1).
 * @returns `JSON.stringify(content)` with DEL, C1, U+2028, U+2029, every Cf, Co and noncharacter
 *   code point replaced by `\uXXXX` per UTF-16 unit, lowercase hex (U+110BD → `\ud804\udcbd`);
 *   joiners inside emoji sequences and joining scripts stay. `JSON.parse` of the result equals
 *   `content`.
 * @see docs/design/hooks.md §3.3
 */
export function displayContent(content: string): string {
  return escapeInvisible(JSON.stringify(content));
}
