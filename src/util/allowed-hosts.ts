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
 * @returns `<listenHost>:<port>`; for a loopback listen host also `localhost:<port>`,
 *   `127.0.0.1:<port>` and `[::1]:<port>`; and the WHATWG `URL.host` of `resource` (with its
 *   port only when the URL names a non-default one).
 * @see docs/design/remote.md §1.5 step 1
 */
export function allowedHosts(listenHost: string, port: number, resource: string | undefined): ReadonlySet<string> {
  const hosts = new Set<string>([`${listenHost.toLowerCase()}:${port}`]);
  if (LOOPBACK_LISTEN_HOSTS.has(listenHost.toLowerCase())) {
    for (const host of LOOPBACK_LISTEN_HOSTS) hosts.add(`${host}:${port}`);
  }
  if (resource !== undefined) hosts.add(new URL(resource).host.toLowerCase());
  return hosts;
}

/**
 * Whether a `Host` header value is allowed (ASCII case-insensitive comparison).
 *
 * @param allowed The set from {@link allowedHosts}.
 * @param host The request's `Host` value; null (absent) is never allowed.
 */
export function isAllowedHost(allowed: ReadonlySet<string>, host: string | null): boolean {
  return host !== null && allowed.has(asciiLowercase(host));
}

// ASCII-only lowercasing: a non-ASCII letter must not fold onto an allowed ASCII host.
function asciiLowercase(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * The allow-list of a listener that has no `--resource`: `corpus serve` and the
 * `--metrics-listen` listeners (the rule of {@link allowedHosts} without a resource).
 *
 * @param hostname The listen host as parsed, IPv6 with or without brackets.
 * @param port The bound TCP port.
 */
export function listenerAllowedHosts(hostname: string, port: number): ReadonlySet<string> {
  const bracketed = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return allowedHosts(bracketed, port, undefined);
}
