// PolarDB's Direct Import encoding: a memory stored as the JSON-serialized message list
// (docs/design/providers.md §5.5, §6.3; docs/design/mem0-services.md §3).
import { isPlainObject } from '../util/plain-object.ts';

/**
 * Decodes `[{"role":"user","content":"<text>"}]` to `<text>`.
 *
 * The value must parse as a JSON array of exactly one object whose `role` is `"user"` and
 * whose `content` is a non-empty string; other keys of that object are ignored.
 *
 * @param memory A `memory` string from a PolarDB response.
 * @returns The decoded content, or undefined when `memory` is not that encoding.
 * @see docs/design/providers.md §5.5
 */
export function decodeDirectImport(memory: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(memory);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 1) return undefined;
  const message: unknown = parsed[0];
  if (!isPlainObject(message) || message['role'] !== 'user') return undefined;
  const content = message['content'];
  return typeof content === 'string' && content !== '' ? content : undefined;
}
