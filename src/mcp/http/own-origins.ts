// The server's own browser origin, allowed by default (docs/design/remote.md §1.5 step 2): a page
// served from the same scheme, host and port as the MCP endpoint is no cross-origin caller.

/**
 * The `--allowed-origin` values plus the server's own origin, lowercased.
 *
 * @param allowed The `--allowed-origin` values, lowercased.
 * @param listenHost The `--listen` host in URL form (IPv6 in brackets).
 * @param port The bound TCP port (the real one when `--listen` asked for port 0).
 * @param resource The `--resource` URL, if given.
 * @param authenticated Whether authentication is on (no `--insecure-no-auth`).
 * @returns `allowed`, plus the WHATWG origin of `resource` when given, plus
 *   `http://<listenHost>:<port>` with `--insecure-no-auth` (the server then answers plain
 *   HTTP on that address, which is its own origin).
 * @see docs/design/remote.md §1.5 step 2
 */
export function withOwnOrigins(allowed: ReadonlySet<string>, listenHost: string, port: number, resource: string | undefined, authenticated: boolean): ReadonlySet<string> {
  const origins = new Set(allowed);
  if (resource !== undefined) origins.add(new URL(resource).origin.toLowerCase());
  if (!authenticated) origins.add(`http://${listenHost.toLowerCase()}:${port}`);
  return origins;
}
