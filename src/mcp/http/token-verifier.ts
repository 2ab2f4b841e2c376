// Bearer token validation of the remote server (docs/design/remote.md §1.6, §1.7): jose, imported lazily on
// the first token so that no other path (and no unauthenticated run) evaluates it.
import type * as Jose from 'jose';
import { type FailureClass, isFailureClass } from '../../providers/failure.ts';
import type { JwksFetch } from './jwks-fetch.ts';
import { CLOCK_TOLERANCE_SECONDS, JWKS_CACHE_MAX_AGE_MS, JWKS_COOLDOWN_MS, JWKS_TIMEOUT_MS } from './remote-limits.ts';
import { VerifiedTokenCache } from './verified-token-cache.ts';

/** The only signature algorithms accepted; `none`, HMAC and everything else are refused. */
export const ACCEPTED_ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'EdDSA'];

/** What a token is worth. The reason a token failed is never disclosed further. */
export type TokenVerdict = 'valid' | 'invalid' | 'insufficient-scope' | 'jwks-unavailable';

/** What tokens are checked against. */
export interface TokenVerifierOptions {
  /** `--issuer`: compared as the exact string with `iss`. */
  readonly issuer: string;
  /** `--resource`: `aud` must equal it or be an array containing it (exact string). */
  readonly audience: string;
  /** `--jwks-url`. */
  readonly jwksUrl: string;
  /** `--scope`: the one scope the token must carry. */
  readonly scope: string;
  /** The JWKS fetch (proxy routing, limits); see jwks-fetch.ts. */
  readonly fetch: JwksFetch;
  /** The clock of the verified-token cache, in ms since the epoch (default Date.now; tests). */
  readonly now?: () => number;
  /** The verified-token cache (default a new one); passed in so its size can be a metric. */
  readonly cache?: VerifiedTokenCache;
}

/** Checks one token. Never throws. */
export type TokenVerifier = (token: string) => Promise<TokenVerdict>;

/**
 * Why a token was refused, for the operator log only (docs/design/remote.md §1.10); the client
 * never learns it.
 */
export type TokenRefusal = 'auth-malformed' | 'auth-signature' | 'auth-expired' | 'auth-not-yet-valid' | 'auth-issuer' | 'auth-audience' | 'auth-scope';

/** One token's verdict with the operator's detail. */
export type TokenCheck =
  | { readonly verdict: 'valid' }
  | { readonly verdict: 'invalid' | 'insufficient-scope'; readonly refusal: TokenRefusal }
  | { readonly verdict: 'jwks-unavailable'; readonly failure: FailureClass };

/** Checks one token with its detail. Never throws. */
export type TokenChecker = (token: string) => Promise<TokenCheck>;

// jose error codes that mean "the key set could not be obtained or used", not "bad token".
const JWKS_UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID']);

/**
 * Builds the verifier. Nothing is imported or fetched until the first token arrives; the
 * JWKS is then fetched once and cached (600000 ms; an unknown `kid` refetches at most once per
 * 30000 ms), and concurrent verifications share one fetch (jose's `createRemoteJWKSet`). A
 * valid token is remembered (at most 256, each for at most 60000 ms and never past its `exp`
 * plus the tolerance, and forgotten when a fetched key set is installed) and then accepted
 * without a second signature check.
 *
 * @param options Issuer, audience, JWKS URL, scope and the JWKS fetch.
 * @returns `verify(token)`: `valid`; `invalid` for a malformed token, a bad signature, no
 *   matching key, an algorithm other than RS256/ES256/EdDSA (refused before any key lookup),
 *   or a failed `iss`/`aud`/`exp`/`nbf` check (60 s tolerance, `exp` required);
 *   `insufficient-scope` when neither `scope` nor `scp` carries the scope; `jwks-unavailable`
 *   when the key set could not be obtained (the next token tries again).
 * @see docs/design/remote.md §1.6, §1.7
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const check = createTokenChecker(options);
  return async (token) => (await check(token)).verdict;
}

/**
 * {@link createTokenVerifier} with the reason of a refusal (`auth-expired`, `auth-audience` …)
 * and the failure class of an unavailable key set, for the operator log.
 *
 * @see docs/design/remote.md §1.6, §1.10
 */
export function createTokenChecker(options: TokenVerifierOptions): TokenChecker {
  let loaded: Promise<{ jose: typeof Jose; getKey: ReturnType<typeof Jose.createRemoteJWKSet> }> | undefined;
  const load = () =>
    (loaded ??= import('jose').then((jose) => ({
      jose,
      getKey: jose.createRemoteJWKSet(new URL(options.jwksUrl), {
        timeoutDuration: JWKS_TIMEOUT_MS,
        cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
        cooldownDuration: JWKS_COOLDOWN_MS,
        [jose.customFetch]: options.fetch,
        [jose.jwksCache]: keySetInstalls,
      }),
    })));
  const verified = options.cache ?? new VerifiedTokenCache();
  // jose writes `uat` here each time it installs a fetched key set. A remembered token may have
  // been checked with a key the new set lacks, so all are forgotten then, as a check against the
  // new set would refuse them; a check that began before the install is not remembered.
  let installs = 0;
  const keySetInstalls: Jose.ExportedJWKSCache = {
    jwks: { keys: [] },
    get uat(): number {
      return Number.NaN;
    },
    set uat(_updatedAt: number) {
      installs += 1;
      verified.clear();
    },
  };
  const now = options.now ?? Date.now;
  return async (token) => {
    if (verified.has(token, now())) return VALID;
    const { jose, getKey } = await load();
    const installsBefore = installs;
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, getKey, {
        algorithms: [...ACCEPTED_ALGORITHMS],
        issuer: options.issuer,
        audience: options.audience,
        requiredClaims: ['exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (error) {
      if (isJwksUnavailable(error)) return { verdict: 'jwks-unavailable', failure: jwksFailureClass(error) };
      return { verdict: 'invalid', refusal: refusalOf(error) };
    }
    if (!carriesScope(payload, options.scope)) return { verdict: 'insufficient-scope', refusal: 'auth-scope' };
    if (installs === installsBefore) verified.add(token, payload.exp, now());
    return VALID;
  };
}

const VALID: TokenCheck = { verdict: 'valid' };

/** jose's error code (and claim) → the refusal; anything unrecognised is a malformed token. */
function refusalOf(error: unknown): TokenRefusal {
  const { code, claim } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; claim?: unknown };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'auth-expired';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'auth-signature';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'iss') return 'auth-issuer';
      if (claim === 'aud') return 'auth-audience';
      if (claim === 'nbf') return 'auth-not-yet-valid';
      return 'auth-malformed';
    default:
      return 'auth-malformed';
  }
}

/** The failure class of an unavailable key set: the JWKS fetch's own, or `timeout` for jose's. */
function jwksFailureClass(error: unknown): FailureClass {
  const failureClass = (error as { failureClass?: unknown }).failureClass;
  if (isFailureClass(failureClass)) return failureClass;
  return (error as { code?: unknown }).code === 'ERR_JWKS_TIMEOUT' ? 'timeout' : 'invalid-envelope';
}

function isJwksUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { name?: unknown }).name === 'JwksUnavailableError') return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && JWKS_UNAVAILABLE_CODES.has(code);
}

/**
 * Whether the claims carry `scope`: the `scope` claim (space-separated string) or the `scp`
 * claim (an array of strings, or a space-separated string) contains it exactly.
 *
 * @see docs/design/remote.md §1.6 step 3
 */
export function carriesScope(payload: Readonly<Record<string, unknown>>, scope: string): boolean {
  const listed = (value: unknown): boolean => {
    if (typeof value === 'string') return value.split(' ').includes(scope);
    return Array.isArray(value) && value.some((entry) => entry === scope);
  };
  return (typeof payload['scope'] === 'string' && listed(payload['scope'])) || listed(payload['scp']);
}
