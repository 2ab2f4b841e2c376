// Bun routing. Bun's fetch reads HTTP(S)_PROXY and NO_PROXY from the process environment on
// every call (it proxies loopback too, and applies NO_PROXY even to an explicit `proxy`
// option), so the environment it sees is pinned for the duration of the synchronous call.
import process from 'node:process';
import type { RuntimeFetch } from './runtime-fetch.ts';

/** Bun's extension of `RequestInit`: an explicit proxy URL (credentials allowed). */
interface BunRequestInit extends RequestInit {
  proxy?: string;
}

const NO_PROXY_NAMES = ['NO_PROXY', 'no_proxy'] as const;

/**
 * Runs `call` with `NO_PROXY`/`no_proxy` set to `value` (or removed for `undefined`) and
 * restores both before returning. Bun reads them synchronously inside `fetch()`, so the
 * override never outlives the call and no child process or later request can see it.
 */
function withNoProxy<T>(value: string | undefined, call: () => T): T {
  const env = process.env;
  const saved = NO_PROXY_NAMES.map((name) => [name, Object.hasOwn(env, name) ? env[name] : undefined] as const);
  try {
    for (const name of NO_PROXY_NAMES) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    return call();
  } finally {
    for (const [name, previous] of saved) {
      if (previous === undefined) delete env[name];
      else env[name] = previous;
    }
  }
}

/**
 * Calls Bun's `fetch` routed by `decision`.
 *
 * `direct`: `NO_PROXY=*` for the call, so no environment proxy applies (not even to
 * loopback). `proxy`: the `proxy` option with `NO_PROXY` removed for the call, because
 * `decideProxy` has already applied `NO_PROXY` by the product's rules.
 *
 * @see runtime-fetch.ts for the contract; config.md §12 ("Runtime behaviour")
 */
export const fetchBun: RuntimeFetch = (url, init, decision) => {
  if (decision.mode === 'direct') return withNoProxy('*', () => fetch(url, init));
  const routed: BunRequestInit = { ...init, proxy: decision.proxyUrl };
  return withNoProxy(undefined, () => fetch(url, routed));
};
