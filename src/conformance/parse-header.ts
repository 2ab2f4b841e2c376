// `conformance --header "Name: value"` (docs/design/remote.md §2.1): split at the first colon, value
// trimmed, transport headers refused. Header values are never printed.

/** Headers the transport owns; `--header` cannot set them (any case). */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

// RFC 9110 §5.1: field-name = token; tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" /
// "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A field value may not carry CR, LF or NUL (RFC 9110 §5.5).
const INVALID_VALUE = /[\r\n\0]/;

/** One parsed header, or why it was refused. */
export type ParsedHeader = { readonly ok: true; readonly name: string; readonly value: string } | { readonly ok: false; readonly reason: 'form' | 'transport' };

/**
 * Parses one `--header` value.
 *
 * @param text `Name: value`.
 * @returns The name as written and the trimmed value; `form` when there is no `:`, the name is
 *   not an HTTP token or the value holds CR, LF or NUL; `transport` for a transport header.
 * @see docs/design/remote.md §2.1
 */
export function parseHeader(text: string): ParsedHeader {
  const colon = text.indexOf(':');
  if (colon === -1) return { ok: false, reason: 'form' };
  const name = text.slice(0, colon);
  const value = text.slice(colon + 1).trim();
  if (!TOKEN.test(name) || INVALID_VALUE.test(value)) return { ok: false, reason: 'form' };
  if (TRANSPORT_HEADERS.has(name.toLowerCase())) return { ok: false, reason: 'transport' };
  return { ok: true, name, value };
}
