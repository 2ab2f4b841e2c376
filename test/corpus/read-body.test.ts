import { describe, expect, test } from 'bun:test';
import { MAX_REQUEST_BODY_BYTES, readBodyWithin } from '../../src/corpus/read-body.ts';

function streamed(totalBytes: number, chunkBytes: number, onCancel: () => void = () => {}): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(chunkBytes, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel: onCancel,
  });
  return new Request('http://127.0.0.1/', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBodyWithin()', () => {
  test('returns the whole body when it has exactly 65536 bytes, streamed in pieces', async () => {
    expect((await readBodyWithin(streamed(MAX_REQUEST_BODY_BYTES, 10_000)))?.byteLength).toBe(65_536);
  });

  test('stops and cancels the stream once a streamed body passes 65536 bytes', async () => {
    let cancelled = 0;
    expect(await readBodyWithin(streamed(10 * MAX_REQUEST_BODY_BYTES, 16_384, () => cancelled++))).toBeUndefined();
    expect(cancelled).toBe(1);
  });

  test('rejects a declared content-length above the limit without reading', async () => {
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: 'x', headers: { 'content-length': '65537' } });
    expect(await readBodyWithin(request)).toBeUndefined();
  });

  test('returns an empty body for a request without one', async () => {
    expect(await readBodyWithin(new Request('http://127.0.0.1/', { method: 'POST' }))).toEqual(new Uint8Array(0));
  });
});
