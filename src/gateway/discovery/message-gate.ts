// Bounds the POSTs that carry no request (docs/design/frontend-mcp.md §3.1): the SDK answers
// every request a server sends (`ping`, or a method it has no handler for) with a POST of its
// own, so a server that floods requests and never answers those POSTs held a socket per request,
// unbounded, starving every other server and fetch of the host. Per connection, at most a few
// replies and a few notifications are in flight; the rest are dropped without a round trip.
/** Most replies to server requests in flight on one connection. */
export const MAX_REPLIES_IN_FLIGHT = 4;
/** Most notification POSTs (`notifications/initialized`, `notifications/cancelled`) in flight on one connection. */
export const MAX_NOTIFICATIONS_IN_FLIGHT = 4;

// JSON-RPC "Method not found": the SDK's answer to a request the gateway has no handler for.
const METHOD_NOT_FOUND = -32601;

/** What a POST without requests carries. */
export type MessagePostKind = 'reply' | 'refusal' | 'notification';

/**
 * Classifies the messages of a POST that carries no request.
 *
 * @param messages The parsed JSON-RPC messages of the body (at least one, none a request).
 * @returns `refusal` when every message answers "Method not found" (a request for a capability
 *   the gateway never declared), `reply` when any answers a server request, else `notification`.
 */
export function messagePostKind(messages: ReadonlyArray<{ readonly method?: unknown; readonly error?: unknown }>): MessagePostKind {
  const replies = messages.filter((message) => message.method === undefined);
  if (replies.length === 0) return 'notification';
  const refusals = replies.filter((message) => (message.error as { code?: unknown } | undefined)?.code === METHOD_NOT_FOUND);
  return refusals.length === messages.length ? 'refusal' : 'reply';
}

/** The in-flight budget of one connection. */
export interface MessageGate {
  /**
   * Takes a slot for a POST of this kind.
   *
   * @returns The function that gives the slot back (idempotent), or undefined when the POST is
   *   to be dropped: every refusal, and a reply or notification while its budget is spent.
   */
  admit(kind: MessagePostKind): (() => void) | undefined;
}

/**
 * A new budget for one connection.
 *
 * @param limits In-flight caps; defaults MAX_REPLIES_IN_FLIGHT and MAX_NOTIFICATIONS_IN_FLIGHT.
 * @returns The gate.
 * @see docs/design/frontend-mcp.md §3.1
 */
export function messageGate(limits: { readonly replies?: number; readonly notifications?: number } = {}): MessageGate {
  const caps = { reply: limits.replies ?? MAX_REPLIES_IN_FLIGHT, notification: limits.notifications ?? MAX_NOTIFICATIONS_IN_FLIGHT };
  const inFlight = { reply: 0, notification: 0 };
  return {
    admit(kind) {
      if (kind === 'refusal' || inFlight[kind] >= caps[kind]) return undefined;
      inFlight[kind]++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight[kind]--;
      };
    },
  };
}
