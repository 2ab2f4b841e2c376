// The one place that names a failed search's class for the operator channel (check, the Hook
// log). Today it maps ProviderError kinds onto the ids of docs/design/providers.md §1.3; the
// shared classification of issue 14 item 1 replaces the body, not the callers.
import { ProviderError } from '../providers/provider-error.ts';

/** A failure class id and, for `http-status` and `redirect`, the status. */
export interface FailureClass {
  readonly id: string;
  readonly status?: number;
}

const KIND_TO_ID: Readonly<Record<string, string>> = {
  network: 'network',
  timeout: 'timeout',
  cancelled: 'cancelled',
  redirect: 'redirect',
  oversize: 'response-too-large',
  'invalid-utf8': 'invalid-utf8',
  'invalid-json': 'invalid-json',
  'invalid-response': 'invalid-envelope',
  'http-status': 'http-status',
};

/**
 * Classifies a provider failure. Never reads the error's message.
 *
 * @param error What the provider threw.
 * @returns The class id (`unknown` for anything that is not a ProviderError), with the status
 *   for `http-status` and `redirect`.
 */
export function failureClass(error: unknown): FailureClass {
  if (!(error instanceof ProviderError)) return { id: 'unknown' };
  const id = KIND_TO_ID[error.kind] ?? 'unknown';
  return error.status !== undefined && (id === 'http-status' || id === 'redirect') ? { id, status: error.status } : { id };
}

/** One-line operator hint per class id; empty when there is nothing better than the id. */
const HINTS: Readonly<Record<string, string>> = {
  network: 'The provider could not be reached: check the origin, DNS, firewall, proxy variables and certificates.',
  timeout: 'The provider did not answer in time: check that it is up, or raise the timeout in the configuration.',
  cancelled: 'The request was cancelled before it completed.',
  redirect: 'The provider answered with a redirect, which is never followed: configure the final URL.',
  'response-too-large': 'The provider answered with more than 1 MiB: check the endpoint or lower the result size.',
  'invalid-utf8': 'The provider answered with bytes that are not UTF-8: check the endpoint.',
  'invalid-json': 'The provider answered with something that is not JSON: check the origin and path (a proxy or login page?).',
  'invalid-envelope': 'The provider answered JSON of the wrong shape: check the provider type, preset and path.',
  unknown: 'Unexpected failure: run again with the same configuration and report it if it persists.',
};

/**
 * The hint for a class, naming what to change.
 *
 * @param cls A class from {@link failureClass}.
 * @returns One line, never empty.
 */
export function failureHint(cls: FailureClass): string {
  if (cls.id === 'http-status') {
    if (cls.status === 401 || cls.status === 403) return 'The provider refused the credential: check the key in the credential variable and its permissions.';
    if (cls.status === 404) return 'The provider has no such route: check the origin, basePath and provider type or preset.';
    if (cls.status === 429) return 'The provider is rate limiting: try again later or raise the limit.';
    if (cls.status !== undefined && cls.status >= 500) return 'The provider failed internally: check its logs.';
    return 'The provider rejected the request: check the provider type, preset and scope.';
  }
  return HINTS[cls.id] ?? HINTS['unknown']!;
}

/** `<id>` or `<id> <status>`, as the operator lines print a class. */
export function formatFailureClass(cls: FailureClass): string {
  return cls.status === undefined ? cls.id : `${cls.id} ${cls.status}`;
}
