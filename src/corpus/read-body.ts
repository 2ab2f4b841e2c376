// Reads a request body up to a byte limit, stopping (and cancelling the stream) as soon as the
// limit is passed (providers.md §8.2 row 4).

/** Largest request body the service reads, in bytes (64 KiB). */
export const MAX_REQUEST_BODY_BYTES = 65_536;

/**
 * Reads the whole body of a request when it fits.
 *
 * @param request The incoming request.
 * @param maxBytes Largest accepted body in bytes; exactly `maxBytes` is accepted.
 * @returns The body bytes (empty without a body), or undefined when the declared
 *   `content-length` or the bytes read exceed `maxBytes`.
 * @throws {Error} When reading the stream fails (the client went away).
 */
export async function readBodyWithin(request: Request, maxBytes: number = MAX_REQUEST_BODY_BYTES): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
