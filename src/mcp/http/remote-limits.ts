// The fixed limits of the remote server (docs/design/remote.md §1.1, "Fixed limits"): no flag changes them.

/** Largest accepted request body, in bytes (docs/design/remote.md §1.5 step 6). */
export const MAX_REQUEST_BODY_BYTES = 65_536;

/** Longest a request body may take to arrive, in ms; then 408 `request_timeout` (docs/design/remote.md §1.5 step 6). */
export const REQUEST_READ_TIMEOUT_MS = 5000;

/** Timeout of one JWKS request, in ms (docs/design/remote.md §1.7). */
export const JWKS_TIMEOUT_MS = 5000;

/** Largest accepted JWKS response body, in bytes (docs/design/remote.md §1.7). */
export const MAX_JWKS_RESPONSE_BYTES = 1_048_576;

/** How long a fetched key set is used before it is fetched again, in ms (docs/design/remote.md §1.7). */
export const JWKS_CACHE_MAX_AGE_MS = 600_000;

/** Minimum time between two refetches caused by an unknown `kid`, in ms (docs/design/remote.md §1.7). */
export const JWKS_COOLDOWN_MS = 30_000;

/** Clock tolerance for `exp` and `nbf`, in seconds (docs/design/remote.md §1.6). */
export const CLOCK_TOLERANCE_SECONDS = 60;

/** How long requests in progress may finish after SIGINT or SIGTERM, in ms (docs/design/remote.md §1.9). */
export const SHUTDOWN_GRACE_MS = 5000;

/** Default `--scope` (docs/design/remote.md §1.1). */
export const DEFAULT_SCOPE = 'context.read';

/** Default `--max-concurrency`, in requests (docs/design/remote.md §1.1). */
export const DEFAULT_MAX_CONCURRENCY = 64;

/** `Retry-After` of a 503 `server_busy`, in seconds (docs/design/remote.md §1.5 step 4). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** `Retry-After` of a 503 `temporarily_unavailable` (JWKS), in seconds (docs/design/remote.md §1.6 step 4). */
export const JWKS_RETRY_AFTER_SECONDS = 30;

/** Most tokens remembered as verified at once (docs/design/remote.md §1.6 step 5). */
export const VERIFIED_TOKEN_CACHE_ENTRIES = 256;

/** Longest a token is remembered as verified, in ms, within its `exp` (docs/design/remote.md §1.6 step 5). */
export const VERIFIED_TOKEN_CACHE_MS = 60_000;
