// Which item `uri` reaches the model (docs/design/profile-v1.md §5.3, step 2.2): an `http:` or
// `https:` URL, or a relative reference without an authority (what `corpus` produces). Any other
// scheme (`javascript:`, `data:`, `file:`, …) drops the field; the item stays.
import { firstUnsafeCodePoint } from './escape.ts';

// A scheme as RFC 3986 and the WHATWG URL parser read one: a letter, then letters, digits, + - .
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// A host, and no userinfo: `https://docs.example.com@evil.example/` names evil.example while a
// reader sees docs.example.com, and `https://user:secret@host` hands a password to the model
// whatever redactSecrets says (found by a hostile test).
const HTTP_URL = /^https?:\/\/[^/?#@]+(?:[/?#]|$)/i;
// Characters a URL parser strips or folds (C0, space, DEL, backslash): `java\nscript:` and
// ` javascript:` would become a scheme after parsing, so a uri holding one is not kept.
const PARSER_FOLDED = /[\u0000-\u0020\u007f\\]/;
// Space separators (NBSP, U+2000–U+200A, U+3000, …) that String.prototype.trim() and some
// renderers drop, and a character reference before the first `/`, `?` or `#` (`javascript&colon;`
// becomes a scheme where a Markdown renderer decodes entities in link targets): found by a
// hostile test, so such a uri is not kept either.
const TRIMMED_OR_DECODED = /\p{Zs}|^[^/?#]*&/u;

/**
 * Whether a provider's `uri` may reach the model.
 *
 * @param uri A non-empty string from the provider (before the code-point cut).
 * @returns True for an `http:`/`https:` URL with a host and no userinfo, or a relative reference that neither
 *   names a scheme nor starts with `//`, holding no unsafe code point (docs/design/profile-v1.md §5.2);
 *   false for everything else.
 * @see docs/design/profile-v1.md §5.3
 */
export function isSafeUri(uri: string): boolean {
  // A link that hides or reorders part of itself (bidi controls, tag characters) is dropped too.
  if (PARSER_FOLDED.test(uri) || TRIMMED_OR_DECODED.test(uri) || firstUnsafeCodePoint(uri) !== undefined) return false;
  if (SCHEME.test(uri)) return HTTP_URL.test(uri);
  return !uri.startsWith('//');
}
