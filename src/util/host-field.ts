// The request `Host` field as RFC 9112 §3.2 and RFC 3986 §3.2.2 read it, judged from the header
// alone, so every runtime answers the same whatever its HTTP layer built into `request.url`.

/** Why a `Host` field cannot be used, or undefined when it is one well-formed `host[:port]`. */
export type HostFieldProblem = 'missing' | 'repeated' | 'malformed';

// host = IP-literal / IPv4address / reg-name (RFC 3986 §3.2.2, no comma: see below);
// port = at most 5 digits, ≤ 65535. Userinfo, a path, a query, spaces and controls are not a host.
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+;=]|%[0-9A-Fa-f]{2})+)$/;
const HOST_AND_PORT = /^(.*?)(?::(\d{0,5}))?$/;

/**
 * Checks a request's `Host` value (`request.headers.get('host')`).
 *
 * @param value The header value, or null when the request has none.
 * @returns `missing` for null; `repeated` for a value with a comma (Bun and Node.js fold two
 *   `Host` fields into `a, b`, which Deno's HTTP layer refuses itself with an empty 400);
 *   `malformed` for anything that is not `host[:port]` with a port of 0…65535; otherwise undefined.
 * @see docs/design/remote.md §1.5 step 1, docs/design/providers.md §8.2 row 0
 */
export function hostFieldProblem(value: string | null): HostFieldProblem | undefined {
  if (value === null) return 'missing';
  if (value.includes(',')) return 'repeated';
  const parts = HOST_AND_PORT.exec(value);
  const host = parts?.[1] ?? '';
  const port = parts?.[2];
  if (!HOST_PATTERN.test(host)) return 'malformed';
  if (port !== undefined && port !== '' && Number(port) > 65_535) return 'malformed';
  return undefined;
}
