// Starts the reference service: index opened read-only, handler bound to a socket; closing
// stops accepting, finishes requests in progress, then closes the index (docs/design/providers.md §8.2).
import { listen } from '../../runtime/listen.ts';
import { type Listener, urlHost } from '../../runtime/listen-types.ts';
import { openCorpusIndex } from './corpus-index.ts';
import type { ListenAddress } from './listen-address.ts';
import { createSearchHandler } from './search-handler.ts';

/** How to run the service. */
export interface CorpusServiceOptions {
  /** The `--db` path, as given. */
  readonly dbPath: string;
  /** Directory a relative `dbPath` starts from. */
  readonly cwd: string;
  /** The validated credential clients must send as `Bearer <token>`. */
  readonly token: string;
  /** Where to listen. */
  readonly address: ListenAddress;
}

/** Why the service did not start. */
export class ListenError extends Error {
  override readonly name = 'ListenError';
  /** The address as `host:port` (`[IPv6]:port`), for the operator line. */
  readonly address: string;

  constructor(address: ListenAddress, options: { cause?: unknown } = {}) {
    super('The service cannot listen on the requested address.', options);
    this.address = `${urlHost(address.hostname)}:${address.port}`;
  }
}

/**
 * Opens the index and starts listening.
 *
 * @param options Index path, token and address.
 * @returns The listener: base URL, bound port, and `close()` that also closes the index.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `index-unreadable` when the index cannot be opened.
 * @throws {ListenError} When the address cannot be bound.
 * @see docs/design/providers.md §8.2
 */
export async function startCorpusService(options: CorpusServiceOptions): Promise<Listener> {
  const index = await openCorpusIndex(options.dbPath, options.cwd);
  const handler = createSearchHandler({ token: options.token, search: (query, limit) => index.search(query, limit) });
  let listener: Listener;
  try {
    listener = await listen(handler, options.address);
  } catch (error) {
    index.close();
    throw new ListenError(options.address, { cause: error });
  }
  let closing: Promise<void> | undefined;
  return {
    url: listener.url,
    port: listener.port,
    close: () => (closing ??= listener.close().finally(() => index.close())),
  };
}
