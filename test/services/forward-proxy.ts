// A tiny HTTP forward proxy on 127.0.0.1 for the proxy tests (config.md §12, §14): it records
// each absolute-form request line and each CONNECT, forwards absolute-form requests for mapped
// hosts to a loopback upstream, tunnels CONNECT for mapped hosts to a loopback port, and can
// stall instead of answering. It never resolves a name in DNS.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request line the proxy received. */
export interface ProxiedRequest {
  readonly method: string;
  /** The request-target as sent: absolute form (`http://context.test:8080/search`) or `host:port` for CONNECT. */
  readonly target: string;
  /** Lower-case header names (the `proxy-authorization` header included, if any). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A running forward proxy. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Every request line in arrival order. */
  readonly requests: ProxiedRequest[];
  /** Destroys open connections and stops listening. */
  close(): Promise<void>;
}

/** Options of {@link startForwardProxy}. */
export interface ForwardProxyOptions {
  /**
   * `host:port` of an absolute-form target → loopback origin that answers it
   * (`{"context.test:8080": "http://127.0.0.1:41234"}`). Unmapped targets get 502.
   */
  readonly upstreams?: Readonly<Record<string, string>>;
  /**
   * `host:port` of a CONNECT target → loopback port the tunnel is opened to
   * (`{"context.test:443": 41235}`, typically a TLS server). Unmapped CONNECTs get 502.
   */
  readonly tunnels?: Readonly<Record<string, number>>;
  /**
   * Record every request line and CONNECT, then never answer (a stalled proxy); the
   * connections stay open until `close()`.
   */
  readonly stall?: boolean;
}

/**
 * Starts the proxy. CONNECT is recorded, then tunnelled when its target is in `tunnels` and
 * refused with 502 otherwise; with `stall`, nothing is ever answered.
 *
 * @see config.md §14 ("Proxy")
 */
export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', target: req.url ?? '', headers: { ...req.headers } });
    if (options.stall === true) return;
    forward(req, res, options.upstreams ?? {});
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    requests.push({ method: 'CONNECT', target: req.url ?? '', headers: { ...req.headers } });
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (options.stall === true) return;
    const port = options.tunnels?.[req.url ?? ''];
    if (port === undefined) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    tunnel(socket, head, port, sockets);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward(req: IncomingMessage, res: ServerResponse, upstreams: Readonly<Record<string, string>>): void {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const upstream = upstreams[target.host];
  if (upstream === undefined) {
    res.writeHead(502).end();
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const outbound = httpRequest(new URL(`${target.pathname}${target.search}`, upstream), { method: req.method ?? 'GET', headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  outbound.on('error', () => res.destroy());
  req.pipe(outbound);
}

function tunnel(client: Socket, head: Buffer, port: number, sockets: Set<Socket>): void {
  const upstream = connect(port, '127.0.0.1', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.byteLength > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  sockets.add(upstream);
  upstream.on('close', () => {
    sockets.delete(upstream);
    client.destroy();
  });
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
}
