// The `inert-items` check (docs/design/remote.md §2.2; docs/design/profile-v1.md §5.2, §5.3): a successful
// result's text and structuredContent hold no raw invisible, reordering or line-breaking code
// point, and no item
// carries a `uri` with a scheme other than http or https. A server that passes a provider's tag
// characters, bidi controls or `javascript:` link through unchanged fails it.
import { firstUnsafeCodePoint } from '../contract/escape.ts';
import { isSafeUri } from '../contract/safe-uri.ts';
import { isPlainObject } from '../util/plain-object.ts';

function hex(codePoint: number): string {
  return codePoint.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * @param text The result's text block `T`.
 * @param structured The result's `structuredContent`.
 * @returns undefined when the result is inert, else the FAIL reason (a fixed phrase; the
 *   offending code point as U+XXXX, never the server's text).
 * @see docs/design/remote.md §2.2
 */
export function inertItemsReason(text: string, structured: Readonly<Record<string, unknown>>): string | undefined {
  const unsafe = firstUnsafeCodePoint(text);
  if (unsafe !== undefined) return `the text contains the raw invisible or control character U+${hex(unsafe)}`;
  // Clients such as Qwen Code show the model structuredContent too: it must be inert as well.
  const structuredUnsafe = firstUnsafeCodePoint(JSON.stringify(structured));
  if (structuredUnsafe !== undefined) return `structuredContent contains the raw invisible or control character U+${hex(structuredUnsafe)}`;
  const envelope = structured['untrusted_external_context'];
  const items = isPlainObject(envelope) && Array.isArray(envelope['items']) ? envelope['items'] : [];
  const index = items.findIndex((item) => isPlainObject(item) && typeof item['uri'] === 'string' && !isSafeUri(item['uri']));
  if (index >= 0) return `item ${index} has a uri that is neither an http(s) URL nor a relative reference`;
  return undefined;
}
