// A TLS front for a loopback fake: it terminates TLS on 127.0.0.1 with a given certificate
// and pipes the plain bytes to the fake's port, so HTTPS provider tests keep the fake's strict
// request recording. It counts TCP connections and failed handshakes.
import { connect, type Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { ServerIdentity } from './test-certificates.ts';

/** A running TLS front. */
export interface TlsTerminator {
  readonly port: number;
  /** `https://localhost:<port>`: the name the certificates are issued for. */
  readonly origin: string;
  /** TCP connections accepted so far. */
  readonly connections: () => number;
  /** Handshakes that failed (the client rejected the certificate, or spoke no TLS). */
  readonly handshakeFailures: () => number;
  /** Handshakes that completed. */
  readonly secureConnections: () => number;
  /** Destroys open connections and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a TLS server on 127.0.0.1, port 0, that forwards every connection to
 * `127.0.0.1:<upstreamPort>`.
 *
 * @param identity The key and certificate to present.
 * @param upstreamPort The plain-HTTP fake behind it.
 */
export async function startTlsTerminator(identity: ServerIdentity, upstreamPort: number): Promise<TlsTerminator> {
  let connections = 0;
  let failures = 0;
  let secure = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = createServer({ key: identity.key, cert: identity.cert }, (tlsSocket: TLSSocket) => {
    secure += 1;
    track(tlsSocket);
    const upstream = connect(upstreamPort, '127.0.0.1');
    track(upstream);
    tlsSocket.pipe(upstream);
    upstream.pipe(tlsSocket);
    upstream.on('close', () => tlsSocket.destroy());
    tlsSocket.on('close', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    track(socket);
  });
  server.on('tlsClientError', () => {
    failures += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `https://localhost:${port}`,
    connections: () => connections,
    handshakeFailures: () => failures,
    secureConnections: () => secure,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
