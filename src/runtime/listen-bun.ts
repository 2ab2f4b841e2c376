// Listening under Bun: Bun.serve, reached through globalThis so src/ type-checks without bun-types.
import { bareHostname, urlHost, type FetchHandler, type ListenFunction, type ListenOptions, type Listener } from './listen-types.ts';

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunServeOptions {
  hostname: string;
  port: number;
  development: boolean;
  reusePort: boolean;
  fetch(request: Request): Promise<Response>;
  error(error: unknown): Response;
}

interface BunGlobal {
  serve(options: BunServeOptions): BunServer;
}

/**
 * Starts `Bun.serve` for `handler`.
 *
 * @see listen.ts for the contract.
 */
export const listenBun: ListenFunction = async (handler: FetchHandler, options: ListenOptions): Promise<Listener> => {
  const bun = (globalThis as unknown as { Bun: BunGlobal }).Bun;
  const server = bun.serve({
    hostname: bareHostname(options.hostname),
    port: options.port,
    // development: false keeps Bun's HTML error page (with stack traces) away from clients.
    development: false,
    // With development: false Bun turns SO_REUSEPORT on, so a second server would silently
    // share a port that is in use instead of failing with EADDRINUSE.
    reusePort: false,
    fetch: (request) => handler(request),
    error: () => new Response(null, { status: 500 }),
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(options.hostname)}:${server.port}`,
    port: server.port,
    // stop(false): stop accepting, let in-flight requests finish.
    close: () => (closing ??= Promise.resolve(server.stop(false))),
  };
};
