// Sends one fetch routed as the proxy decision says, on whichever runtime is executing. The
// runtime's module is loaded with import() so the other runtimes' APIs are never evaluated.
import type { ProxyDecision, RuntimeFetch } from './fetch-types.ts';
import { RUNTIME } from './runtime.ts';

let loaded: Promise<RuntimeFetch> | undefined;

function load(): Promise<RuntimeFetch> {
  switch (RUNTIME) {
    case 'bun':
      return import('./fetch-bun.ts').then((module) => module.fetchBun);
    case 'deno':
      return import('./fetch-deno.ts').then((module) => module.fetchDeno);
    case 'node':
      return import('./fetch-node.ts').then((module) => module.fetchNode);
  }
}

let prepared: Promise<void> | undefined;

/**
 * Does the runtime's one-time fetch start-up: loads the routing module and, on Node.js, runs
 * undici's lazy initialisation with one `data:` fetch (nothing leaves the process). Node.js
 * spent 200–900 ms of the first request's timeout on that work (issue 18); callers await this
 * before arming an operation timeout, so the timer starts when the request is sent
 * (docs/design/providers.md §1.4). Later calls return the same settled promise at once.
 *
 * @returns Resolves when done; never rejects (a failure here shows up on the real request).
 */
export function prepareRuntimeFetch(): Promise<void> {
  prepared ??= (async () => {
    try {
      loaded ??= load();
      await loaded;
      if (RUNTIME === 'node') await (await fetch('data:,')).arrayBuffer();
    } catch {
      // The request itself reports any failure.
    }
  })();
  return prepared;
}

/**
 * Calls the runtime's `fetch` exactly once, routed by `decision`.
 *
 * A `direct` decision goes direct even when proxy variables are set (Bun and Deno read them
 * on their own); a `proxy` decision goes through `proxyUrl` whatever `NO_PROXY` says, because
 * `providers/proxy.ts` has already applied it. Node.js never proxies: a `proxy` decision there
 * is a programmer error, since `decideProxy` refuses it first.
 *
 * @param url Absolute request URL.
 * @param init The request init, passed on unchanged apart from the routing.
 * @param decision The one decision for this target from `decideProxy`.
 * @returns The runtime's response.
 * @throws Whatever the runtime's `fetch` rejects with (network error, abort, proxy failure).
 * @see docs/design/config.md §12 ("Runtime behaviour")
 */
export async function runtimeFetch(url: string, init: RequestInit, decision: ProxyDecision): Promise<Response> {
  loaded ??= load();
  const fetchRouted = await loaded;
  return fetchRouted(url, init, decision);
}
