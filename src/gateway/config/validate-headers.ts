// The `headers` object of one server (docs/design/frontend-mcp.md §2.3): names, literal values and the
// one permitted `${VAR}` form. Resolution happens later, in resolve-headers.ts.
import { displayKey } from './display-key.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { isPlainObject } from '../../util/plain-object.ts';

/** Most headers one server may configure. */
export const MAX_HEADERS = 16;
const HEADER_NAME = /^[a-z0-9-]{1,80}$/;
// The transport owns these; letting the file set them would break or spoof the protocol.
const RESERVED_HEADERS = new Set([
  'host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding',
  'mcp-session-id', 'mcp-protocol-version', 'last-event-id',
]);
// C0 controls except tab, and DEL (docs/design/frontend-mcp.md §2.3, "header value").
const FORBIDDEN_VALUE_CHAR = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Exactly one `${VAR}` reference and nothing else. */
export const VARIABLE_REFERENCE = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

/**
 * Validates a server's headers without resolving variables.
 *
 * @param raw The `headers` value from the file (undefined when absent).
 * @returns Lowercased names → values as written (literal, or exactly `${VAR}`), in file order.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid`: not an object, more than 16
 *   entries, an invalid, duplicate or reserved name, an invalid value, or a `${` that is not
 *   exactly one `${VARIABLE}` reference. Values never appear in the message.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function validateHeaders(raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) throw configInvalid('Frontend MCP headers must be an object.');
  const entries = Object.entries(raw);
  if (entries.length > MAX_HEADERS) throw configInvalid('Frontend MCP has too many headers.');
  const headers: Record<string, string> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name) || Object.hasOwn(headers, name)) {
      throw configInvalid('Frontend MCP contains an invalid header.');
    }
    if (typeof value !== 'string' || value === '' || FORBIDDEN_VALUE_CHAR.test(value)) {
      throw configInvalid('Frontend MCP contains an invalid header.');
    }
    // Improvement 3: a `${` that is not one whole reference is an error, never sent literally.
    if (value.includes('${') && !VARIABLE_REFERENCE.test(value)) {
      throw configInvalid(
        `Frontend MCP header ${displayKey(name)} must be a literal value or exactly one \${VARIABLE} reference.`,
      );
    }
    headers[name] = value;
  }
  return headers;
}
