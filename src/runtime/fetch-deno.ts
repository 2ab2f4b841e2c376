// Deno routing. Deno reads the proxy variables itself when an HTTP client is created (it
// ignores NO_PROXY "*" and applies NO_PROXY even to an explicit proxy), so each route gets its
// own client, created with those variables hidden: a direct one, or one per proxy URL.
import type { RuntimeFetch } from './fetch-types.ts';

/** The subset of `Deno` used here, reached through `globalThis` (no Deno types in src/). */
interface DenoGlobal {
  createHttpClient(options: { proxy?: { url: string } }): DenoHttpClient;
  env: {
    get(name: string): string | undefined;
    set(name: string, value: string): void;
    delete(name: string): void;
  };
}

/** An opaque `Deno.HttpClient`, kept for the life of the process. */
interface DenoHttpClient {
  close(): void;
}

/** Deno's extension of `RequestInit`. */
interface DenoRequestInit extends RequestInit {
  client?: DenoHttpClient;
}

/** Every variable Deno reads proxy settings from, NO_PROXY included. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'] as const;

let directClient: DenoHttpClient | undefined;
const proxyClients = new Map<string, DenoHttpClient>();

function deno(): DenoGlobal {
  return (globalThis as unknown as { Deno: DenoGlobal }).Deno;
}

/**
 * Creates a client that sees none of the proxy variables: they are hidden while the
 * (synchronous) constructor reads them, then restored, so child processes and other code see
 * them unchanged. Without this, a direct client would use HTTP(S)_PROXY, and a proxied
 * client would still skip its explicit proxy for hosts in NO_PROXY, which the product's
 * decision has already applied.
 */
function createClient(options: { proxy?: { url: string } }): DenoHttpClient {
  const runtime = deno();
  const env = runtime.env;
  const saved = PROXY_VARIABLES.map((name) => [name, env.get(name)] as const);
  try {
    for (const name of PROXY_VARIABLES) env.delete(name);
    return runtime.createHttpClient(options);
  } finally {
    for (const [name, value] of saved) if (value !== undefined) env.set(name, value);
  }
}

/**
 * Calls Deno's `fetch` with a client for the decided route.
 *
 * Needs `--allow-env` (part of the base permission set) to hide the proxy variables from the
 * direct client.
 *
 * @see runtime-fetch.ts for the contract; docs/design/config.md §12 ("Runtime behaviour")
 */
export const fetchDeno: RuntimeFetch = (url, init, decision) => {
  let client: DenoHttpClient;
  if (decision.mode === 'direct') {
    directClient ??= createClient({});
    client = directClient;
  } else {
    let proxied = proxyClients.get(decision.proxyUrl);
    if (proxied === undefined) {
      proxied = createClient({ proxy: { url: decision.proxyUrl } });
      proxyClients.set(decision.proxyUrl, proxied);
    }
    client = proxied;
  }
  const routed: DenoRequestInit = { ...init, client };
  return fetch(url, routed);
};
