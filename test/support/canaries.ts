// Canary values that tests feed into the product where a secret, query, memory text, upstream
// body, URL path or credential variable name goes, and the assertion that none leaked.
import { expect } from 'bun:test';

/**
 * Each canary ends in a unique 8-character token; {@link expectNoCanary} looks for the token,
 * so a value that leaks cut, quoted or JSON-escaped is still caught. The values pass the
 * product's own rules: the credential is a valid header value (config.md §7.1), the query
 * and content are valid inputs, the path is a valid `basePath` segment.
 */
export const CANARY = {
  /** A provider credential (API key or bearer token). */
  credential: 'ec-canary-credential-Q7xK2m9P',
  /** A search query. */
  query: 'canary query about Z4vN8r1T',
  /** Memory content of a `context_remember` write. */
  content: 'canary memory text W3jH6s0L',
  /** Text inside an upstream response body (error bodies, items). */
  body: 'canary upstream body R5tY9u2E',
  /** A URL path segment (for basePath and endpoint URLs). */
  path: 'ec-canary-path-B8nM4k7D',
  /** The name of the environment variable holding the credential. */
  envName: 'EC_CANARY_CREDENTIAL_VAR_J2pL5c8V',
} as const;

/** One canary name. */
export type CanaryName = keyof typeof CANARY;

const TOKEN_LENGTH = 8;

/** The token a canary is recognized by (its last 8 characters). */
export function canaryToken(name: CanaryName): string {
  return CANARY[name].slice(-TOKEN_LENGTH);
}

/**
 * Names of the canaries whose token occurs in `text` (case-insensitive).
 *
 * @param only The canaries to look for (default: all).
 */
export function findCanaries(text: string, only: readonly CanaryName[] = Object.keys(CANARY) as CanaryName[]): CanaryName[] {
  const haystack = text.toLowerCase();
  return only.filter((name) => haystack.includes(canaryToken(name).toLowerCase()));
}

/**
 * Fails the test when any canary occurs in `text`.
 *
 * @param text Output to check (stdout, stderr, an envelope, an error message…).
 * @param options `allow`: canaries this output may legitimately carry (for example `envName`
 *   in the probe's operator-supplied `--credential-env`, or `query` in a request body).
 */
export function expectNoCanary(text: string, options: { readonly allow?: readonly CanaryName[] } = {}): void {
  const allowed = new Set(options.allow ?? []);
  const names = (Object.keys(CANARY) as CanaryName[]).filter((name) => !allowed.has(name));
  expect(findCanaries(text, names)).toEqual([]);
}
