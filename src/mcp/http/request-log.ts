// The operator log of `serve --http` (docs/design/remote.md §1.10): one line per request and one startup
// line on stderr, as JSON (the default) or text. Configuration values only: never a token, a
// claim, a query, a result, a header or a path.
import type { FailureClass } from '../../providers/failure.ts';
import type { TokenRefusal } from './token-verifier.ts';

/** `--log-format` values. */
export const LOG_FORMATS = ['json', 'text', 'none'] as const;

/** How the operator log is written; `none` writes nothing. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The outcome ids that take no failure class, in check order (docs/design/remote.md §1.10). */
export const FIXED_REQUEST_OUTCOMES = [
  'host-refused',
  'origin-refused',
  'not-found',
  'method-not-allowed',
  'busy',
  'auth-missing',
  'auth-malformed',
  'auth-signature',
  'auth-expired',
  'auth-not-yet-valid',
  'auth-issuer',
  'auth-audience',
  'auth-scope',
  'read-timeout',
  'too-large',
  'batch-refused',
  'bad-request',
  'healthy',
  'ready',
  'not-ready',
  'ok',
] as const satisfies readonly (
  | 'ok'
  | 'healthy'
  | 'ready'
  | 'not-ready'
  | 'host-refused'
  | 'origin-refused'
  | 'not-found'
  | 'method-not-allowed'
  | 'busy'
  | 'auth-missing'
  | TokenRefusal
  | 'read-timeout'
  | 'too-large'
  | 'batch-refused'
  | 'bad-request'
)[];

/** What became of one request: a fixed id, or `jwks-<class>` / `provider-<class>` (docs/design/remote.md §1.10). */
export type RequestOutcome = (typeof FIXED_REQUEST_OUTCOMES)[number] | `jwks-${FailureClass}` | `provider-${FailureClass}`;

/** One request as the log records it. */
export interface RequestLogEntry {
  /** When the answer was handed back, ISO 8601 UTC with milliseconds. */
  readonly time: string;
  /** The HTTP status of the answer. */
  readonly status: number;
  readonly outcome: RequestOutcome;
  /** Milliseconds from arrival to the answer, rounded. */
  readonly ms: number;
  /** Milliseconds spent in tool calls (provider requests), rounded; 0 when none ran. */
  readonly providerMs: number;
  /** The provider's HTTP status for `provider-http-status` and `provider-redirect`. */
  readonly providerStatus?: number;
  /** `--issuer`, for `auth-issuer` only. */
  readonly expectedIssuer?: string;
  /** `--resource`, for `auth-audience` only. */
  readonly expectedAudience?: string;
}

/** The startup facts (docs/design/remote.md §1.10). */
export interface StartupLogEntry {
  readonly time: string;
  /** The bound address, `host:port` with the real port. */
  readonly address: string;
  /** `--resource`, or undefined when none was given. */
  readonly resource: string | undefined;
  /** `oauth` with a token check, `none` with `--insecure-no-auth`. */
  readonly auth: 'oauth' | 'none';
  /** `--issuer` with `oauth`. */
  readonly issuer?: string;
}

/**
 * Formats one request line (without the newline).
 *
 * @param entry The request.
 * @param format `json`: one JSON object, keys in the order of {@link RequestLogEntry};
 *   `text`: `<time> <status> <outcome> <ms>ms provider=<ms>ms[ provider-status=<n>][ expected-issuer=<v>][ expected-audience=<v>]`.
 * @returns The line, or undefined for `none`.
 * @see docs/design/remote.md §1.10
 */
export function formatRequestLine(entry: RequestLogEntry, format: LogFormat): string | undefined {
  if (format === 'none') return undefined;
  if (format === 'json') return JSON.stringify(entry);
  const extras = [
    entry.providerStatus === undefined ? '' : ` provider-status=${entry.providerStatus}`,
    entry.expectedIssuer === undefined ? '' : ` expected-issuer=${entry.expectedIssuer}`,
    entry.expectedAudience === undefined ? '' : ` expected-audience=${entry.expectedAudience}`,
  ].join('');
  return `${entry.time} ${entry.status} ${entry.outcome} ${entry.ms}ms provider=${entry.providerMs}ms${extras}`;
}

/**
 * Formats the startup line (without the newline).
 *
 * @returns JSON `{"time","event":"listening","address","resource","auth","issuer"?}` or text
 *   `<time> listening address=<a> resource=<url|none> auth=<oauth|none>[ issuer=<url>]`;
 *   undefined for `none`.
 * @see docs/design/remote.md §1.10
 */
export function formatStartupLine(entry: StartupLogEntry, format: LogFormat): string | undefined {
  if (format === 'none') return undefined;
  if (format === 'json') {
    return JSON.stringify({
      time: entry.time,
      event: 'listening',
      address: entry.address,
      resource: entry.resource ?? null,
      auth: entry.auth,
      ...(entry.issuer === undefined ? {} : { issuer: entry.issuer }),
    });
  }
  const issuer = entry.issuer === undefined ? '' : ` issuer=${entry.issuer}`;
  return `${entry.time} listening address=${entry.address} resource=${entry.resource ?? 'none'} auth=${entry.auth}${issuer}`;
}
