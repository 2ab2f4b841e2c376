// ProviderError and the one table that maps its kind to the three error classes
// (docs/design/providers.md §1.3; docs/design/style.md, "Errors").

/** What went wrong with the provider exchange. */
export type ProviderErrorKind =
  | 'timeout'
  | 'http-status'
  | 'redirect'
  | 'oversize'
  | 'invalid-utf8'
  | 'invalid-json'
  | 'invalid-response'
  | 'network'
  | 'cancelled';

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

/** A failed provider exchange. The message is the class's fixed text; no URL, header or body. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  /** HTTP status for `redirect` (3xx, or 0 for an opaque redirect) and `http-status`. */
  readonly status: number | undefined;

  constructor(kind: ProviderErrorKind, options: { status?: number; cause?: unknown } = {}) {
    super(PROVIDER_ERROR_MESSAGES[PROVIDER_ERROR_CLASS[kind]], { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
  }

  /** The error class of `docs/design/providers.md` §1.3. */
  get errorClass(): ProviderErrorClass {
    return PROVIDER_ERROR_CLASS[this.kind];
  }
}
