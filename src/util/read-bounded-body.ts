// Reading a body with a byte limit: the declared length is checked first, and reading stops
// at the limit. Shared by the remote MCP server (docs/design/remote.md §1.5 step 6 for requests, §1.7 for
// the JWKS answer) and the corpus service (docs/design/providers.md §8.2 row 4); it imports nothing from src/.

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
  if (message.body === null) return { kind: 'ok', bytes: new Uint8Array(0) };
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { kind: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'ok', bytes };
}
