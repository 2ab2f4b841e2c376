// The types every fetch path shares: how one request target is reached, and the per-runtime fetch
// that honours it (docs/design/config.md §12). Types only; runtime-fetch.ts and fetch-*.ts import them.

/** How one request target is reached. `proxyUrl` may carry credentials: never print it. */
export type ProxyDecision =
  | { readonly mode: 'direct' }
  | {
      readonly mode: 'proxy';
      readonly proxyUrl: string;
      /** The spelling of the variable that applied (`https_proxy`, `HTTPS_PROXY` …), for operator hints. */
      readonly variable?: string;
    };

/** What each per-runtime module exports: `fetch` with the route fixed by `decision`. */
export type RuntimeFetch = (url: string, init: RequestInit, decision: ProxyDecision) => Promise<Response>;
