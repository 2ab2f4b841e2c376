// The runtime-neutral shape of an HTTP listener: a web-standard handler bound to one socket.
// Implemented once per runtime (listen-bun.ts, listen-deno.ts, listen-node.ts).

/** A web-standard server: one request in, one response out (docs/design/style.md, "Runtime-neutral code"). */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Where to listen. */
export interface ListenOptions {
  /** Host name or IP address; an IPv6 address may be written with or without brackets. */
  readonly hostname: string;
  /** TCP port, 0…65535; 0 binds a free port. */
  readonly port: number;
}

/** A bound listener. */
export interface Listener {
  /** Base URL with the bound port and no trailing slash, e.g. `http://127.0.0.1:8787` or `http://[::1]:8787`. */
  readonly url: string;
  /** The bound TCP port (the real one when 0 was asked for). */
  readonly port: number;
  /**
   * Stops accepting connections, lets requests in progress finish, then resolves. Idle
   * keep-alive connections are closed. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** What each per-runtime module exports. */
export type ListenFunction = (handler: FetchHandler, options: ListenOptions) => Promise<Listener>;

/** The host part of a URL: IPv6 addresses get brackets (RFC 3986 §3.2.2). */
export function urlHost(hostname: string): string {
  const bare = bareHostname(hostname);
  return bare.includes(':') ? `[${bare}]` : bare;
}

/** The host name without IPv6 brackets, as socket APIs expect it. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
