// Reads a provider response body under the 1 MiB streamed limit (docs/design/providers.md §1.2 rows 5–6)
// and names why an exchange did not complete (timeout, cancellation or network).
import { ProviderError, type ProviderErrorKind } from './provider-error.ts';
import { type BoundedBody, readBoundedBody, readBoundedStream } from '../util/read-bounded-body.ts';

/** Largest accepted response body in bytes (1 MiB); exactly this many bytes is accepted. */
export const MAX_RESPONSE_BYTES = 1_048_576;

/**
 * Names an *incomplete* exchange: `timeout` when the signal was aborted by a timeout
 * (`AbortSignal.timeout` sets a `TimeoutError` reason, and `AbortSignal.any` passes it on),
 * `cancelled` for any other abort, `network` when the signal is not aborted.
 *
 * @param signal The combined caller and timeout signal passed to `fetch`.
 * @returns One of the three *incomplete* kinds of docs/design/providers.md §1.3.
 */
export function incompleteKind(signal: AbortSignal): ProviderErrorKind {
  if (!signal.aborted) return 'network';
  const reason: unknown = signal.reason;
  const name = typeof reason === 'object' && reason !== null ? (reason as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' ? 'timeout' : 'cancelled';
}

/**
 * Reads a response body, counting decoded bytes.
 *
 * A `Response` whose declared `content-length` frames its body (no `transfer-encoding`, no
 * `content-encoding`) is read in one piece; any other body, or a bare stream, chunk by chunk.
 * When the running total passes `maxBytes`, the reader is cancelled and the cancellation is
 * awaited before the error propagates, so an endless stream stops after the chunk that
 * crossed the limit. When a read fails (including an abort mid-stream), the reader lock is
 * released before the error propagates.
 *
 * @param body The response, or its body stream; `null` (no body) reads as zero bytes.
 * @param signal The signal of the exchange, used only to name a failed read.
 * @param maxBytes Limit in bytes, default 1048576; a body of exactly this size is accepted.
 * @returns All bytes in order, reassembled into one array.
 * @throws {ProviderError} `oversize` past the limit; `timeout`, `cancelled` or `network`
 *   when a read fails.
 * @see docs/design/providers.md §1.2 rows 5 and 6
 */
export async function readResponseBody(body: Response | ReadableStream<Uint8Array> | null, signal: AbortSignal, maxBytes: number = MAX_RESPONSE_BYTES): Promise<Uint8Array<ArrayBuffer>> {
  let result: BoundedBody;
  try {
    result = body instanceof Response ? await readBoundedBody(body, maxBytes) : await readBoundedStream(body, maxBytes);
  } catch {
    throw new ProviderError(incompleteKind(signal));
  }
  // The cancellation past the limit settles before the error is returned (docs/design/providers.md §1.2).
  if (result.kind === 'too-large') throw new ProviderError('oversize');
  return result.bytes;
}
