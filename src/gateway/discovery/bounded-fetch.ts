// Bounds what one remote MCP server can cost the gateway (docs/design/frontend-mcp.md §3.1): every
// response body is capped in bytes while it streams, every request has its own abort, and a
// call the SDK cancels (timeout, caller abort) closes its own HTTP request. The SDK shares one
// abort signal across all requests of a transport, so without this a cancelled call left its
// request running until the connection closed.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Most bytes read from one POST response (JSON body, or the whole event stream of that POST). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Most bytes of one event on the long-lived GET event stream. */
export const MAX_EVENT_BYTES = 4 * 1024 * 1024;
/** Longest a notification-only POST may take, in milliseconds (a stalled server cannot pile them up). */
export const NOTIFICATION_DEADLINE_MS = 5000;

/** Raised into a response body that went past its cap; never shown (the call path reports a stable error). */
export class ResponseTooLargeError extends Error {
  constructor() {
    super('Remote MCP response exceeds the byte limit.');
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * Wraps a fetch so that each request gets its own abort, a `notifications/cancelled` aborts the
 * request it names, notification-only POSTs end after NOTIFICATION_DEADLINE_MS, and every
 * response body errors with ResponseTooLargeError past MAX_RESPONSE_BYTES (POST) or past
 * MAX_EVENT_BYTES in one event (GET).
 *
 * @param baseFetch The fetch that sends the request (proxy routing).
 * @param limits Byte caps; defaults MAX_RESPONSE_BYTES and MAX_EVENT_BYTES.
 * @returns The bounded fetch.
 * @see docs/design/frontend-mcp.md §3.1
 */
export function boundedFetch(
  baseFetch: FetchLike,
  limits: { readonly responseBytes?: number; readonly eventBytes?: number } = {},
): FetchLike {
  const responseBytes = limits.responseBytes ?? MAX_RESPONSE_BYTES;
  const eventBytes = limits.eventBytes ?? MAX_EVENT_BYTES;
  const inFlight = new Map<string | number, AbortController>();
  return async (url, init) => {
    const own = new AbortController();
    const shared = init?.signal ?? undefined;
    const onShared = (): void => own.abort(shared?.reason);
    if (shared?.aborted) onShared();
    else shared?.addEventListener('abort', onShared, { once: true });
    const messages = parseMessages(init?.body);
    const ids = messages.flatMap((message) => (isRequest(message) ? [message.id] : []));
    for (const message of messages) {
      const cancelled = cancelledId(message);
      if (cancelled !== undefined) inFlight.get(cancelled)?.abort(new Error('Request cancelled.'));
    }
    for (const id of ids) inFlight.set(id, own);
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (init?.method === 'POST' && messages.length > 0 && ids.length === 0) {
      timer = setTimeout(() => own.abort(new Error('Notification timed out.')), NOTIFICATION_DEADLINE_MS);
    }
    const release = (): void => {
      clearTimeout(timer);
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
    const perEvent = init?.method === 'GET';
    const body = capBody(response.body, perEvent ? eventBytes : responseBytes, perEvent, own, release);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function capBody(
  source: ReadableStream<Uint8Array>,
  cap: number,
  perEvent: boolean,
  own: AbortController,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const counter = perEvent ? eventCounter() : (chunk: Uint8Array, total: number): number => total + chunk.byteLength;
  let count = 0;
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
      count = counter(next.value, count);
      if (count > cap) {
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

/** Counts bytes since the last blank line (an SSE event boundary: LF LF, CR CR or CRLF CRLF). */
function eventCounter(): (chunk: Uint8Array, total: number) => number {
  let afterCr = false;
  let atLineStart = false;
  return (chunk, total) => {
    let count = total;
    for (const byte of chunk) {
      count++;
      if (byte === 0x0a && afterCr) {
        afterCr = false;
        continue;
      }
      afterCr = byte === 0x0d;
      if (byte === 0x0a || byte === 0x0d) {
        if (atLineStart) count = 0;
        atLineStart = true;
      } else {
        atLineStart = false;
      }
    }
    return count;
  };
}

type Message = { readonly id?: unknown; readonly method?: unknown; readonly params?: unknown };

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
