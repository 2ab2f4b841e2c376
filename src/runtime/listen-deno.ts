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

// Deno 2.9 prints a one-time deprecation warning through console.warn once a handler has read
// `request.signal` and answered successfully. The signal is the only way to see a client
// disconnect (docs/design/remote.md §1: a disconnect aborts the provider request), while stderr must carry
// only operator lines (docs/design/remote.md §1.3). So exactly that warning is dropped; anything else
// passes through unchanged.
const LEGACY_ABORT_WARNING = 'Deno.serve: request.signal aborts on successful responses';
let warningFilterInstalled = false;

function dropLegacyAbortWarning(): void {
  if (warningFilterInstalled) return;
  warningFilterInstalled = true;
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]): void => {
    if (typeof args[0] === 'string' && args[0].startsWith(LEGACY_ABORT_WARNING)) return;
    warn(...args);
  };
}

/**
 * Starts `Deno.serve` for `handler`.
 *
 * @see listen.ts for the contract.
 */
export const listenDeno: ListenFunction = async (handler: FetchHandler, options: ListenOptions): Promise<Listener> => {
  const deno = (globalThis as unknown as { Deno: DenoGlobal }).Deno;
  dropLegacyAbortWarning();
  let active = 0;
  const idleWaiters: Array<() => void> = [];
  const server = deno.serve(
    {
      hostname: bareHostname(options.hostname),
      port: options.port,
      // The default onListen prints "Listening on …"; stdout carries only our own line.
      onListen: () => {},
      onError: () => new Response(null, { status: 500 }),
    },
    async (request) => {
      active++;
      try {
        return await handler(request);
      } finally {
        active--;
        if (active === 0) for (const wake of idleWaiters.splice(0)) wake();
      }
    },
  );
  const handlersDone = (): Promise<void> => (active === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)));
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(options.hostname)}:${server.addr.port}`,
    port: server.addr.port,
    // shutdown(): stop accepting, wait for in-flight requests to finish. Deno's shutdown also
    // waits for a client that answered but keeps its connection open with an unsent body; once
    // every handler has returned, such a connection gets CONNECTION_LINGER_MS, no more.
    close: () => (closing ??= Promise.race([server.shutdown().then(() => server.finished), handlersDone().then(() => new Promise<void>((resolve) => setTimeout(resolve, CONNECTION_LINGER_MS)))])),
  };
};

/** How long a closing listener waits for clients' connections after the last handler returned, in ms. */
const CONNECTION_LINGER_MS = 1000;
