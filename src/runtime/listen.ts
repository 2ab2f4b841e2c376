// Binds a web-standard handler to a socket on whichever runtime is executing. The runtime's
// module is loaded with import() so the other runtimes' APIs are never evaluated.
import { RUNTIME } from './runtime.ts';
import type { FetchHandler, ListenOptions, Listener } from './listen-types.ts';

/**
 * Starts an HTTP/1.1 server for `handler`.
 *
 * Bun uses `Bun.serve`, Deno `Deno.serve`, Node.js `node:http` adapted to web `Request` and
 * `Response` objects. Handler exceptions become an empty 500 response; the runtime never
 * prints to stdout or stderr.
 *
 * @param handler Answers each request; its exceptions never reach the client's body.
 * @param options Host name (IPv6 with or without brackets) and TCP port (0 picks a free one).
 * @returns The listener with its base URL, bound port and graceful `close()`.
 * @throws {Error} When the socket cannot be bound (address in use, address not available,
 *   permission denied); the error comes from the runtime.
 * @see docs/design/remote.md §1 (serve --http), docs/design/providers.md §8.2 (corpus serve)
 */
export async function listen(handler: FetchHandler, options: ListenOptions): Promise<Listener> {
  switch (RUNTIME) {
    case 'bun':
      return (await import('./listen-bun.ts')).listenBun(handler, options);
    case 'deno':
      return (await import('./listen-deno.ts')).listenDeno(handler, options);
    case 'node':
      return (await import('./listen-node.ts')).listenNode(handler, options);
  }
}

/**
 * Why a socket could not be bound, from the runtime's error code (Bun and Node.js set
 * `code`; Deno sets both `code` and the error class name). Never reads the message.
 *
 * @param error What {@link listen} threw.
 * @returns `address in use`, `permission denied`, `cannot assign address`, `host name not
 *   found`, or `unknown cause`.
 * @see docs/design/remote.md §1.3; docs/design/providers.md §8.2
 */
export function listenFailureCause(error: unknown): string {
  const field = (name: string): string => (error !== null && typeof error === 'object' && name in error ? String((error as Record<string, unknown>)[name]) : '');
  const code = field('code');
  const name = field('name');
  if (code === 'EADDRINUSE' || name === 'AddrInUse') return 'address in use';
  if (code === 'EACCES' || code === 'EPERM' || name === 'PermissionDenied' || name === 'NotCapable') return 'permission denied';
  if (code === 'EADDRNOTAVAIL' || name === 'AddrNotAvailable') return 'cannot assign address';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'host name not found';
  return 'unknown cause';
}
