// The one failure classification of provider, JWKS and remote-MCP requests (docs/design/providers.md §1.6):
// fifteen ids, each with a one-line operator hint. Operator channel only: the model keeps the
// stable texts of §1.3, and no id or hint ever carries a URL, credential, query or body.
import { RUNTIME, type RuntimeName } from '../runtime/runtime.ts';

/** Every failure class, in the order docs/design/providers.md §1.6 lists them. */
export const FAILURE_CLASSES = [
  'dns-failure',
  'connection-refused',
  'connection-reset',
  'timeout',
  'tls-untrusted-certificate',
  'tls-hostname-mismatch',
  'tls-failure',
  'proxy-failure',
  'http-status',
  'redirect',
  'response-too-large',
  'invalid-utf8',
  'invalid-json',
  'invalid-envelope',
  'cancelled',
] as const;

/** Why a request failed; exactly one per failure. */
export type FailureClass = (typeof FAILURE_CLASSES)[number];

// Everything listed before 'http-status' failed below HTTP; 'cancelled' never got an answer either.
const NO_ANSWER_CLASSES: ReadonlySet<FailureClass> = new Set<FailureClass>([...FAILURE_CLASSES.slice(0, FAILURE_CLASSES.indexOf('http-status')), 'cancelled']);

/**
 * The classes where no answer from the service arrived: the network, TLS or proxy layer failed,
 * or the request was cancelled (docs/design/providers.md §1.6). `probe` reports these as
 * `unreachable` (docs/design/probe.md).
 *
 * @param id A failure class.
 * @returns true when no HTTP answer was received.
 */
export function isNoAnswerClass(id: FailureClass): boolean {
  return NO_ANSWER_CLASSES.has(id);
}

/** A classified failure as the operator sees it. */
export interface FailureDescription {
  readonly id: FailureClass;
  /** HTTP status for `http-status` and `redirect` (0 for an opaque redirect); absent otherwise. */
  readonly status?: number;
  /** One line saying what to check or change; never a URL, value or credential. */
  readonly hint: string;
  /** For `proxy-failure`: the variable that applied (`HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY` or `http_proxy`), never its value. */
  readonly proxyVariable?: string;
}

/** What the hint of a class may depend on. */
export interface FailureContext {
  /** HTTP status for `http-status` and `redirect`. */
  readonly status?: number | undefined;
  /** For `proxy-failure`: the name of the proxy variable that applied (never its value). */
  readonly proxyVariable?: string | undefined;
  /** The runtime whose CA options the `tls-untrusted-certificate` hint names; default: this one. */
  readonly runtime?: RuntimeName;
}

function statusHint(status: number | undefined): string {
  if (status === 401 || status === 403) {
    return `The provider refused the credential (HTTP ${status}): check the variable named by credentialEnv holds a valid key with access to this corpus.`;
  }
  if (status === 404 || status === 405) {
    return `The provider has no such endpoint (HTTP ${status}): check endpoint.origin, basePath and the preset (external-context probe compares presets).`;
  }
  if (status === 400 || status === 422) {
    return `The provider rejected the request body (HTTP ${status}): the preset does not match this build; run external-context probe.`;
  }
  if (status === 429) return 'The provider is rate-limiting (HTTP 429): reduce the request rate or raise the quota.';
  if (status !== undefined && status >= 500) return `The provider failed internally (HTTP ${status}): check the service's own logs.`;
  return `The provider answered HTTP ${status ?? 'with an error status'}: check the service's own logs.`;
}

/**
 * The one-line operator hint of a failure class.
 *
 * @param id The failure class.
 * @param context Status, proxy variable name and runtime, where the hint depends on them.
 * @returns A fixed sentence; `proxy-failure` names the variable, never its value.
 * @see docs/design/providers.md §1.6
 */
export function failureHint(id: FailureClass, context: FailureContext = {}): string {
  switch (id) {
    case 'dns-failure':
      return "The host name did not resolve: check the spelling of the origin and this machine's DNS (or set HTTPS_PROXY if only a proxy can resolve it).";
    case 'connection-refused':
      return 'Nothing accepts connections at that host and port: check the port in the origin, that the service is running, and the firewall.';
    case 'connection-reset':
      return "The connection broke before a complete HTTP answer: check the service's logs, any load balancer or firewall in between, and that the port speaks the origin's scheme (http or https).";
    case 'timeout':
      return "No complete answer within timeoutMs: check the service's load and the network path, or raise timeoutMs in the configuration.";
    case 'tls-untrusted-certificate':
      return (context.runtime ?? RUNTIME) === 'deno'
        ? 'The certificate is not signed by a trusted CA: for a private CA run Deno with --cert <CA file> or set DENO_CERT=<CA file> (PEM).'
        : 'The certificate is not signed by a trusted CA: for a private CA set NODE_EXTRA_CA_CERTS=<CA file> (PEM) in the environment of this process.';
    case 'tls-hostname-mismatch':
      return 'The certificate is not valid for the host name in the origin: use a name the certificate lists, or reissue the certificate for this name.';
    case 'tls-failure':
      return 'The TLS handshake failed: check that the port speaks HTTPS, that the certificate is current, and that NODE_TLS_REJECT_UNAUTHORIZED is not 0 (certificate checks cannot be turned off).';
    case 'proxy-failure':
      return `The request through the proxy named by ${context.proxyVariable ?? 'HTTPS_PROXY'} failed: check that proxy is reachable and lets this host through, or list the host in NO_PROXY.`;
    case 'http-status':
      return statusHint(context.status);
    case 'redirect':
      return 'The service answered with a redirect, which is never followed: set the origin (and basePath) to the final address.';
    case 'response-too-large':
      return 'The answer exceeded its size limit: check that the origin, basePath and preset point at the search API.';
    case 'invalid-utf8':
      return 'The answer is not UTF-8 text: check that the origin points at the API itself, not a proxy or login page.';
    case 'invalid-json':
      return 'The answer is not JSON: check that the origin and basePath point at the API itself, not a web page or login portal.';
    case 'invalid-envelope':
      return 'The JSON answer does not have the expected shape: check that provider.type and the preset match the service (external-context probe).';
    case 'cancelled':
      return 'The client cancelled the request before it completed; nothing to fix unless every call is cancelled.';
  }
}

/**
 * The class as an operator line shows it: the id, plus ` <status>` for `http-status` and `redirect`.
 *
 * @param failure A classified failure.
 * @returns e.g. `connection-refused`, `http-status 404`, `redirect 302`.
 */
export function failureLabel(failure: { readonly id: FailureClass; readonly status?: number | undefined }): string {
  return (failure.id === 'http-status' || failure.id === 'redirect') && failure.status !== undefined ? `${failure.id} ${failure.status}` : failure.id;
}

/**
 * The class as the search operator line shows it (docs/design/providers.md §1.6): {@link failureLabel},
 * plus ` <variable>` for `proxy-failure` when the proxy variable that applied is known.
 *
 * @param failure A classified failure.
 * @returns e.g. `http-status 404`, `proxy-failure HTTPS_PROXY`.
 */
export function operatorLabel(failure: FailureDescription): string {
  const label = failureLabel(failure);
  return failure.id === 'proxy-failure' && failure.proxyVariable !== undefined ? `${label} ${failure.proxyVariable}` : label;
}

/** True for one of the fifteen ids. */
export function isFailureClass(value: unknown): value is FailureClass {
  return typeof value === 'string' && (FAILURE_CLASSES as readonly string[]).includes(value);
}
