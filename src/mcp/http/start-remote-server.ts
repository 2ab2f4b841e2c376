// Binding the remote handler to a socket and stopping it gracefully (docs/design/remote.md §1.3 step 5,
// §1.9). The socket itself is the runtime's (src/runtime/listen.ts).
import { listen } from '../../runtime/listen.ts';
import type { Listener } from '../../runtime/listen-types.ts';
import { allowedHosts } from './allowed-hosts.ts';
import { withOwnOrigins } from './own-origins.ts';
import { createRemoteMcpHandler, MCP_PATH, type RemoteMcpHandler, type RemoteMcpHandlerOptions } from './remote-mcp-handler.ts';
import { SHUTDOWN_GRACE_MS } from './remote-limits.ts';

// After the grace period the remaining calls are aborted; this long is left for their
// answers to go out before the process ends anyway.
const ABORT_SETTLE_MS = 1000;

/** Where and what to serve. */
export interface RemoteServerOptions extends Omit<RemoteMcpHandlerOptions, 'allowedHosts'> {
  /** The `--listen` host in URL form (`127.0.0.1`, `localhost`, `[::1]`). */
  readonly listenHost: string;
  /** The `--listen` port; 0 binds a free one. */
  readonly port: number;
  /** `--resource` when given with `--insecure-no-auth` (adds an allowed Host); with auth it is `auth.resource`. */
  readonly resource: string | undefined;
  /** `--allowed-host` values (docs/design/remote.md §1.5 step 1). */
  readonly extraHosts?: readonly string[];
}

/** A running remote server. */
export interface RemoteServer {
  /** The MCP endpoint URL with the bound port, e.g. `http://127.0.0.1:8788/mcp`. */
  readonly url: string;
  /** The bound TCP port. */
  readonly port: number;
  /** The handler (for its `active` count). */
  readonly handler: RemoteMcpHandler;
  /**
   * Stops accepting connections, lets requests in progress finish for up to `graceMs`, then
   * aborts the rest (and their provider requests). Calling it again returns the same promise.
   */
  shutdown(graceMs?: number): Promise<void>;
}

/** The listen address could not be bound. */
export class ListenFailedError extends Error {
  override readonly name = 'ListenFailedError';

  constructor(options: { cause?: unknown } = {}) {
    super('The listen address could not be bound.', options);
  }
}

/**
 * Binds the remote handler.
 *
 * @param options Handler options plus the listen address and the optional `--resource`.
 * @returns The running server; the `Host` allow-list uses the real bound port.
 * @throws {ListenFailedError} When the address cannot be bound (in use, not available, denied).
 * @see docs/design/remote.md §1.3 step 5, §1.5 step 1, §1.9
 */
export async function startRemoteServer(options: RemoteServerOptions): Promise<RemoteServer> {
  // The Host allow-list needs the bound port, known only once listening; the socket delivers
  // no request before this function's continuation has installed the handler.
  let handler: RemoteMcpHandler | undefined;
  let listener: Listener;
  try {
    listener = await listen((request) => (handler === undefined ? Promise.resolve(new Response(null, { status: 503 })) : handler.fetch(request)), {
      hostname: options.listenHost,
      port: options.port,
    });
  } catch (error) {
    throw new ListenFailedError({ cause: error });
  }
  const ready = createRemoteMcpHandler({
    ...options,
    allowedHosts: allowedHosts(options.listenHost, listener.port, options.resource, options.extraHosts),
    allowedOrigins: withOwnOrigins(options.allowedOrigins, options.listenHost, listener.port, options.resource, options.auth !== undefined),
  });
  handler = ready;
  let stopping: Promise<void> | undefined;
  return {
    url: `${listener.url}${MCP_PATH}`,
    port: listener.port,
    handler: ready,
    shutdown: (graceMs = SHUTDOWN_GRACE_MS) => (stopping ??= stop(listener, ready, graceMs)),
  };
}

async function stop(listener: Listener, handler: RemoteMcpHandler, graceMs: number): Promise<void> {
  const drained = Promise.all([listener.close(), handler.whenIdle()]).then(() => true);
  if (await within(drained, graceMs)) return;
  handler.abortAll();
  await within(drained, ABORT_SETTLE_MS);
}

// True when `promise` settles within `ms`; the timer never outlives the race.
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
