// The scripted behaviours a test can put in front of any fake (mem0-services.md §5): fixed
// replies, delays, stalls, endless and chunked streams, invalid UTF-8, redirects and resets.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeHandler, RecordedRequest, ResponseRecord } from './fake-server.ts';
import { mergeHeaders, writeReply, type FakeReply } from './reply.ts';

type Headers = Readonly<Record<string, string>>;
type Bytes = string | Uint8Array;

/**
 * One scripted behaviour. Every kind also takes `delayMs`: wait that many ms before acting
 * (skipped when the client has gone).
 *
 * - `reply`: a fixed status, raw `body` or `json`, and `headers` (`content-length` is set
 *   from the body unless given; a given one may lie).
 * - `passthrough`: the service's own reply with extra `headers` (after `delayMs`).
 * - `stall-before-headers`: read the request, never answer.
 * - `stall-after-headers`: send status and headers (chunked unless `content-length` is
 *   given), then `partial` if any, then nothing more.
 * - `endless`: status 200 (chunked) and chunks of `chunkBytes` bytes of `fill` (default a
 *   space, 0x20) until the client goes away; after `maxBytes` (default 64 MiB) it stalls.
 *   `response.chunksWritten` counts the chunks handed to the socket.
 * - `chunked`: the given `chunks` as separate writes of a chunked body, `gapMs` apart
 *   (default 5 ms).
 * - `invalid-utf8`: `template` (JSON text) with every `@@INVALID@@` replaced by the bytes
 *   C3 28 (an invalid UTF-8 sequence). The default template is a valid envelope for every
 *   service: `{"items":[…],"results":[…]}` with the bad bytes inside a string.
 * - `redirect`: `status` (default 302) with `location` (default `<origin>/redirected`) and an
 *   optional body.
 * - `reset-before-headers`: read the request, then reset the connection (RST where supported).
 * - `reset-mid-body`: headers with `content-length: declaredBytes` (default the partial's
 *   length + 1024), `partial` (default `{"results":[`), then close the connection 20 ms later.
 * - `empty-204`: status 204, no body.
 */
export type FakeOverride = (
  | { readonly kind: 'reply'; readonly status: number; readonly body?: Bytes; readonly json?: unknown; readonly headers?: Headers }
  | { readonly kind: 'passthrough'; readonly headers?: Headers }
  | { readonly kind: 'stall-before-headers' }
  | { readonly kind: 'stall-after-headers'; readonly status?: number; readonly headers?: Headers; readonly partial?: Bytes }
  | {
      readonly kind: 'endless';
      readonly chunkBytes: number;
      readonly fill?: number;
      readonly maxBytes?: number;
      readonly status?: number;
      readonly headers?: Headers;
    }
  | { readonly kind: 'chunked'; readonly chunks: readonly Bytes[]; readonly gapMs?: number; readonly status?: number; readonly headers?: Headers }
  | { readonly kind: 'invalid-utf8'; readonly template?: string; readonly status?: number }
  | { readonly kind: 'redirect'; readonly status?: number; readonly location?: string; readonly body?: string }
  | { readonly kind: 'reset-before-headers' }
  | { readonly kind: 'reset-mid-body'; readonly status?: number; readonly partial?: Bytes; readonly declaredBytes?: number; readonly headers?: Headers }
  | { readonly kind: 'empty-204' }
) & { readonly delayMs?: number };

/** What an override needs from the server that plays it. */
export interface OverrideContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly record: RecordedRequest;
  readonly origin: string;
  readonly handler: FakeHandler;
}

/** The placeholder `invalid-utf8` replaces with invalid bytes. */
export const INVALID_UTF8_MARKER = '@@INVALID@@';

const DEFAULT_INVALID_UTF8_TEMPLATE = '{"items":[{"id":"doc-1","content":"bad @@INVALID@@ byte"}],"results":[{"id":"mem-1","memory":"bad @@INVALID@@ byte"}]}';
const INVALID_SEQUENCE = new Uint8Array([0xc3, 0x28]);
const DEFAULT_ENDLESS_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_CHUNK_GAP_MS = 5;
const MID_BODY_CLOSE_DELAY_MS = 20;
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * Plays one override on a response.
 *
 * @see mem0-services.md §5, "Scripted overrides per test"
 */
export async function playOverride(behaviour: FakeOverride, ctx: OverrideContext): Promise<void> {
  const { res, record } = ctx;
  const rec = record.response;
  if (behaviour.delayMs !== undefined) await sleep(behaviour.delayMs);
  if (res.destroyed) return;
  switch (behaviour.kind) {
    case 'reply':
      return writeReply(res, rec, behaviour);
    case 'passthrough': {
      const reply = await ctx.handler(record);
      return writeReply(res, rec, { ...reply, headers: mergeHeaders(reply.headers, behaviour.headers) });
    }
    case 'stall-before-headers':
      return;
    case 'stall-after-headers':
      sendHead(res, rec, behaviour.status ?? 200, behaviour.headers);
      if (behaviour.partial !== undefined) writeChunk(res, rec, toBytes(behaviour.partial));
      return;
    case 'endless':
      return streamEndless(res, rec, behaviour);
    case 'chunked':
      sendHead(res, rec, behaviour.status ?? 200, behaviour.headers);
      for (const [index, chunk] of behaviour.chunks.entries()) {
        if (index > 0) await sleep(behaviour.gapMs ?? DEFAULT_CHUNK_GAP_MS);
        if (res.destroyed) return;
        writeChunk(res, rec, toBytes(chunk));
      }
      res.end();
      return;
    case 'invalid-utf8':
      return writeReply(res, rec, { status: behaviour.status ?? 200, body: invalidUtf8Body(behaviour.template) });
    case 'redirect':
      return writeReply(res, rec, {
        status: behaviour.status ?? 302,
        headers: { location: behaviour.location ?? `${ctx.origin}/redirected`, 'content-type': 'text/plain' },
        body: behaviour.body ?? '',
      });
    case 'reset-before-headers':
      return resetConnection(ctx.req);
    case 'reset-mid-body': {
      const partial = toBytes(behaviour.partial ?? '{"results":[');
      const declared = behaviour.declaredBytes ?? partial.byteLength + 1024;
      const headers = mergeHeaders(behaviour.headers, { 'content-length': String(declared) });
      sendHead(res, rec, behaviour.status ?? 200, headers);
      rec.chunksWritten += 1;
      rec.bytesWritten += partial.byteLength;
      res.write(partial);
      // A plain close (FIN) after a pause: an RST could make the client drop the headers and
      // partial body it has not read yet, and this case must fail while reading the body.
      await sleep(MID_BODY_CLOSE_DELAY_MS);
      ctx.req.socket.destroy();
      return;
    }
    case 'empty-204':
      return writeReply(res, rec, { status: 204 });
  }
}

/** Builds the bytes of an `invalid-utf8` body from a template. */
export function invalidUtf8Body(template: string = DEFAULT_INVALID_UTF8_TEMPLATE): Uint8Array {
  const parts = template.split(INVALID_UTF8_MARKER).map((part) => new TextEncoder().encode(part));
  const out: number[] = [];
  parts.forEach((part, index) => {
    if (index > 0) out.push(...INVALID_SEQUENCE);
    out.push(...part);
  });
  return new Uint8Array(out);
}

function sendHead(res: ServerResponse, rec: ResponseRecord, status: number, headers: Headers | undefined): void {
  rec.status = status;
  res.writeHead(status, mergeHeaders(JSON_TYPE, headers));
  res.flushHeaders();
}

function writeChunk(res: ServerResponse, rec: ResponseRecord, bytes: Uint8Array): boolean {
  rec.chunksWritten += 1;
  rec.bytesWritten += bytes.byteLength;
  return res.write(bytes);
}

function streamEndless(res: ServerResponse, rec: ResponseRecord, behaviour: Extract<FakeOverride, { kind: 'endless' }>): void {
  const chunk = new Uint8Array(behaviour.chunkBytes).fill(behaviour.fill ?? 0x20);
  const maxBytes = behaviour.maxBytes ?? DEFAULT_ENDLESS_MAX_BYTES;
  sendHead(res, rec, behaviour.status ?? 200, behaviour.headers);
  // Backpressure: wait for 'drain' so the count reflects what the socket accepted, and stop
  // as soon as the client goes away (the cancel the product must perform).
  const pump = (): void => {
    while (!res.destroyed && rec.bytesWritten + chunk.byteLength <= maxBytes) {
      if (!writeChunk(res, rec, chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function resetConnection(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { resetAndDestroy?: () => void };
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function toBytes(value: Bytes): Uint8Array {
  return typeof value === 'string' ? new TextEncoder().encode(value) : value;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
