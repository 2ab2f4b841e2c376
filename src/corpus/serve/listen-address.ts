// The `--listen` value of `corpus serve`: `host:port` or `[IPv6]:port` (docs/design/providers.md §8.2).

/** Default `--listen` value: loopback only. */
export const DEFAULT_LISTEN = '127.0.0.1:8787';

/** A parsed `--listen` value. */
export interface ListenAddress {
  /** Host name or address; IPv6 without brackets. */
  readonly hostname: string;
  /** TCP port 0…65535; 0 binds a free port. */
  readonly port: number;
}

const BRACKETED = /^\[([0-9A-Fa-f:.]+(?:%[\w.-]+)?)\]:(\d{1,5})$/;
const PLAIN = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/;

/**
 * Parses a `--listen` value.
 *
 * @param value `host:port` (host name or IPv4 address) or `[IPv6]:port`.
 * @returns The host and port, or undefined when the value has another form or the port is
 *   above 65535.
 * @see docs/design/providers.md §8.2
 */
export function parseListenAddress(value: string): ListenAddress | undefined {
  const match = BRACKETED.exec(value) ?? PLAIN.exec(value);
  if (match === null) return undefined;
  const hostname = match[1] as string;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  if (value.startsWith('[') && !hostname.includes(':')) return undefined;
  return { hostname, port };
}
