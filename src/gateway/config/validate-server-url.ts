// The `url` rules of one server (docs/design/frontend-mcp.md §2.3 and improvement 1): HTTPS, or plain HTTP
// to a loopback host without headers.
import { configInvalid } from '../frontend-mcp-error.ts';

/** Longest URL, in UTF-16 code units. */
export const MAX_URL_LENGTH = 2048;
// `URL.hostname` keeps the brackets of an IPv6 literal, so `[::1]` is compared with them
// (the reference compared with `::1`, which never matched).
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Validates a server URL.
 *
 * @param raw The `url` value from the file.
 * @param hasHeaders Whether the server configures at least one header.
 * @returns The URL string as written.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid`: not a string of at most 2048
 *   characters that parses; credentials or a fragment; a scheme other than HTTPS except
 *   header-less HTTP to loopback. The URL never appears in the message.
 * @see docs/design/frontend-mcp.md §2.3
 */
export function validateServerUrl(raw: unknown, hasHeaders: boolean): string {
  if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) throw configInvalid('Frontend MCP URL is invalid.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw configInvalid('Frontend MCP URL is invalid.');
  }
  if (url.username !== '' || url.password !== '' || raw.includes('#')) {
    throw configInvalid('Frontend MCP URL must not contain credentials or a fragment.');
  }
  if (url.protocol === 'https:') return raw;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !hasHeaders) return raw;
  throw configInvalid('Remote Frontend MCP requires HTTPS; local HTTP cannot carry headers.');
}
