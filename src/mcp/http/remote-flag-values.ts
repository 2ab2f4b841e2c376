// The value rules of `serve --http`'s address and origin flags (docs/design/remote.md §1.1).

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

/**
 * Parses `--listen`: an IPv4 literal, `localhost` or a bracketed IPv6 literal, a colon, and
 * a port 0…65535.
 *
 * @returns The host in URL form (IPv6 normalized, in brackets) and the port, or undefined.
 */
export function parseRemoteListen(value: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]*):([0-9]{1,5})$/.exec(value);
  if (match === null) return undefined;
  const rawHost = match[1] as string;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  if (rawHost === 'localhost' || IPV4.test(rawHost)) return { host: rawHost, port };
  if (!rawHost.startsWith('[')) return undefined;
  try {
    const host = new URL(`http://${rawHost}/`).hostname;
    return host.startsWith('[') ? { host, port } : undefined;
  } catch {
    return undefined;
  }
}

// `scheme://host[:port]` with http or https, no credentials, no path, no trailing slash.
export function isOriginValue(value: string): boolean {
  if (!/^https?:\/\/[^/?#@\s\\]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === '/' && url.hostname !== '';
  } catch {
    return false;
  }
}
