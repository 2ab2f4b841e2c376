// The URL rule of `--resource`, `--issuer`, `--jwks-url` and `conformance --url` (docs/design/remote.md
// §1.1): the origin policy of docs/design/config.md §8 with a path allowed, and no insecure-HTTP escape.

/** Host names (as WHATWG `URL.hostname` reports them) that may use plain `http:`. */
const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks a URL flag value against the remote URL rule.
 *
 * @param value The flag value as given.
 * @returns True when it is an absolute `https:` URL, or `http:` with the host name exactly
 *   `localhost`, `127.0.0.1` or `[::1]`, without username, password, query or fragment (an
 *   empty `?` or `#` counts as present). A path is allowed.
 * @see docs/design/remote.md §1.1 ("URL rule"), docs/design/config.md §8
 */
export function isRemoteUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // `?` and `#` can only be delimiters in a parsed URL, so their presence means a query or a
  // fragment, even an empty one that URL.search and URL.hash report as "".
  if (value.includes('?') || value.includes('#')) return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname);
}
