// The `Host` allow-list (DNS-rebinding protection) of every listener: `/mcp` and the probes of
// `serve --http` (docs/design/remote.md §1.5 step 1), `corpus serve` (docs/design/providers.md §8.2 row 0b)
// and the `--metrics-listen` listeners (docs/design/remote.md §1.12).

/** Listen hosts that count as loopback, as written in `--listen` (docs/design/remote.md §1.1). */
export const LOOPBACK_LISTEN_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The `Host` header values the server answers, lowercased.
 *
 * @param listenHost The `--listen` host in URL form (IPv6 in brackets).
 * @param port The bound TCP port (the real one when `--listen` asked for port 0).
 * @param resource The `--resource` URL, if given.
 * @param extra The `--allowed-host` values.
 * @returns `<listenHost>:<port>`; for a loopback listen host also `localhost:<port>`,
 *   `127.0.0.1:<port>` and `[::1]:<port>`; and the WHATWG `URL.host` of `resource` (with its
 *   port only when the URL names a non-default one); and each `--allowed-host` value from
 *   {@link parseAllowedHost}, a port-less one stored as `name:*` (any port, or none).
 * @see docs/design/remote.md §1.5 step 1
 */
export function allowedHosts(listenHost: string, port: number, resource: string | undefined, extra: readonly string[] = []): ReadonlySet<string> {
  const hosts = new Set<string>([`${listenHost.toLowerCase()}:${port}`]);
  if (LOOPBACK_LISTEN_HOSTS.has(listenHost.toLowerCase())) {
    for (const host of LOOPBACK_LISTEN_HOSTS) hosts.add(`${host}:${port}`);
  }
  if (resource !== undefined) hosts.add(new URL(resource).host.toLowerCase());
  for (const value of extra) hosts.add(HAS_PORT.test(value) ? value : `${value}:*`);
  return hosts;
}

/**
 * Whether a `Host` header value is allowed (ASCII case-insensitive comparison).
 *
 * @param allowed The set from {@link allowedHosts} or {@link listenerAllowedHosts}; an entry
 *   `name:*` (a port-less `--allowed-host`) allows `name` alone and with any port.
 * @param host The request's `Host` value; null (absent) is never allowed.
 */
export function isAllowedHost(allowed: ReadonlySet<string>, host: string | null): boolean {
  if (host === null || host.includes('*')) return false;
  const value = asciiLowercase(host);
  return allowed.has(value) || allowed.has(`${PORT_SUFFIX.exec(value)?.[1] ?? value}:*`);
}

// ASCII-only lowercasing: a non-ASCII letter must not fold onto an allowed ASCII host.
function asciiLowercase(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * The allow-list of a listener that has no `--resource`: `corpus serve` and the
 * `--metrics-listen` listeners (the rule of {@link allowedHosts} without a resource), plus the
 * `--allowed-host` values (docs/design/providers.md §8.2 row 0b).
 *
 * @param hostname The listen host as parsed, IPv6 with or without brackets.
 * @param port The bound TCP port.
 * @param extra Values from {@link parseAllowedHost}: `name:port` allows exactly that, a bare
 *   `name` allows it without a port and with any port.
 * @returns The set for {@link isAllowedHost}; a bare name is stored as `name:*`.
 */
export function listenerAllowedHosts(hostname: string, port: number, extra: readonly string[] = []): ReadonlySet<string> {
  const bracketed = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return allowedHosts(bracketed, port, undefined, extra);
}

// `name:port`, `[v6]:port`; a bracketed IPv6 literal alone ends with `]`.
const HAS_PORT = /:\d+$/;
const PORT_SUFFIX = /^(.*?)(?::\d*)?$/;

/** Why an `--allowed-host` value is refused, for the usage error. */
export type AllowedHostProblem = 'empty' | 'url' | 'wildcard' | 'invalid';

const DNS_NAME = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const VALUE_PARTS = /^(\[[^\]]*\]|[^:[\]]*)(?::([0-9]{1,5}))?$/;

/**
 * Validates one `--allowed-host` value: a DNS name, an IPv4 address or a bracketed IPv6 address,
 * with an optional port from 1 to 65535.
 *
 * @returns The lowercased value (IPv6 in its canonical form), or the problem.
 * @see docs/design/providers.md §8.2 row 0b
 */
export function parseAllowedHost(text: string): { readonly value: string } | { readonly problem: AllowedHostProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'empty' };
  if (trimmed.includes('/') || trimmed.includes('@') || trimmed.includes('?') || trimmed.includes('#')) return { problem: 'url' };
  if (trimmed.includes('*')) return { problem: 'wildcard' };
  const parts = VALUE_PARTS.exec(asciiLowercase(trimmed));
  const name = parts?.[1] ?? '';
  const port = parts?.[2];
  if (parts === null || (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))) return { problem: 'invalid' };
  const host = name.startsWith('[') ? canonicalIpv6(name) : DNS_NAME.test(name) || IPV4.test(name) ? name : undefined;
  if (host === undefined) return { problem: 'invalid' };
  return { value: port === undefined ? host : `${host}:${Number(port)}` };
}

// The WHATWG form of a bracketed IPv6 literal (what clients send), or undefined.
function canonicalIpv6(bracketed: string): string | undefined {
  try {
    const host = new URL(`http://${bracketed}/`).host;
    return host.startsWith('[') ? host : undefined;
  } catch {
    return undefined;
  }
}
