// Starts the reference service: index opened read-only, handler bound to a socket; closing
// stops accepting, finishes requests in progress, then closes the index (docs/design/providers.md §8.2).
import { listen } from '../../runtime/listen.ts';
import { type Listener, urlHost } from '../../runtime/listen-types.ts';
import { listenerAllowedHosts } from '../../util/allowed-hosts.ts';
import { openReloadingIndex } from './reloading-index.ts';
import type { ListenAddress } from './listen-address.ts';
import type { CorpusRequestLogEntry } from './corpus-request-log.ts';
import { createServiceHandler } from './service-handler.ts';

/** How to run the service. */
export interface CorpusServiceOptions {
  /** The `--db` path, as given. */
  readonly dbPath: string;
  /** Directory a relative `dbPath` starts from. */
  readonly cwd: string;
  /** The validated credential clients must send as `Bearer <token>`, or every accepted one. */
  readonly token: string | readonly string[];
  /** Receives one entry per answered request (log and metrics, docs/design/providers.md §8.2a). */
  readonly observe?: (entry: CorpusRequestLogEntry, seconds: number) => void;
  /** Where to listen. */
  readonly address: ListenAddress;
  /** `--allowed-host` values, validated (docs/design/providers.md §8.2 row 0b). */
  readonly allowedHosts?: readonly string[];
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
 * @returns The service: base URL, bound port, `close()` that also closes the index, and
 *   `reload()` that re-opens it.
 * @throws {SqliteUnavailableError} On a runtime without SQLite.
 * @throws {CorpusError} `index-unreadable` when the index cannot be opened.
 * @throws {ListenError} When the address cannot be bound.
 * @see docs/design/providers.md §8.2
 */
/** A running service. */
export interface CorpusService extends Listener {
  /**
   * Re-opens the index at `--db` (SIGHUP, docs/design/providers.md §8.2a).
   *
   * @throws {CorpusError} `index-unreadable`; the old index keeps answering.
   */
  reload(): Promise<void>;
  /** Requests being answered now. */
  readonly active: number;
}

export async function startCorpusService(options: CorpusServiceOptions): Promise<CorpusService> {
  // A re-index renames a new file into place; the service follows it (docs/design/providers.md §8.2).
  const index = await openReloadingIndex(options.dbPath, options.cwd);
  const stopping = new AbortController();
  // Empty until the port is bound (row 0b): nothing is allowed before.
  let allowed: ReadonlySet<string> = new Set();
  const handler = createServiceHandler({
    tokens: typeof options.token === 'string' ? [options.token] : options.token,
    search: (query, limit) => index.search(query, limit),
    signal: stopping.signal,
    notReadyReason: async () => (stopping.signal.aborted ? 'index-closed' : await index.notReadyReason()),
    allowedHosts: () => allowed,
    ...(options.observe === undefined ? {} : { observe: options.observe }),
  });
  let listener: Listener;
  try {
    listener = await listen((request) => handler.fetch(request), options.address);
  } catch (error) {
    index.close();
    throw new ListenError(options.address, { cause: error });
  }
  allowed = listenerAllowedHosts(options.address.hostname, listener.port, options.allowedHosts);
  let closing: Promise<void> | undefined;
  return {
    url: listener.url,
    port: listener.port,
    // Body reads still waiting end at once (408); searches run to completion.
    close: () => (closing ??= (stopping.abort(), listener.close().finally(() => index.close()))),
    reload: () => index.reopen(),
    get active() {
      return handler.active;
    },
  };
}
