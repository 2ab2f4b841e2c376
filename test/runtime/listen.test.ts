import { describe, expect, test } from 'bun:test';
import { listen } from '../../src/runtime/listen.ts';
import { listenBun } from '../../src/runtime/listen-bun.ts';
import { listenNode } from '../../src/runtime/listen-node.ts';
import type { FetchHandler, ListenFunction } from '../../src/runtime/listen-types.ts';

// listen() picks Bun here; the node:http adapter runs under Bun too, and the Deno adapter is
// covered by test/runtime/deno.test.ts.
const ADAPTERS: [string, ListenFunction][] = [
  ['listen() (Bun.serve)', listen],
  ['listenBun()', listenBun],
  ['listenNode() (node:http)', listenNode],
];

const echo: FetchHandler = async (request) => {
  const url = new URL(request.url);
  const body = request.method === 'POST' ? await request.text() : '';
  return new Response(JSON.stringify({ method: request.method, path: url.pathname + url.search, body, auth: request.headers.get('authorization') }), {
    status: 201,
    headers: { 'content-type': 'application/json', 'x-one': 'a' },
  });
};

for (const [name, listenWith] of ADAPTERS) {
  describe(name, () => {
    test('binds port 0 on 127.0.0.1, reports the real port and passes method, path, headers and body', async () => {
      const server = await listenWith(echo, { hostname: '127.0.0.1', port: 0 });
      try {
        expect(server.port).toBeGreaterThan(0);
        expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
        const response = await fetch(`${server.url}/a/b?c=1`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: 'héllo' });
        expect(response.status).toBe(201);
        expect(response.headers.get('x-one')).toBe('a');
        expect(await response.json()).toEqual({ method: 'POST', path: '/a/b?c=1', body: 'héllo', auth: 'Bearer t' });
      } finally {
        await server.close();
      }
    });

    test('binds IPv6 loopback written as [::1] or ::1 and puts brackets in the URL', async () => {
      for (const hostname of ['[::1]', '::1']) {
        const server = await listenWith(echo, { hostname, port: 0 });
        try {
          expect(server.url).toBe(`http://[::1]:${server.port}`);
          expect((await fetch(`${server.url}/v6`)).status).toBe(201);
        } finally {
          await server.close();
        }
      }
    });

    test('close() lets a request in progress finish, then refuses new connections', async () => {
      let release: () => void = () => {};
      let started: () => void = () => {};
      const running = new Promise<void>((resolve) => (started = resolve));
      const slow: FetchHandler = async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        return new Response('finished');
      };
      const server = await listenWith(slow, { hostname: '127.0.0.1', port: 0 });
      const inFlight = fetch(`${server.url}/`).then((response) => response.text());
      await running;
      let closed = false;
      const closing = server.close().then(() => (closed = true));
      expect(server.close()).toBe(server.close());
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(false);
      release();
      expect(await inFlight).toBe('finished');
      await closing;
      expect(
        await fetch(`${server.url}/`).then(
          () => 'answered',
          () => 'refused',
        ),
      ).toBe('refused');
    });

    test('answers an empty 500 when the handler throws, and keeps serving', async () => {
      const server = await listenWith(
        async (request) => {
          if (new URL(request.url).pathname === '/boom') throw new Error('canary-handler-detail');
          return new Response('ok');
        },
        { hostname: '127.0.0.1', port: 0 },
      );
      try {
        const response = await fetch(`${server.url}/boom`);
        expect(response.status).toBe(500);
        expect(await response.text()).toBe('');
        expect(await (await fetch(`${server.url}/`)).text()).toBe('ok');
      } finally {
        await server.close();
      }
    });

    test('fails with EADDRINUSE when the port is taken', async () => {
      const server = await listenWith(echo, { hostname: '127.0.0.1', port: 0 });
      try {
        const error = await listenWith(echo, { hostname: '127.0.0.1', port: server.port }).catch((e: unknown) => e);
        expect(String((error as { code?: unknown }).code)).toBe('EADDRINUSE');
      } finally {
        await server.close();
      }
    });

    test('streams a response chunk by chunk (server-sent events)', async () => {
      let push: (text: string) => void = () => {};
      let end: () => void = () => {};
      const server = await listenWith(
        async () => {
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              push = (text) => controller.enqueue(new TextEncoder().encode(text));
              end = () => controller.close();
              push('data: one\n\n');
            },
          });
          return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
        },
        { hostname: '127.0.0.1', port: 0 },
      );
      try {
        const response = await fetch(`${server.url}/events`);
        const reader = response.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n');
        push('data: two\n\n');
        expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: two\n\n');
        end();
        expect((await reader.read()).done).toBe(true);
      } finally {
        await server.close();
      }
    });
  });
}

describe('listenNode() (node:http)', () => {
  test('answers when the handler stops reading a large body early, and keeps serving', async () => {
    const server = await listenNode(
      async (request) => {
        const reader = request.body!.getReader();
        await reader.read();
        await reader.cancel();
        return new Response('too large', { status: 413 });
      },
      { hostname: '127.0.0.1', port: 0 },
    );
    try {
      const response = await fetch(`${server.url}/`, { method: 'POST', body: 'x'.repeat(200_000) });
      expect(response.status).toBe(413);
      expect(await response.text()).toBe('too large');
      const again = await fetch(`${server.url}/`, { method: 'POST', body: 'y' });
      expect(again.status).toBe(413);
    } finally {
      await server.close();
    }
  });

  test('aborts the request signal when the client goes away', async () => {
    let aborted: () => void = () => {};
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    const server = await listenNode(
      async (request) => {
        request.signal.addEventListener('abort', () => aborted());
        return new Response(new ReadableStream({ pull: () => new Promise(() => {}) }));
      },
      { hostname: '127.0.0.1', port: 0 },
    );
    try {
      const client = new AbortController();
      const response = await fetch(`${server.url}/`, { signal: client.signal });
      expect(response.status).toBe(200);
      client.abort();
      await sawAbort;
    } finally {
      await server.close();
    }
  });
});
