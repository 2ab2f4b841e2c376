// Test helper: a hostile Streamable HTTP MCP server on loopback (node:http, so every TCP
// connection is counted). `initialize` and `tools/list` are answered normally (JSON); every
// `tools/call` gets the hostile behaviour. Writing stops as soon as the client closes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What every `tools/call` gets. */
export type HostileMode =
  /** One SSE event that never ends, growing by 1 MiB per write. */
  | 'growing-event'
  /** A JSON result of `bytes` bytes (default 100 MB), streamed. */
  | 'huge-json'
  /** Never answered; the request stays open until the client closes it. */
  | 'stall';

export interface HostileServer {
  readonly url: string;
  /** TCP connections open right now. */
  openConnections(): number;
  /** Number of `tools/call` requests received so far. */
  calls(): number;
  /** Resolves once `count` calls have been received. */
  waitForCalls(count: number): Promise<void>;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;

/**
 * Starts the server.
 *
 * @param mode The behaviour of `tools/call`.
 * @param bytes For `huge-json`: the result size in bytes.
 */
export async function startHostileServer(mode: HostileMode, bytes = 100 * MIB): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  let calls = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    if (message.method === 'initialize') {
      reply({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } });
      return;
    }
    if (message.method === 'tools/list') {
      reply({ tools: [{ name: 'search', inputSchema: { type: 'object' } }] });
      return;
    }
    if (message.method !== 'tools/call') {
      reply({});
      return;
    }
    calls++;
    for (const waiter of waiters.filter((w) => calls >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (mode === 'stall') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      return;
    }
    if (mode === 'growing-event') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      await pump(response, 'event: message\ndata: {"jsonrpc":"2.0","id":' + JSON.stringify(message.id) + ',"result":{"content":[{"type":"text","text":"', Infinity);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`;
    if (await pump(response, head, bytes)) response.end('"}]}}');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    openConnections: () => sockets.size,
    calls: () => calls,
    waitForCalls: (count) => (calls >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `head`, then 1 MiB blocks of `x` until `total` bytes or the client closed; true when all was written. */
async function pump(response: ServerResponse, head: string, total: number): Promise<boolean> {
  const block = Buffer.alloc(MIB, 'x');
  let written = 0;
  let closed = false;
  response.on('close', () => {
    closed = true;
  });
  response.write(head);
  while (!closed && written < total) {
    const size = Math.min(MIB, total - written);
    const ok = response.write(size === MIB ? block : block.subarray(0, size));
    written += size;
    if (!ok)
      await new Promise<void>((resolve) => {
        const done = (): void => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
  }
  return !closed;
}
