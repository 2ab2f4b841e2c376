// Bounds what one remote MCP server can cost the gateway (docs/design/frontend-mcp.md §3.1): every
// response body is capped in bytes and in Server-Sent Events while it streams (stream-budget.ts),
// the POSTs that carry no request are capped in flight (message-gate.ts), every request has its
// own abort, and a call the SDK cancels (timeout, caller abort) closes its own HTTP request. The
// SDK shares one abort signal across all requests of a transport, so without this a cancelled
// call left its request running until the connection closed.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { messageGate, messagePostKind, type MessageGate } from './message-gate.ts';
import { DEFAULT_STREAM_LIMITS, eventStreamMeter, responseMeter, type StreamLimits, type StreamMeter } from './stream-budget.ts';

/** Longest a notification-only POST may take, in milliseconds (a stalled server cannot pile them up). */
export const NOTIFICATION_DEADLINE_MS = 5000;

/** Raised into a response body that went past a limit of its stream; never shown (the call path reports a stable error). */
export class ResponseTooLargeError extends Error {
  constructor() {
    super('Remote MCP response exceeds the stream limit.');
    this.name = 'ResponseTooLargeError';
  }
}

/** The limits of one connection (tests pass smaller ones and a controlled clock). */
export interface BoundedFetchLimits extends Partial<StreamLimits> {
  /** Most replies to server requests in flight (MAX_REPLIES_IN_FLIGHT). */
  readonly replies?: number;
  /** Most notification POSTs in flight (MAX_NOTIFICATIONS_IN_FLIGHT). */
  readonly notifications?: number;
}

/**
 * Wraps a fetch so that each request gets its own abort, a `notifications/cancelled` aborts the
 * request it names, notification-only POSTs end after NOTIFICATION_DEADLINE_MS, POSTs that carry
 * only replies or notifications are dropped past their in-flight cap (and "Method not found"
 * replies always: no round trip for a capability the gateway never declared), and every
 * response body errors with ResponseTooLargeError past its stream limits (stream-budget.ts).
 * One instance serves one connection: the in-flight caps are per server.
 *
 * @param baseFetch The fetch that sends the request (proxy routing).
 * @param limits Stream limits and in-flight caps; defaults in stream-budget.ts and message-gate.ts.
 * @returns The bounded fetch.
 * @see docs/design/frontend-mcp.md §3.1
 */
export function boundedFetch(baseFetch: FetchLike, limits: BoundedFetchLimits = {}): FetchLike {
  const streamLimits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...definedOnly(limits) };
  const gate: MessageGate = messageGate(limits);
  const inFlight = new Map<string | number, AbortController>();
  return async (url, init) => {
    const messages = parseMessages(init?.body);
    const ids = messages.flatMap((message) => (isRequest(message) ? [message.id] : []));
    for (const message of messages) {
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) inFlight.get(cancelled)?.abort(new Error('Request cancelled.'));
    }
    const messagePost = init?.method === 'POST' && messages.length > 0 && ids.length === 0;
    const slot = messagePost ? gate.admit(messagePostKind(messages)) : undefined;
    // Dropped unsent: the SDK takes 202 Accepted as delivered, and the server never waits on it.
    if (messagePost && slot === undefined) return new Response(null, { status: 202 });
    const own = new AbortController();
    const shared = init?.signal ?? undefined;
    const onShared = (): void => own.abort(shared?.reason);
    if (shared?.aborted) onShared();
    else shared?.addEventListener('abort', onShared, { once: true });
    for (const id of ids) inFlight.set(id, own);
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (messagePost) timer = setTimeout(() => own.abort(new Error('Notification timed out.')), NOTIFICATION_DEADLINE_MS);
    const release = (): void => {
      clearTimeout(timer);
      slot?.();
      shared?.removeEventListener('abort', onShared);
      for (const id of ids) if (inFlight.get(id) === own) inFlight.delete(id);
    };
    let response: Response;
    try {
      response = await baseFetch(url, { ...init, signal: own.signal });
    } catch (error) {
      release();
      throw error;
    }
    if (response.body === null) {
      release();
      return response;
    }
    const eventStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    const meter = init?.method === 'GET' ? eventStreamMeter(streamLimits) : responseMeter(streamLimits, eventStream);
    const body = capBody(response.body, meter, own, release);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function definedOnly(limits: BoundedFetchLimits): Partial<StreamLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([key, value]) => value !== undefined && key in DEFAULT_STREAM_LIMITS));
}

function capBody(source: ReadableStream<Uint8Array>, meter: StreamMeter, own: AbortController, release: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    release();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        finish();
        controller.error(error);
        return;
      }
      if (next.done) {
        finish();
        controller.close();
        return;
      }
      if (meter(next.value)) {
        const error = new ResponseTooLargeError();
        finish();
        own.abort(error);
        void reader.cancel(error).catch(() => {});
        controller.error(error);
        return;
      }
      controller.enqueue(next.value);
    },
    cancel(reason) {
      finish();
      own.abort(reason);
      return reader.cancel(reason).catch(() => {});
    },
  });
}

type Message = { readonly id?: unknown; readonly method?: unknown; readonly params?: unknown; readonly error?: unknown };

function parseMessages(body: unknown): Message[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((message): message is Message => typeof message === 'object' && message !== null);
  } catch {
    return [];
  }
}

function isRequest(message: Message): message is Message & { readonly id: string | number } {
  return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');
}

function cancelledId(message: Message): string | number | undefined {
  if (message.method !== 'notifications/cancelled' || typeof message.params !== 'object' || message.params === null) return undefined;
  const id = (message.params as { requestId?: unknown }).requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
