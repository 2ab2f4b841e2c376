// The service's token check: `authorization` must be exactly `Bearer <token>`, compared in
// constant time (docs/design/providers.md §8.2 row 3).
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Makes the check for one token.
 *
 * Both sides are hashed with SHA-256 first, so the comparison takes the same time whatever the
 * header's length or content, and the token's length does not leak either.
 *
 * @param token The credential from `--token-env` (already validated).
 * @returns A function that is true only for the header value `Bearer <token>`, byte for byte.
 * @see docs/design/providers.md §8.2
 */
export function bearerTokenCheck(token: string): (authorization: string | null) => boolean {
  const expected = sha256(`Bearer ${token}`);
  return (authorization) => {
    // An absent header is hashed too, so it costs the same as a wrong one.
    const actual = sha256(authorization ?? '');
    return timingSafeEqual(actual, expected) && authorization !== null;
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
