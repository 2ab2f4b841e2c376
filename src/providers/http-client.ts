// The one guarded provider request (docs/design/providers.md §1): exact headers, the 1 MiB limit,
// fatal UTF-8 and JSON parsing, sent as exactly one request by outbound.ts (manual redirects,
// route, failure class). No adapter touches these.
import { VERSION } from '../version.ts';
import { discardBody, isRedirect, type OutboundRoute, sendOutbound } from './outbound.ts';
import { ProviderError } from './provider-error.ts';
import { incompleteKind, MAX_RESPONSE_BYTES, readResponseBody } from './response-body.ts';

/** The one credential header of a request (docs/design/providers.md §1.1); never two. */
export interface CredentialHeader {
  readonly name: 'authorization' | 'x-api-key';
  /** The full header value, e.g. `Bearer <credential>`; never logged. */
  readonly value: string;
}

/** One provider request. `GET` exists only for the probe's schema read (docs/design/probe.md §2 step 1). */
export type ProviderRequest =
  | {
      readonly method: 'POST';
      readonly url: string;
      readonly credential: CredentialHeader;
      /** The serialized JSON body, sent byte for byte as UTF-8. */
      readonly body: string;
      readonly signal: AbortSignal;
      readonly proxy: OutboundRoute;
    }
  | {
      readonly method: 'GET';
      readonly url: string;
      readonly signal: AbortSignal;
      readonly proxy: OutboundRoute;
    };

/** A 2xx answer with its parsed JSON value. */
export interface JsonResponse {
  /** HTTP status, 200…299. */
  readonly status: number;
  readonly value: unknown;
}

/** Any answer, for the probe's raw requests: status plus body text when it was readable. */
export interface RawResponse {
  /** HTTP status as received (0 for an opaque redirect). */
  readonly status: number;
  /** The body decoded as UTF-8, or undefined when the limit, decoding or a read failed. */
  readonly text: string | undefined;
}

/** The fixed `user-agent`, the same on Bun, Deno and Node.js (docs/design/providers.md §1.1). */
export const USER_AGENT = `external-context/${VERSION}`;

function requestHeaders(request: ProviderRequest): Record<string, string> {
  if (request.method === 'GET') return { accept: 'application/json', 'user-agent': USER_AGENT };
  return {
    accept: 'application/json',
    'content-type': 'application/json',
    [request.credential.name]: request.credential.value,
    'user-agent': USER_AGENT,
  };
}

/** Row 1: exactly one request through outbound.ts, redirects never followed; a rejection is *incomplete*. */
function fetchOnce(request: ProviderRequest): Promise<Response> {
  return sendOutbound({
    method: request.method,
    url: request.url,
    headers: requestHeaders(request),
    ...(request.method === 'POST' ? { body: request.body } : {}),
    signal: request.signal,
    route: request.proxy,
  });
}

/**
 * One fatal UTF-8 decoder for every body: `decode()` without `stream` starts afresh each call,
 * and a leading BOM is dropped (the default).
 */
const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Rows 7–8: fatal UTF-8 (a leading BOM is dropped), then JSON. */
function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = FATAL_UTF8.decode(bytes);
  } catch {
    throw new ProviderError('invalid-utf8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError('invalid-json');
  }
}

/** Row 4: a declared `content-length` above the limit rejects before any read. */
function declaresOversize(response: Response): boolean {
  const declared = response.headers.get('content-length');
  return declared !== null && /^\d+$/u.test(declared.trim()) && Number(declared.trim()) > MAX_RESPONSE_BYTES;
}

/**
 * Sends one provider request and returns the parsed JSON of a 2xx answer.
 *
 * Applies docs/design/providers.md §1.2 in order: a rejected fetch is *incomplete*; status 300–399, an
 * opaque redirect or status 0 cancels the body and is *invalid* with the status; any other
 * non-2xx cancels the body and is *rejected* with the status; a declared `content-length`
 * above 1048576 bytes, a streamed body above 1048576 bytes, invalid UTF-8 or invalid JSON
 * (an empty body included) is *invalid*; a failed read is *incomplete*.
 *
 * @param request Method, URL, credential header, serialized body, signal and proxy route.
 * @returns The status (200…299) and the parsed JSON value, for the adapter to check.
 * @throws {ProviderError} Kinds `network`, `timeout`, `cancelled` (aborted by a
 *   `TimeoutError` reason or otherwise), `redirect` and `http-status` (with the status),
 *   `oversize`, `invalid-utf8`, `invalid-json`. Never the URL, a header or the body.
 * @see docs/design/providers.md §1
 */
export async function sendJsonRequest(request: ProviderRequest): Promise<JsonResponse> {
  const response = await fetchOnce(request);
  const status = response.status;
  if (isRedirect(response)) {
    await discardBody(response);
    throw new ProviderError('redirect', { status });
  }
  if (status < 200 || status > 299) {
    await discardBody(response);
    throw new ProviderError('http-status', { status });
  }
  if (declaresOversize(response)) {
    await discardBody(response);
    throw new ProviderError('oversize');
  }
  const bytes = await readResponseBody(response, request.signal);
  return { status, value: parseJsonBytes(bytes) };
}

/**
 * Sends one provider request and returns its status and body text whatever the status.
 *
 * For the probe's raw requests (docs/design/probe.md §2), which report non-2xx bodies. The request side
 * is the same as `sendJsonRequest` (headers, manual redirect, one fetch, proxy route); the
 * body is read under the same 1 MiB declared and streamed limits and fatal UTF-8 decoding.
 *
 * @param request Method, URL, credential header, serialized body, signal and proxy route.
 * @returns The status and the decoded text, or `text: undefined` when the body exceeded the
 *   limit, was not UTF-8, or a read failed.
 * @throws {ProviderError} `network`, `timeout` or `cancelled` when no response arrived.
 * @see docs/design/providers.md §1; docs/design/probe.md §2
 */
export async function sendRawRequest(request: ProviderRequest): Promise<RawResponse> {
  const response = await fetchOnce(request);
  if (declaresOversize(response)) {
    await discardBody(response);
    return { status: response.status, text: undefined };
  }
  try {
    const bytes = await readResponseBody(response, request.signal);
    return { status: response.status, text: FATAL_UTF8.decode(bytes) };
  } catch {
    return { status: response.status, text: undefined };
  }
}
