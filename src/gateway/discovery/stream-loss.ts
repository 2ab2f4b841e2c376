// Fast failure for a call whose response stream ends without its answer (a server that drops
// the connection mid-call). The SDK would wait for the timeout, because a POST stream without
// resumption is never resumed; instead, every request of that POST gets a synthetic JSON-RPC
// error appended to the end of its own stream. Appending keeps the order: when the real answer
// came first, the SDK has already settled the request and ignores the extra message.
import { randomUUID } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

// Unguessable per process, so no server can forge a "stream lost" answer.
const MARKER = `external-context-stream-lost-${randomUUID()}`;
const encoder = new TextEncoder();

/**
 * Wraps a fetch so that a POST answered with an event stream ends with a synthetic error
 * answer for each request the POST carried.
 *
 * @param baseFetch The fetch that sends the request (proxy routing).
 * @returns The wrapped fetch.
 */
export function fetchWithStreamLoss(baseFetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    const contentType = response.headers.get('content-type') ?? '';
    if (init?.method !== 'POST' || response.body === null || !contentType.toLowerCase().startsWith('text/event-stream')) return response;
    const ids = requestIds(init.body);
    if (ids.length === 0) return response;
    return new Response(appendLossEvents(response.body, ids), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * True for the error the SDK raises from a synthetic "stream lost" answer.
 *
 * @param error Any error from a request.
 * @returns Whether the request's response stream ended without an answer.
 */
export function isStreamLoss(error: unknown): boolean {
  return error instanceof McpError && (error.data as { marker?: unknown } | undefined)?.marker === MARKER;
}

function appendLossEvents(body: ReadableStream<Uint8Array>, ids: ReadonlyArray<string | number>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let ended = false;
      try {
        const { done, value } = await reader.read();
        if (!done) controller.enqueue(value);
        ended = done;
      } catch {
        // A reset connection ends the stream like a close: the same synthetic answers follow.
        ended = true;
      }
      if (!ended) return;
      // The blank line first ends any event the drop cut in half.
      const events = ids.map((id) => `\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Response stream ended.', data: { marker: MARKER } } })}`);
      controller.enqueue(encoder.encode(`${events.join('')}\n\n`));
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function requestIds(body: unknown): Array<string | number> {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((message: unknown) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}
