// How configuration keys appear in messages (docs/design/frontend-mcp.md §2.3): verbatim only when they
// are printable ASCII of at most 64 characters, otherwise `?`.

const PRINTABLE_KEY = /^[\x20-\x7e]{0,64}$/;

/**
 * Returns `key` when it is safe to print in a message, else `?`.
 *
 * @param key A server key, tool key, header name or unknown field name from the file.
 * @returns The key itself (printable ASCII, at most 64 UTF-16 units) or `?`. The
 *   configuration's unknown keys have a narrower rule (`plainKeyOrMark` in config/schema.ts).
 * @see docs/design/frontend-mcp.md §2.3
 */
export function printableKeyOrMark(key: string): string {
  return PRINTABLE_KEY.test(key) ? key : '?';
}
