// ProviderError, the one table that maps its kind to the three error classes
// (docs/design/providers.md §1.3; docs/design/style.md, "Errors"), and its failure class for the
// operator (docs/design/providers.md §1.6).
import { type FailureClass, type FailureDescription, failureHint, isFailureClass } from './failure.ts';

const PROXY_VARIABLE_NAMES: ReadonlySet<string> = new Set(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']);

/** What went wrong with the provider exchange. */
export type ProviderErrorKind = 'timeout' | 'http-status' | 'redirect' | 'oversize' | 'invalid-utf8' | 'invalid-json' | 'invalid-response' | 'network' | 'cancelled';

/** The three classes the spec names. */
export type ProviderErrorClass = 'incomplete' | 'invalid' | 'rejected';

/** Kind → class; nothing else decides a class. */
export const PROVIDER_ERROR_CLASS: Readonly<Record<ProviderErrorKind, ProviderErrorClass>> = {
  network: 'incomplete',
  timeout: 'incomplete',
  cancelled: 'incomplete',
  redirect: 'invalid',
  oversize: 'invalid',
  'invalid-utf8': 'invalid',
  'invalid-json': 'invalid',
  'invalid-response': 'invalid',
  'http-status': 'rejected',
};

/** Exact messages per class (docs/design/providers.md §1.3). */
export const PROVIDER_ERROR_MESSAGES: Readonly<Record<ProviderErrorClass, string>> = {
  incomplete: 'External context provider request did not complete.',
  invalid: 'External context provider returned an invalid response.',
  rejected: 'External context provider rejected the request.',
};

/** Kind → the failure class a ProviderError has when the thrower names no finer one. */
const DEFAULT_FAILURE_CLASS: Readonly<Record<ProviderErrorKind, FailureClass>> = {
  network: 'connection-reset',
  timeout: 'timeout',
  cancelled: 'cancelled',
  redirect: 'redirect',
  oversize: 'response-too-large',
  'invalid-utf8': 'invalid-utf8',
  'invalid-json': 'invalid-json',
  'invalid-response': 'invalid-envelope',
  'http-status': 'http-status',
};

/** What a ProviderError is built with besides its kind. */
export interface ProviderErrorOptions {
  /** HTTP status for `redirect` and `http-status`. */
  readonly status?: number;
  readonly cause?: unknown;
  /** The finer class of a `network` failure (DNS, refused, TLS, proxy …); default from the kind. */
  readonly failureClass?: FailureClass;
  /** For `proxy-failure`: the proxy variable's name (never its value). */
  readonly proxyVariable?: string;
}

/** A failed provider exchange. The message is the class's fixed text; no URL, header or body. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  /** HTTP status for `redirect` (3xx, or 0 for an opaque redirect) and `http-status`. */
  readonly status: number | undefined;
  /** The operator's failure class (docs/design/providers.md §1.6); never shown to the model. */
  readonly failureClass: FailureClass;
  /** For `proxy-failure`: which proxy variable applied (its name only). */
  readonly proxyVariable: string | undefined;

  constructor(kind: ProviderErrorKind, options: ProviderErrorOptions = {}) {
    super(PROVIDER_ERROR_MESSAGES[PROVIDER_ERROR_CLASS[kind]], { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.failureClass = options.failureClass ?? DEFAULT_FAILURE_CLASS[kind];
    this.proxyVariable = options.proxyVariable;
  }

  /** The error class of `docs/design/providers.md` §1.3. */
  get errorClass(): ProviderErrorClass {
    return PROVIDER_ERROR_CLASS[this.kind];
  }
}

/**
 * Classifies a failure for the operator: exactly one of the fifteen ids of
 * docs/design/providers.md §1.6, the status for `http-status`/`redirect`, and a one-line hint.
 *
 * @param error Anything a provider, JWKS or remote-MCP request threw.
 * @returns The description of a {@link ProviderError}, or of any error carrying a
 *   `failureClass` (such as the JWKS error); `undefined` for anything else, which is not a
 *   request failure but a defect.
 * @see docs/design/providers.md §1.6
 */
export function describeFailure(error: unknown): FailureDescription | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { failureClass: id, status, proxyVariable } = error as { failureClass?: unknown; status?: unknown; proxyVariable?: unknown };
  if (!isFailureClass(id)) return undefined;
  const knownStatus = typeof status === 'number' && Number.isInteger(status) && status >= 0 && status <= 999 ? status : undefined;
  // Only a name that looks like one of the proxy variables is repeated; anything else could be a value.
  const variable = typeof proxyVariable === 'string' && PROXY_VARIABLE_NAMES.has(proxyVariable) ? proxyVariable : undefined;
  const hint = failureHint(id, { status: knownStatus, proxyVariable: variable });
  if ((id === 'http-status' || id === 'redirect') && knownStatus !== undefined) return { id, status: knownStatus, hint };
  return id === 'proxy-failure' && variable !== undefined ? { id, hint, proxyVariable: variable } : { id, hint };
}
