// Test helper: a Streamable HTTP MCP server on loopback that floods the client with Server-Sent
// Events (node:http, so every stream's end is seen). `initialize` and `tools/list` are answered
// with JSON; the GET event stream and every `tools/call` answer get the flood chosen (none: a
// healthy server). Replies the
// client POSTs to the server's requests are held open, never answered. Strict and bounded: a
// flood ends after its event count or FLOOD_MS, a held reply after FLOOD_MS, whichever is first.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What a flood sends, one event at a time. */
export type Flood =
  /** `ping` requests with fresh ids: the SDK answers each with a POST. */
  | 'pings'
  /** Small notifications (84 bytes each: 47,000 stay under 4 MiB) the client has no handler for. */
  | 'notifications'
  /** `sampling/createMessage` requests (a capability the gateway never declares); a stream
   * the server ends itself ends with one `ping`. */
  | 'unsupported-requests';

export interface FloodOptions {
  /** The GET event stream's flood; without it GET is refused with 405. */
  readonly get?: { readonly flood: Flood; readonly events: number } | undefined;
  /** Every `tools/call` answer's flood; `thenResult` ends it with the call's result. Without it, a
   * call is answered at once with the text `fine` (a healthy server). */
  readonly call?: { readonly flood: Flood; readonly events: number; readonly thenResult: boolean } | undefined;
  /** `tools/list` waits for this first (a test orders the other servers' requests after a flood). */
  readonly holdList?: Promise<void> | undefined;
}

/** What one flood stream saw. */
export interface FloodStream {
  readonly kind: 'get' | 'call';
  /** Events written before the stream ended. */
  written: number;
  /** True when the client closed the stream before the server wrote every event. */
  cutByClient: boolean;
}

export interface FloodServer {
  readonly url: string;
  /** Replies to the server's requests received so far (each a POST). */
  replies(): number;
  /** Those of them that answered "Method not found" (-32601). */
  refusals(): number;
  /** Most replies held open at one time. */
  peakOpenReplies(): number;
  /** Every flood stream that has ended. */
  readonly ended: FloodStream[];
  /** Resolves once a flood stream of this kind has ended (cut by the client or written out). */
  floodEnded(kind: 'get' | 'call'): Promise<FloodStream>;
  close(): Promise<void>;
}

/** Longest a flood runs or a reply is held, in milliseconds (the server stops by itself). */
export const FLOOD_MS = 120_000;
const BATCH_EVENTS = 50;

/**
 * Starts the server on 127.0.0.1.
 *
 * @param options The floods and the tools/list hold.
 */
export async function startFloodServer(options: FloodOptions): Promise<FloodServer> {
  const sockets = new Set<Socket>();
  const ended: FloodStream[] = [];
  const waiters: Array<{ kind: 'get' | 'call'; resolve: (stream: FloodStream) => void }> = [];
  let replies = 0;
  let refusals = 0;
  let openReplies = 0;
  let peakOpenReplies = 0;
  let nextPing = 0;
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const ping = (): string => `event: message\ndata: {"jsonrpc":"2.0","id":"ping-${nextPing++}","method":"ping"}\n\n`;
  const event = (flood: Flood): string => {
    if (flood === 'pings') return ping();
    if (flood === 'notifications') return 'data: {"jsonrpc":"2.0","method":"notifications/flood","params":{"n":"0123456789"}}\n\n';
    return `data: {"jsonrpc":"2.0","id":"sampling-${nextPing++}","method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}\n\n`;
  };

  async function flood(kind: 'get' | 'call', response: ServerResponse, spec: { flood: Flood; events: number }, tail: string): Promise<void> {
    const stream: FloodStream = { kind, written: 0, cutByClient: false };
    let closed = false;
    response.on('close', () => {
      closed = true;
    });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const deadline = Date.now() + FLOOD_MS;
    while (!closed && stream.written < spec.events && Date.now() < deadline) {
      const count = Math.min(BATCH_EVENTS, spec.events - stream.written);
      const ok = response.write(Array.from({ length: count }, () => event(spec.flood)).join(''));
      stream.written += count;
      // Yield to the event loop every batch, so the client's close is seen while it happens; a
      // client that stops reading holds the flood until the deadline at most.
      await new Promise<void>((resolve) => (ok ? setImmediate(resolve) : settleOn(response, ['drain', 'close'], deadline, resolve)));
    }
    stream.cutByClient = closed;
    if (!closed) response.end(tail);
    ended.push(stream);
    for (const waiter of waiters.filter((w) => w.kind === kind)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(stream);
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET') {
      if (options.get === undefined || !(request.headers.accept ?? '').includes('text/event-stream')) {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      await flood('get', response, options.get, options.get.flood === 'unsupported-requests' ? ping() : '');
      return;
    }
    if (request.method !== 'POST' || !(request.headers['content-type'] ?? '').startsWith('application/json')) {
      response.writeHead(405, { allow: 'POST, GET' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: unknown; params?: { protocolVersion?: string }; error?: { code?: unknown } };
    if (message.method === undefined) {
      // A reply to one of our requests: held open, never answered, until the client gives up.
      replies++;
      if (message.error?.code === -32601) refusals++;
      openReplies++;
      peakOpenReplies = Math.max(peakOpenReplies, openReplies);
      const timer = setTimeout(() => response.writeHead(202).end(), FLOOD_MS);
      response.on('close', () => {
        clearTimeout(timer);
        openReplies--;
      });
      return;
    }
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    if (message.method === 'initialize') {
      reply({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'flooding', version: '1.0.0' } });
    } else if (message.method === 'tools/list') {
      await options.holdList;
      reply({ tools: [{ name: 'search', inputSchema: { type: 'object' } }] });
    } else if (message.method === 'tools/call' && options.call === undefined) {
      reply({ content: [{ type: 'text', text: 'fine' }] });
    } else if (message.method === 'tools/call' && options.call !== undefined) {
      const result = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'flooded' }] } });
      await flood('call', response, options.call, options.call.thenResult ? `event: message\ndata: ${result}\n\n` : '');
    } else {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    replies: () => replies,
    refusals: () => refusals,
    peakOpenReplies: () => peakOpenReplies,
    ended,
    floodEnded: (kind) => {
      const done = ended.find((stream) => stream.kind === kind);
      return done !== undefined ? Promise.resolve(done) : new Promise((resolve) => waiters.push({ kind, resolve }));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function settleOn(response: ServerResponse, events: readonly string[], deadline: number, resolve: () => void): void {
  const done = (): void => {
    clearTimeout(timer);
    for (const name of events) response.off(name, done);
    resolve();
  };
  const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
  for (const name of events) response.on(name, done);
}
