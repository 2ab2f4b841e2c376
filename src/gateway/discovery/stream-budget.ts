// What one remote response stream may send (docs/design/frontend-mcp.md §3.1): bytes, and the
// number and rate of Server-Sent Events. Each event costs the SDK a parse, a validation and a
// dispatch however small it is, so a byte cap alone let ~47,000 tiny events through one call.
/** Most bytes read from one POST response (JSON body, or the whole event stream of that POST). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Most events in the event stream of one POST (a call's progress, its log lines, its answer). */
export const MAX_RESPONSE_EVENTS = 1000;
/** Most bytes of one event on the long-lived GET event stream. */
export const MAX_EVENT_BYTES = 4 * 1024 * 1024;
/** Length of one window of the GET event stream's rate limits, in milliseconds. */
export const STREAM_WINDOW_MS = 60_000;
/** Most events on the GET event stream within one window. */
export const MAX_WINDOW_EVENTS = 1000;
/** Most bytes on the GET event stream within one window. */
export const MAX_WINDOW_BYTES = 16 * 1024 * 1024;

/** The limits of one connection's streams; tests pass smaller ones and a controlled clock. */
export interface StreamLimits {
  readonly responseBytes: number;
  readonly responseEvents: number;
  readonly eventBytes: number;
  readonly windowMs: number;
  readonly windowEvents: number;
  readonly windowBytes: number;
  /** The clock of the windows, in milliseconds. */
  readonly now: () => number;
}

/** The limits above, with the wall clock. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  responseBytes: MAX_RESPONSE_BYTES,
  responseEvents: MAX_RESPONSE_EVENTS,
  eventBytes: MAX_EVENT_BYTES,
  windowMs: STREAM_WINDOW_MS,
  windowEvents: MAX_WINDOW_EVENTS,
  windowBytes: MAX_WINDOW_BYTES,
  now: () => Date.now(),
};

/** Takes the next chunk of a stream; true when the stream went past a limit and must be cut. */
export type StreamMeter = (chunk: Uint8Array) => boolean;

/**
 * The meter of one POST response: at most `responseBytes` in all and, for an event stream, at
 * most `responseEvents` events.
 *
 * @param limits The connection's limits.
 * @param eventStream Whether the response is `text/event-stream` (a JSON body has no events).
 * @returns A meter for that one response.
 * @see docs/design/frontend-mcp.md §3.1
 */
export function responseMeter(limits: StreamLimits, eventStream: boolean): StreamMeter {
  const scan = eventScanner();
  let bytes = 0;
  let events = 0;
  return (chunk) => {
    bytes += chunk.byteLength;
    if (eventStream) events += scan(chunk).events;
    return bytes > limits.responseBytes || events > limits.responseEvents;
  };
}

/**
 * The meter of the long-lived GET event stream: at most `eventBytes` in one event, and at most
 * `windowEvents` events and `windowBytes` bytes in each window of `windowMs` (fixed windows,
 * the first opened by the first chunk). A never-ending flood is cut within one window.
 *
 * @param limits The connection's limits.
 * @returns A meter for that one stream.
 * @see docs/design/frontend-mcp.md §3.1
 */
export function eventStreamMeter(limits: StreamLimits): StreamMeter {
  const scan = eventScanner();
  let windowStart: number | undefined;
  let events = 0;
  let bytes = 0;
  return (chunk) => {
    const now = limits.now();
    if (windowStart === undefined || now - windowStart >= limits.windowMs) {
      windowStart = now;
      events = 0;
      bytes = 0;
    }
    const scanned = scan(chunk);
    events += scanned.events;
    bytes += chunk.byteLength;
    return scanned.longestEventBytes > limits.eventBytes || events > limits.windowEvents || bytes > limits.windowBytes;
  };
}

/**
 * Counts Server-Sent Events across chunks: an event ends at a blank line (LF LF, CR CR or CRLF
 * CRLF) after at least one non-blank line, comments included (each costs the parser a dispatch).
 * Also reports the most bytes any event reached within the chunk, counted from the last
 * boundary (the blank line included), so one endless event is seen while it grows.
 */
function eventScanner(): (chunk: Uint8Array) => { events: number; longestEventBytes: number } {
  let afterCr = false;
  let atLineStart = true;
  let hasContent = false;
  let eventBytes = 0;
  return (chunk) => {
    let events = 0;
    let longest = eventBytes;
    for (const byte of chunk) {
      eventBytes++;
      if (eventBytes > longest) longest = eventBytes;
      if (byte === 0x0a && afterCr) {
        afterCr = false;
        continue;
      }
      afterCr = byte === 0x0d;
      if (byte === 0x0a || byte === 0x0d) {
        if (atLineStart) {
          if (hasContent) events++;
          hasContent = false;
          eventBytes = 0;
        }
        atLineStart = true;
      } else {
        atLineStart = false;
        hasContent = true;
      }
    }
    return { events, longestEventBytes: longest };
  };
}
