// The service's token check: `authorization` must be exactly `Bearer <token>`, compared in
// constant time (docs/design/providers.md §8.2 row 3).
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Makes the check for one token.
 *
 * Both sides are hashed with SHA-256 first, so the comparison takes the same time whatever the
 * header's length or content, and the token's length does not leak either.
 *
 * @param token The credential from `--token-env` (already validated), or every accepted one
 *   when `--token-env` is repeated (a rotation: old and new token both accepted).
 * @returns A function that is true only for the header value `Bearer <token>` of an accepted
 *   token, byte for byte.
 * @see docs/design/providers.md §8.2
 */
export function bearerTokenCheck(token: string | readonly string[]): (authorization: string | null) => boolean {
  const expected = (typeof token === 'string' ? [token] : token).map((one) => sha256(`Bearer ${one}`));
  return (authorization) => {
    // An absent header is hashed too, so it costs the same as a wrong one; every accepted token
    // is compared, so which one matched (or that none did) takes the same time.
    const actual = sha256(authorization ?? '');
    let matched = false;
    for (const one of expected) matched = timingSafeEqual(actual, one) || matched;
    return matched && authorization !== null;
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
