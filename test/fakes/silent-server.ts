// A loopback TCP server that accepts and never answers, so the client's own timeout decides the
// outcome (the `timeout` failure class). close() destroys the accepted sockets first.
import { type AddressInfo, createServer, type Socket } from 'node:net';

/** A listening silent server on 127.0.0.1. */
export interface SilentServer {
  readonly port: number;
  close(): Promise<void>;
}

/** A TCP server that never answers: the client's timeout decides. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
