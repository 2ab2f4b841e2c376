// The least a `corpus serve` token must be (docs/design/providers.md §8.2): the service answers
// anyone who sends it, on a port other machines may reach, so a token a person can guess or a
// client can try in a few thousand requests is refused at start.

/** Fewest characters a token may have (`openssl rand -hex 32` gives 64). */
export const MIN_TOKEN_CHARACTERS = 16;
/** Fewest different characters: `aaaaaaaaaaaaaaaa` or `1111111111111111` is no secret. */
export const MIN_TOKEN_DISTINCT_CHARACTERS = 6;

/**
 * Whether a usable credential (docs/design/config.md §7.1) is too weak to guard the service.
 *
 * @param token The value of a `--token-env` variable.
 * @returns True when it has fewer than {@link MIN_TOKEN_CHARACTERS} code points, or fewer than
 *   {@link MIN_TOKEN_DISTINCT_CHARACTERS} different ones.
 */
export function isWeakToken(token: string): boolean {
  const characters = [...token];
  return characters.length < MIN_TOKEN_CHARACTERS || new Set(characters).size < MIN_TOKEN_DISTINCT_CHARACTERS;
}

/**
 * The operator line for a weak token; never the token or the variable's name.
 *
 * @param position Which `--token-env` (`--token-env`, `the second --token-env`, …).
 */
export function weakTokenText(position: string): string {
  return `The service token is too weak: the variable given to ${position} must hold at least ${MIN_TOKEN_CHARACTERS} characters, at least ${MIN_TOKEN_DISTINCT_CHARACTERS} of them different (for example the output of openssl rand -hex 32).`;
}
