// readBoundedBody(): the byte limit of remote.md §1.5 step 6 and §1.7.
import { describe, expect, test } from 'bun:test';
import { readBoundedBody } from '../../../src/mcp/http/read-bounded-body.ts';

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

describe('readBoundedBody()', () => {
  test('returns the bytes up to and including the limit', async () => {
    expect(await readBoundedBody(post('abcd'), 4)).toEqual({ kind: 'ok', bytes: new TextEncoder().encode('abcd') });
    expect(await readBoundedBody(new Response(null), 4)).toEqual({ kind: 'ok', bytes: new Uint8Array(0) });
  });

  test('a body one byte over the limit, or a declared length over it, is too-large', async () => {
    expect(await readBoundedBody(post('abcde'), 4)).toEqual({ kind: 'too-large' });
    expect(await readBoundedBody(new Response('ab', { headers: { 'content-length': '5' } }), 4)).toEqual({ kind: 'too-large' });
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
