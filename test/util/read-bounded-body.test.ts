// readBoundedBody(): the byte limit of remote.md §1.5 step 6 and §1.7 (remote MCP server) and
// providers.md §8.2 row 4 (corpus service, 65536 bytes); readBoundedStream() and concatBytes(), which the
// provider client and the Hook stdin readers share.
import { describe, expect, test } from 'bun:test';
import { concatBytes, readBoundedBody, readBoundedStream } from '../../src/util/read-bounded-body.ts';

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

/** A request whose body of `totalBytes` arrives in chunks of `chunkBytes`, without content-length. */
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
  return post(body);
}

describe('readBoundedBody()', () => {
  test('returns the bytes up to and including the limit', async () => {
    expect(await readBoundedBody(post('abcd'), 4)).toEqual({ kind: 'ok', bytes: new TextEncoder().encode('abcd') });
    expect(await readBoundedBody(new Response(null), 4)).toEqual({ kind: 'ok', bytes: new Uint8Array(0) });
  });

  test('readBoundedBody() returns the whole body when it has exactly 65536 bytes, streamed in pieces', async () => {
    const read = await readBoundedBody(streamed(65_536, 10_000), 65_536);
    expect(read.kind === 'ok' ? read.bytes.byteLength : undefined).toBe(65_536);
  });

  test('readBoundedBody() returns an empty body for a request without one', async () => {
    expect(await readBoundedBody(post(null), 65_536)).toEqual({ kind: 'ok', bytes: new Uint8Array(0) });
  });

  test('a body one byte over the limit, or a declared length over it, is too-large', async () => {
    expect(await readBoundedBody(post('abcde'), 4)).toEqual({ kind: 'too-large' });
    expect(await readBoundedBody(new Response('ab', { headers: { 'content-length': '5' } }), 4)).toEqual({ kind: 'too-large' });
  });

  test('readBoundedBody() rejects a declared content-length above the limit without reading', async () => {
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: 'x', headers: { 'content-length': '65537' } });
    expect(await readBoundedBody(request, 65_536)).toEqual({ kind: 'too-large' });
  });

  test('readBoundedBody() stops and cancels the stream once a streamed body passes 65536 bytes', async () => {
    let cancelled = 0;
    expect(
      await readBoundedBody(
        streamed(10 * 65_536, 16_384, () => cancelled++),
        65_536,
      ),
    ).toEqual({ kind: 'too-large' });
    expect(cancelled).toBe(1);
  });

  test('an endless stream is cancelled once the limit is passed', async () => {
    let cancelled = false;
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new Uint8Array(1000));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await readBoundedBody(post(stream), 65_536)).toEqual({ kind: 'too-large' });
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(80);
  });
});

describe('readBoundedStream()', () => {
  test('readBoundedStream() reads null as zero bytes and accepts exactly the limit', async () => {
    expect(await readBoundedStream(null, 4)).toEqual({ kind: 'ok', bytes: new Uint8Array(0) });
    expect(await readBoundedStream(streamed(4, 1).body, 4)).toEqual({ kind: 'ok', bytes: new TextEncoder().encode('aaaa') });
  });

  test('readBoundedStream() stops after the chunk that crosses the limit and cancels the stream', async () => {
    let cancelled = false;
    expect(await readBoundedStream(streamed(1_000_000, 3, () => (cancelled = true)).body, 4)).toEqual({ kind: 'too-large' });
    expect(cancelled).toBe(true);
  });

  test('readBoundedStream() passes a failed read on and releases the stream', async () => {
    const failure = new Error('peer went away');
    const body = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(failure) });
    await expect(readBoundedStream(body, 4)).rejects.toBe(failure);
    expect(body.locked).toBe(false);
  });
});

describe('concatBytes()', () => {
  test('concatBytes() joins chunks in order into one new array', () => {
    const first = new Uint8Array([1, 2]);
    const joined = concatBytes([first, new Uint8Array([]), new Uint8Array([3])], 3);
    expect(joined).toEqual(new Uint8Array([1, 2, 3]));
    first[0] = 9;
    expect(joined[0]).toBe(1);
  });
});
