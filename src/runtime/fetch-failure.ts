// Names why a runtime's `fetch` rejected (docs/design/providers.md §1.6), from the error shapes each
// runtime produces: Bun and Node.js carry an OpenSSL/libuv `code` (Bun on the error itself,
// Node.js on `cause`), Deno only a message. The message is read here to classify and is never
// passed on: it can contain the URL.

/** Transport-level failure classes a rejected fetch can have. */
export type TransportFailureClass = 'dns-failure' | 'connection-refused' | 'connection-reset' | 'tls-untrusted-certificate' | 'tls-hostname-mismatch' | 'tls-failure';

/** `code` of the error fetch-node.ts raises when NODE_TLS_REJECT_UNAUTHORIZED=0 would turn checks off. */
export const TLS_CHECKS_DISABLED_CODE = 'EC_TLS_CHECKS_DISABLED';

/** OpenSSL verification codes (Bun and Node.js) that mean "no trusted chain to this certificate". */
const UNTRUSTED_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

const CODE_CLASSES: Readonly<Record<string, TransportFailureClass>> = {
  ENOTFOUND: 'dns-failure',
  EAI_AGAIN: 'dns-failure',
  EAI_NONAME: 'dns-failure',
  EAI_FAIL: 'dns-failure',
  DNSException: 'dns-failure',
  ECONNREFUSED: 'connection-refused',
  ConnectionRefused: 'connection-refused',
  ECONNRESET: 'connection-reset',
  ConnectionClosed: 'connection-reset',
  EPIPE: 'connection-reset',
  UND_ERR_SOCKET: 'connection-reset',
  UND_ERR_CLOSED: 'connection-reset',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls-hostname-mismatch',
  [TLS_CHECKS_DISABLED_CODE]: 'tls-failure',
};

/** Deno (rustls, hyper) messages, most specific first. */
const DENO_PATTERNS: readonly (readonly [RegExp, TransportFailureClass])[] = [
  [/not valid for name|NotValidForName/u, 'tls-hostname-mismatch'],
  [/UnknownIssuer|CaUsedAsEndEntity|self[- ]signed|certificate is not trusted/iu, 'tls-untrusted-certificate'],
  [/invalid peer certificate|tls handshake|TLS|certificate/u, 'tls-failure'],
  [/dns error|failed to lookup address|Name or service not known|nodename nor servname/iu, 'dns-failure'],
  [/Connection refused|os error 111|os error 61/iu, 'connection-refused'],
  [/Connection reset|os error 104|connection closed|broken pipe/iu, 'connection-reset'],
];

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function classOfCode(code: string): TransportFailureClass | undefined {
  if (Object.hasOwn(CODE_CLASSES, code)) return CODE_CLASSES[code];
  if (UNTRUSTED_CODES.has(code)) return 'tls-untrusted-certificate';
  if (/^ERR_TLS_|^ERR_SSL_|CERT_|^TLS/u.test(code)) return 'tls-failure';
  return undefined;
}

function messageOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const message = (error as { message?: unknown }).message;
  // URLs are cut out first, so a path or host name can never decide the class.
  return typeof message === 'string' ? message.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s)"]*/giu, '') : '';
}

/**
 * Classifies the value a runtime's `fetch` rejected with (not an abort: the caller names
 * timeouts and cancellations from its signal first).
 *
 * Walks the error and up to four `cause` levels; a known `code` wins, then Deno's message
 * patterns. Anything unrecognised (a closed or broken connection, a non-HTTP answer) is
 * `connection-reset`: the exchange broke after the connection was made.
 *
 * @param error Whatever `fetch` or a body read rejected with.
 * @returns One transport failure class; never the message itself.
 * @see docs/design/providers.md §1.6
 */
export function classifyFetchRejection(error: unknown): TransportFailureClass {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  for (const link of chain) {
    const code = codeOf(link);
    const known = code === undefined ? undefined : classOfCode(code);
    if (known !== undefined) return known;
  }
  for (const link of chain) {
    const message = messageOf(link);
    for (const [pattern, failureClass] of DENO_PATTERNS) if (pattern.test(message)) return failureClass;
  }
  return 'connection-reset';
}
