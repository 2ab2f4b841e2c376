// The one home of every outbound request (issue 26 §1): the per-target proxy route
// (docs/design/config.md §12), the runtime's fetch warmed before the clock starts
// (docs/design/providers.md §1.4), deadline and cancellation, manual redirects and the failure
// class of a request that got no answer (docs/design/providers.md §1.6). Provider requests,
// the JWKS fetch, the gateway's and `conformance`'s SDK transports and the probe all send here;
// test/architecture.test.ts keeps every other module away from `fetch` and runtime/runtime-fetch.ts.
import { classifyFetchRejection } from '../runtime/fetch-failure.ts';
import type { ProxyDecision } from '../runtime/fetch-types.ts';
import { currentProxyRuntime, type ProxyRuntime } from '../runtime/proxy-runtime.ts';
import { prepareRuntimeFetch, runtimeFetch } from '../runtime/runtime-fetch.ts';
import { withDeadline } from '../util/with-deadline.ts';
import { ProviderError } from './provider-error.ts';
import { decideProxy, type ProxyEnvironment } from './proxy.ts';
import { incompleteKind } from './response-body.ts';
import { noteTransportFailure } from './transport-failure.ts';

/** How one request target is reached: `direct`, or `proxy` with a URL that may hold credentials. */
export type OutboundRoute = ProxyDecision;

/** One outbound request. `redirect` is always `manual`: no caller can follow a 3xx. */
export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  /** Absolute request URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The serialized body, sent byte for byte as UTF-8 (POST only). */
  readonly body?: string;
  readonly signal: AbortSignal;
  readonly route: OutboundRoute;
}

/** The `fetch` an MCP SDK transport takes (the SDK's `FetchLike`), without importing the SDK. */
export type RoutedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The deadline of one operation: the caller's cancellation plus a timeout. */
export interface OutboundDeadline {
  /** The caller's cancellation (the MCP request, the Hook budget); default: none. */
  readonly signal?: AbortSignal | undefined;
  /** The operation timeout in ms; default: none beyond `signal`. */
  readonly timeoutMs?: number | undefined;
  /** Called once the fetch is warmed and the clock starts, for callers that time the provider. */
  readonly onStart?: (() => void) | undefined;
}

/**
 * Decides how requests to one target are routed: the one per-target proxy decision.
 *
 * @param targetUrl Absolute URL of the target.
 * @param env The proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …); their values are never echoed.
 * @param runtime The runtime facts of the decision; default: the executing runtime.
 * @returns `direct`, or `proxy` with the proxy URL (never print it) and the variable that applied.
 * @throws {ConfigError} An invalid proxy variable, or on Node.js a proxy that applies to the target.
 * @see docs/design/config.md §12
 */
export function decideRoute(targetUrl: string, env: ProxyEnvironment, runtime: ProxyRuntime = currentProxyRuntime()): OutboundRoute {
  return decideProxy(targetUrl, env, runtime);
}

/**
 * Runs one operation under its deadline: the runtime's fetch is warmed first, so the timeout
 * starts when the request can be sent, and the timer is cleared once the work settles.
 *
 * @param deadline The caller's signal and the timeout in ms (either may be absent).
 * @param run The work; it gets the combined signal (aborted with a `TimeoutError` reason on expiry).
 * @returns What `run` returns.
 * @throws Whatever `run` throws.
 * @see docs/design/providers.md §1.4
 */
export async function withOutboundDeadline<T>(deadline: OutboundDeadline, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  await prepareRuntimeFetch();
  deadline.onStart?.();
  if (deadline.timeoutMs === undefined) return run(deadline.signal ?? new AbortController().signal);
  const bounded = withDeadline(deadline.signal, deadline.timeoutMs);
  try {
    return await run(bounded.signal);
  } finally {
    bounded.dispose();
  }
}

/**
 * The ProviderError of a fetch that was rejected while its signal was not aborted: `network`
 * with its transport class. Through a proxy, every non-TLS failure is `proxy-failure`, naming
 * the variable that applied.
 *
 * @param error What the runtime's fetch rejected with (read to classify, never kept).
 * @param route The route the request took.
 * @returns A `network` ProviderError; no cause (the runtime's message can hold a URL).
 * @see docs/design/providers.md §1.6
 */
export function transportRejection(error: unknown, route: OutboundRoute): ProviderError {
  const transport = classifyFetchRejection(error);
  if (route.mode === 'proxy' && !transport.startsWith('tls-')) {
    return new ProviderError('network', { failureClass: 'proxy-failure', proxyVariable: route.variable ?? 'HTTPS_PROXY' });
  }
  return new ProviderError('network', { failureClass: transport });
}

/**
 * The ProviderError of a rejected fetch: `timeout` or `cancelled` from the signal, otherwise
 * the transport class of `transportRejection`.
 *
 * @param error What the runtime's fetch rejected with (read to classify, never kept).
 * @param signal The exchange's signal.
 * @param route The route the request took.
 * @see docs/design/providers.md §1.6
 */
export function fetchRejection(error: unknown, signal: AbortSignal, route: OutboundRoute): ProviderError {
  const kind = incompleteKind(signal);
  return kind === 'network' ? transportRejection(error, route) : new ProviderError(kind);
}

/**
 * Sends exactly one request, routed as `request.route` says, redirects never followed.
 *
 * @param request Method, URL, headers, body, signal and route.
 * @returns The runtime's response, whatever its status (a 3xx included: see `isRedirect`).
 * @throws {ProviderError} `network` (with its failure class), `timeout` or `cancelled` when no
 *   response arrived. Never the URL, a header or the body.
 * @see docs/design/providers.md §1.2 row 1
 */
export async function sendOutbound(request: OutboundRequest): Promise<Response> {
  const init: RequestInit = {
    method: request.method,
    headers: { ...request.headers },
    // Manual redirect: a 3xx must not carry a credential to another origin.
    redirect: 'manual',
    signal: request.signal,
  };
  if (request.body !== undefined) init.body = request.body;
  try {
    return await runtimeFetch(request.url, init, request.route);
  } catch (error) {
    // No cause: the runtime's message can contain the URL or the proxy URL.
    throw fetchRejection(error, request.signal, request.route);
  }
}

/**
 * Whether an answer is a redirect: status 300–399, an opaque redirect, or status 0.
 *
 * @param response The answer of `sendOutbound`.
 */
export function isRedirect(response: Response): boolean {
  const status = response.status;
  return response.type === 'opaqueredirect' || status === 0 || (status >= 300 && status <= 399);
}

/**
 * Cancels an answer's body that will not be read, so the connection is released.
 *
 * @param response Any answer.
 * @returns Resolves when the cancellation settled; never rejects.
 */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/**
 * A `fetch` for an MCP SDK transport: each request routed by the per-target decision (made
 * per request, since the SDK may be redirected to other endpoints by the server's answers).
 * A rejection that is not the caller's own abort is classified once and remembered beside the
 * error (`transportFailureOf`); the error itself goes on unchanged, so the SDK's handling is
 * the same as with the runtime's `fetch`.
 *
 * @param env The proxy variables.
 * @param runtime The runtime facts of the decision; default: the executing runtime.
 * @param onFailure Called with the ProviderError of each classified rejection (for a report).
 * @returns The routed fetch.
 * @see docs/design/config.md §12; docs/design/providers.md §1.6
 */
export function routedFetch(env: ProxyEnvironment, runtime: ProxyRuntime = currentProxyRuntime(), onFailure?: (failure: ProviderError) => void): RoutedFetch {
  return (url, init) => {
    const target = String(url);
    const route = decideProxy(target, env, runtime);
    return runtimeFetch(target, init ?? {}, route).catch((error: unknown) => {
      // An abort is the caller's own timeout or cancellation and is reported as such.
      if (init?.signal?.aborted !== true) {
        const failure = transportRejection(error, route);
        noteTransportFailure(error, failure.failureClass);
        onFailure?.(failure);
      }
      throw error;
    });
  };
}
