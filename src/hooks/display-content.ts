// The display form of memory content in the write-confirmation reason (docs/design/hooks.md §3.3): JSON
// string syntax with every invisible or line-breaking character escaped, so the user sees
// exactly what will be stored and parsing the form as JSON gives the content back.

// U+007F–U+009F (DEL and C1), U+2028, U+2029 and general category Cf, astral ones included.
// JSON.stringify has already escaped C0, `"`, `\` and lone surrogates.
const INVISIBLE = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

function escapeUnits(char: string): string {
  let escaped = '';
  for (let index = 0; index < char.length; index++) {
    escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

/**
 * Renders memory content for the confirmation prompt.
 *
 * @param content The exact `tool_input.content` (already valid per docs/design/write.md §2.1).
 * @returns `JSON.stringify(content)` with U+007F–U+009F, U+2028, U+2029 and every Cf
 *   character replaced by `\uXXXX` per UTF-16 unit, lowercase hex (U+110BD →
 *   `\ud804\udcbd`). `JSON.parse` of the result equals `content`.
 * @see docs/design/hooks.md §3.3
 */
export function displayContent(content: string): string {
  return JSON.stringify(content).replace(INVISIBLE, escapeUnits);
}
