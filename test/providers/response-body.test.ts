// readResponseBody() and incompleteKind(): the streamed 1 MiB limit, cancellation and lock
// release, observed on in-process streams whose pulls and cancels are counted.
import { describe, expect, test } from 'bun:test';
import { ProviderError } from '../../src/providers/provider-error.ts';
import { incompleteKind, MAX_RESPONSE_BYTES, readResponseBody } from '../../src/providers/response-body.ts';
import { rejectionOf } from '../support/thrown-error.ts';

const KIB = 1024;

/** An endless stream of `chunkBytes` chunks that counts pulls and cancels. */
function endlessStream(chunkBytes: number): { stream: ReadableStream<Uint8Array>; pulls: () => number; cancels: () => number } {
  let pulls = 0;
  let cancels = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
      },
      cancel() {
        cancels += 1;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => pulls, cancels: () => cancels };
}

function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  return rejectionOf(ProviderError, promise);
}

const live = (): AbortSignal => new AbortController().signal;

describe('readResponseBody()', () => {
  test('an endless stream of 512 KiB chunks is cancelled exactly once after at most 4 chunks', async () => {
    const endless = endlessStream(512 * KIB);
    const error = await rejection(readResponseBody(endless.stream, live()));
    expect(error.kind).toBe('oversize');
    expect(error.errorClass).toBe('invalid');
    expect(endless.cancels()).toBe(1);
    expect(endless.pulls()).toBeLessThanOrEqual(4);
  });

  test('the cancellation settles before the error is returned', async () => {
    let settled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(MAX_RESPONSE_BYTES + 1));
      },
      cancel: () => new Promise<void>((resolve) => setTimeout(() => ((settled = true), resolve()), 20)),
    });
    await rejection(readResponseBody(stream, live()));
    expect(settled).toBe(true);
  });

  test('exactly 1048576 bytes are accepted; one more byte is not', async () => {
    const exact = await readResponseBody(streamOf([new Uint8Array(MAX_RESPONSE_BYTES - 10), new Uint8Array(10)]), live());
    expect(exact.byteLength).toBe(1_048_576);
    const error = await rejection(readResponseBody(streamOf([new Uint8Array(MAX_RESPONSE_BYTES), new Uint8Array(1)]), live()));
    expect(error.kind).toBe('oversize');
  });

  test('a multi-chunk body is reassembled in order', async () => {
    const encoder = new TextEncoder();
    const bytes = await readResponseBody(streamOf(['{"items"', ':[', ']}'].map((part) => encoder.encode(part))), live());
    expect(new TextDecoder().decode(bytes)).toBe('{"items":[]}');
  });

  test('no body reads as zero bytes', async () => {
    expect((await readResponseBody(null, live())).byteLength).toBe(0);
  });

  test('a failed read releases the reader lock and is incomplete (network)', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new Uint8Array([0x7b]));
        } else controller.error(new Error('connection reset by canary-peer'));
      },
    });
    const error = await rejection(readResponseBody(stream, live()));
    expect(error.kind).toBe('network');
    expect(error.errorClass).toBe('incomplete');
    expect(error.message).toBe('External context provider request did not complete.');
    expect(error.message).not.toContain('canary');
    expect(stream.locked).toBe(false);
  });

  test('an abort mid-stream releases the lock and is cancelled or timeout by the signal reason', async () => {
    const controller = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      pull(streamController) {
        controller.abort();
        streamController.error(controller.signal.reason);
      },
    });
    const error = await rejection(readResponseBody(stream, controller.signal));
    expect(error.kind).toBe('cancelled');
    expect(stream.locked).toBe(false);
  });
});

describe('incompleteKind()', () => {
  test('timeout for a TimeoutError reason (AbortSignal.timeout, also through AbortSignal.any)', async () => {
    const timeout = AbortSignal.timeout(1);
    await new Promise((resolve) => timeout.addEventListener('abort', resolve, { once: true }));
    expect(incompleteKind(timeout)).toBe('timeout');
    const combined = AbortSignal.any([new AbortController().signal, timeout]);
    expect(incompleteKind(combined)).toBe('timeout');
  });

  test('cancelled for any other abort; network when not aborted', () => {
    const controller = new AbortController();
    expect(incompleteKind(controller.signal)).toBe('network');
    controller.abort();
    expect(incompleteKind(controller.signal)).toBe('cancelled');
    const custom = new AbortController();
    custom.abort('stop');
    expect(incompleteKind(custom.signal)).toBe('cancelled');
  });
});
