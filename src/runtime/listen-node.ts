// Listening under Node.js: node:http adapted to web Request/Response, with a graceful close
// that lets requests in progress finish and closes keep-alive connections once idle.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { bareHostname, urlHost, type FetchHandler, type ListenFunction, type ListenOptions, type Listener } from './listen-types.ts';

// After a handler stops reading a body early (413), this many more bytes are drained so the
// client can read the response; a larger remainder closes the connection instead.
const MAX_DRAIN_BYTES = 1_048_576;
// Longest the request headers may take to arrive, in ms.
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Starts a `node:http` server for `handler`.
 *
 * @see listen.ts for the contract.
 */
export const listenNode: ListenFunction = async (handler: FetchHandler, options: ListenOptions): Promise<Listener> => {
  const http = await import('node:http');
  const hostname = bareHostname(options.hostname);
  let closing: Promise<void> | undefined;
  // Header read deadline: node:http answers 408 itself when the headers take longer than 10 s
  // (checked every second); the handlers bound the body (docs/design/remote.md §1.5 step 6).
  const server: Server = http.createServer({ headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1000 }, (req, res) => {
    void answer(handler, req, res, () => closing !== undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: hostname, port: options.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${urlHost(hostname)}:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
};

async function answer(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, isClosing: () => boolean): Promise<void> {
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  let response: Response;
  try {
    response = await handler(toRequest(req, aborter.signal));
  } catch {
    response = new Response(null, { status: 500 });
  }
  await writeResponse(response, res, isClosing());
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = typeof req.headers.host === 'string' && req.headers.host !== '' ? req.headers.host : 'localhost';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${host}`);
    // `Host: user@name` parses with credentials, which new Request refuses (an empty 500 before).
    if (url.username !== '' || url.password !== '') throw new TypeError('credentials in Host');
  } catch {
    // An unparsable Host header: fall back so the handler still sees the path and answers.
    url = new URL(req.url ?? '/', 'http://localhost');
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

// A pull stream (high-water mark 0) reads the socket only when the handler reads the body, so
// an unread body is drained by node:http itself after the response.
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) => pullChunk(req, controller),
      cancel: () => drainRest(req),
    },
    { highWaterMark: 0 },
  );
}

function pullChunk(req: IncomingMessage, controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
  return new Promise<void>((resolve) => {
    const tryRead = (): void => {
      const chunk: unknown = req.read();
      if (chunk !== null) {
        cleanup();
        controller.enqueue(chunk instanceof Uint8Array ? new Uint8Array(chunk) : new TextEncoder().encode(String(chunk)));
        resolve();
      } else if (req.readableEnded) {
        finish();
      }
    };
    const finish = (): void => {
      cleanup();
      controller.close();
      resolve();
    };
    const fail = (): void => {
      cleanup();
      controller.error(new Error('The request body could not be read.'));
      resolve();
    };
    const cleanup = (): void => {
      req.off('readable', tryRead);
      req.off('end', finish);
      req.off('error', fail);
      req.off('aborted', fail);
    };
    req.on('readable', tryRead);
    req.once('end', finish);
    req.once('error', fail);
    req.once('aborted', fail);
    tryRead();
  });
}

function drainRest(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Uint8Array) => {
    drained += chunk.byteLength;
    if (drained > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}

async function writeResponse(response: Response, res: ServerResponse, closing: boolean): Promise<void> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !(closing && name === 'connection')) headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  // While closing, no connection is kept alive for another request.
  if (closing) headers.push('connection', 'close');
  if (response.statusText === '') res.writeHead(response.status, headers);
  else res.writeHead(response.status, response.statusText, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // Send the head now: a stream (server-sent events) may not produce its first chunk for a while.
  res.flushHeaders();
  const reader = response.body.getReader();
  const onClose = (): void => void reader.cancel().catch(() => {});
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Flush each chunk as it comes (server-sent events), respecting back-pressure.
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}
