// Listening under Deno: Deno.serve, reached through globalThis so src/ type-checks without Deno types.
import { bareHostname, urlHost, type FetchHandler, type ListenFunction, type ListenOptions, type Listener } from './listen-types.ts';

interface DenoServer {
  readonly addr: { readonly port: number };
  shutdown(): Promise<void>;
  readonly finished: Promise<void>;
}

interface DenoServeOptions {
  hostname: string;
  port: number;
  onListen(address: unknown): void;
  onError(error: unknown): Response;
}

interface DenoGlobal {
  serve(options: DenoServeOptions, handler: (request: Request) => Promise<Response>): DenoServer;
}

/**
 * Starts `Deno.serve` for `handler`.
 *
 * @see listen.ts for the contract.
 */
export const listenDeno: ListenFunction = async (handler: FetchHandler, options: ListenOptions): Promise<Listener> => {
  const deno = (globalThis as unknown as { Deno: DenoGlobal }).Deno;
  const server = deno.serve(
    {
      hostname: bareHostname(options.hostname),
      port: options.port,
      // The default onListen prints "Listening on …"; stdout carries only our own line.
      onListen: () => {},
      onError: () => new Response(null, { status: 500 }),
    },
    (request) => handler(request),
  );
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(options.hostname)}:${server.addr.port}`,
    port: server.addr.port,
    // shutdown(): stop accepting, wait for in-flight requests to finish.
    close: () => (closing ??= server.shutdown().then(() => server.finished)),
  };
};
