// Reading a body with a byte limit: the declared length is checked first, and reading stops
// at the limit. Shared by the remote MCP server (docs/design/remote.md §1.5 step 6 for requests, §1.7 for
// the JWKS answer), the corpus service (docs/design/providers.md §8.2 row 4), the provider client
// (docs/design/providers.md §1.2 rows 5–6) and the Hook stdin readers; it imports nothing from src/.

/** The body, or `too-large` when it exceeds the limit. */
export type BoundedBody = { readonly kind: 'ok'; readonly bytes: Uint8Array<ArrayBuffer> } | { readonly kind: 'too-large' };

/**
 * Reads a request or response body.
 *
 * @param message The request or response.
 * @param maxBytes The limit, in bytes.
 * @returns `too-large` when `content-length` declares more than `maxBytes` (the stream is
 *   cancelled unread) or more than `maxBytes` arrive (reading stops and the stream is
 *   cancelled); else the bytes (empty for no body).
 * @throws Whatever the body stream throws (the peer went away mid-body, an abort).
 * @see docs/design/remote.md §1.5 step 6, §1.7; docs/design/providers.md §8.2 row 4
 */
export async function readBoundedBody(message: Request | Response, maxBytes: number): Promise<BoundedBody> {
  const declared = message.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) {
    await message.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  return readBoundedStream(message.body, maxBytes);
}

/**
 * Reads a body stream chunk by chunk, counting bytes as they arrive.
 *
 * When the running total passes `maxBytes`, the reader is cancelled and the cancellation is
 * awaited, so an endless stream stops after the chunk that crossed the limit. When a read
 * fails (the peer went away, an abort), the reader lock is released and the error propagates.
 *
 * @param body The body; `null` (no body) reads as zero bytes.
 * @param maxBytes The limit, in bytes; a body of exactly this size is accepted.
 * @returns `too-large` past the limit; else all bytes in order, in one array.
 * @throws Whatever the stream's read throws.
 */
export async function readBoundedStream(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<BoundedBody> {
  if (body === null) return { kind: 'ok', bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let result: Awaited<ReturnType<typeof reader.read>>;
    try {
      result = await reader.read();
    } catch (error) {
      releaseQuietly(reader);
      throw error;
    }
    if (result.done) break;
    total += result.value.byteLength;
    if (total > maxBytes) {
      // Awaited: the cancellation settles before the answer is returned.
      await reader.cancel().catch(() => undefined);
      return { kind: 'too-large' };
    }
    chunks.push(result.value);
  }
  reader.releaseLock();
  return { kind: 'ok', bytes: concatBytes(chunks, total) };
}

/**
 * Joins chunks into one array.
 *
 * @param chunks The chunks, in order.
 * @param total Their summed length, in bytes.
 * @returns A new array of `total` bytes.
 */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function releaseQuietly(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    reader.releaseLock();
  } catch {
    // Nothing to release: the lock is already gone.
  }
}
