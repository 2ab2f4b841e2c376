// Node.js routing: global fetch, never a proxy (docs/design/config.md §12: Node.js offers no proxy
// support usable here, so decideProxy refuses an applicable proxy before any request).
// NODE_TLS_REJECT_UNAUTHORIZED=0 would make Node's fetch accept any certificate (and print a
// warning on stderr, which a Hook must never do); Node's fetch has no per-request option to
// keep verification on, so an https request is refused instead, as Deno and the executable
// fail closed on an untrusted certificate. NODE_EXTRA_CA_CERTS is the supported way to trust a CA.
// Each request gets its own undici Agent (docs/design/providers.md §1.4): Node's bundled undici,
// when a request is aborted on the shared pool, re-queues it, opens a fresh connection for it
// and leaves that idle for 4 s; a per-request Agent is destroyed on abort, so nothing stays open.
import process from 'node:process';
import { TLS_CHECKS_DISABLED_CODE } from './fetch-failure.ts';
import type { RuntimeFetch } from './fetch-types.ts';
import { ownEnv } from '../util/own-env.ts';

/** True when the environment turns Node's certificate verification off. */
function certificateChecksDisabled(): boolean {
  return ownEnv(process.env, 'NODE_TLS_REJECT_UNAUTHORIZED') === '0';
}

/** Node's debug sections that log network targets (host, port) to stderr. */
const NETWORK_DEBUG_SECTIONS = ['http', 'http2', 'https', 'net', 'tls', 'fetch', 'undici', 'dns'];

/**
 * True when NODE_DEBUG turns on a section that logs network targets: named directly, or
 * through Node's `*` wildcard (`*`, `http*`). Such a log would write the provider's host and
 * port to stderr, also from a Hook, so nothing is sent (docs/design/config.md §12).
 */
export function networkDebugEnabled(value: string | undefined = ownEnv(process.env, 'NODE_DEBUG')): boolean {
  if (value === undefined) return false;
  return value
    .split(/[\s,]+/)
    .filter((section) => section !== '')
    .some((section) => {
      const pattern = new RegExp(
        `^${section
          .toLowerCase()
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replaceAll('*', '.*')}$`,
      );
      return NETWORK_DEBUG_SECTIONS.some((name) => pattern.test(name));
    });
}

/** The part of undici's `Agent` used here. */
interface UndiciAgent {
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** The key under which undici keeps the global dispatcher (shared by every undici copy). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * The `Agent` class of the undici bundled in Node.js, read from the global dispatcher that its
 * `fetch` installs; undefined when the global dispatcher is anything else (a proxying agent
 * would route through a proxy), and the request then uses the global pool as before.
 */
function bundledAgentClass(): (new () => UndiciAgent) | undefined {
  const dispatcher: unknown = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
  if (typeof dispatcher !== 'object' || dispatcher === null) return undefined;
  const constructor: unknown = dispatcher.constructor;
  return typeof constructor === 'function' && constructor.name === 'Agent' ? (constructor as new () => UndiciAgent) : undefined;
}

/**
 * Sends the request on its own Agent: destroyed at once when the signal aborts (its socket is
 * closed and no connection is reopened), closed once the response is done otherwise (the
 * connection closes after the body ends; no keep-alive reuse across requests on Node.js).
 */
async function fetchOwnConnection(url: string, init: RequestInit, Agent: new () => UndiciAgent): Promise<Response> {
  const agent = new Agent();
  const signal = init.signal ?? undefined;
  const destroy = (): void => void agent.destroy().catch(() => undefined);
  signal?.addEventListener('abort', destroy, { once: true });
  const release = (): void => signal?.removeEventListener('abort', destroy);
  try {
    const response = await fetch(url, { ...init, dispatcher: agent } as RequestInit);
    // Graceful: undici closes the connection once this response's body has ended.
    void agent.close().then(release, release);
    return response;
  } catch (error) {
    release();
    destroy();
    throw error;
  }
}

/**
 * Calls the global `fetch` directly, on a connection of its own (fetchOwnConnection).
 *
 * @throws {Error} For a `proxy` decision, which `decideProxy` never returns on Node.js, and
 *   for an `https:` URL while NODE_TLS_REJECT_UNAUTHORIZED is `0`, and while NODE_DEBUG
 *   names a network section (networkDebugEnabled); nothing is sent.
 * @see runtime-fetch.ts for the contract.
 */
export const fetchNode: RuntimeFetch = (url, init, decision) => {
  if (decision.mode !== 'direct') return Promise.reject(new Error('Node.js cannot route through a proxy.'));
  if (networkDebugEnabled()) return Promise.reject(new Error('NODE_DEBUG would log the request target.'));
  if (url.startsWith('https:') && certificateChecksDisabled()) {
    return Promise.reject(Object.assign(new Error('Certificate verification is disabled by NODE_TLS_REJECT_UNAUTHORIZED.'), { code: TLS_CHECKS_DISABLED_CODE }));
  }
  const Agent = bundledAgentClass();
  return Agent === undefined ? fetch(url, init) : fetchOwnConnection(url, init, Agent);
};
