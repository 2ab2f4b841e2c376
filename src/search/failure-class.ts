// The failure class of a failed search for the operator channel (check, the Hook log),
// computed in this one place from the ProviderError kind (docs/design/providers.md §1.6). The
// names and shape follow the shared classification of issue 14 item 1 (providers/failure.ts:
// describeFailure, failureLabel), which replaces this module when it lands.
import { ProviderError } from '../providers/provider-error.ts';

/** A classified failure as the operator sees it. */
export interface FailureDescription {
  readonly id: string;
  /** HTTP status for `http-status` and `redirect`; absent otherwise. */
  readonly status?: number;
  /** One line saying what to check or change; never a URL, value or credential. */
  readonly hint: string;
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

const HINTS: Readonly<Record<string, string>> = {
  network: 'The provider could not be reached: check the origin, DNS, firewall, proxy variables and certificates.',
  timeout: 'No complete answer within the timeout: check the service and the network path, or raise the timeout in the configuration.',
  cancelled: 'The request was cancelled before it completed.',
  redirect: 'The service answered with a redirect, which is never followed: set the origin (and basePath) to the final address.',
  'response-too-large': 'The answer exceeded its size limit: check that the origin, basePath and preset point at the search API.',
  'invalid-utf8': 'The answer is not UTF-8 text: check that the origin points at the API itself, not a proxy or login page.',
  'invalid-json': 'The answer is not JSON: check that the origin and basePath point at the API itself, not a web page or login portal.',
  'invalid-envelope': 'The JSON answer does not have the expected shape: check that provider.type and the preset match the service (external-context probe).',
};

function statusHint(status: number | undefined): string {
  if (status === 401 || status === 403) return `The provider refused the credential (HTTP ${status}): check the credential variable holds a valid key with access to this corpus.`;
  if (status === 404 || status === 405) return `The provider has no such endpoint (HTTP ${status}): check the origin, basePath and the provider type or preset.`;
  if (status === 429) return 'The provider is rate-limiting (HTTP 429): reduce the request rate or raise the quota.';
  if (status !== undefined && status >= 500) return `The provider failed internally (HTTP ${status}): check the service's own logs.`;
  return `The provider answered HTTP ${status ?? 'with an error status'}: check the provider type, preset and scope.`;
}

/**
 * Classifies a provider failure. Never reads the error's message.
 *
 * @param error What the provider threw.
 * @returns The class with its hint, or undefined for anything that is not a ProviderError.
 */
export function describeFailure(error: unknown): FailureDescription | undefined {
  if (!(error instanceof ProviderError)) return undefined;
  const id = KIND_TO_ID[error.kind] ?? 'network';
  if (id === 'http-status') return { id, ...(error.status === undefined ? {} : { status: error.status }), hint: statusHint(error.status) };
  if (id === 'redirect' && error.status !== undefined) return { id, status: error.status, hint: HINTS['redirect']! };
  return { id, hint: HINTS[id] ?? HINTS['network']! };
}

/** `<id>`, or `<id> <status>` for `http-status` and `redirect` (e.g. `http-status 404`). */
export function failureLabel(failure: { readonly id: string; readonly status?: number | undefined }): string {
  return (failure.id === 'http-status' || failure.id === 'redirect') && failure.status !== undefined ? `${failure.id} ${failure.status}` : failure.id;
}
