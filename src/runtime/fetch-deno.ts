// Deno routing. Deno's fetch reads the proxy variables itself when an HTTP client is created
// (and ignores NO_PROXY "*"), so each route gets its own client: direct clients are created
// with the proxy variables hidden, proxied ones with an explicit proxy, which Deno applies
// whatever NO_PROXY says.
import type { RuntimeFetch } from './runtime-fetch.ts';

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

/** Every variable Deno reads a proxy from. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'] as const;

let directClient: DenoHttpClient | undefined;
const proxyClients = new Map<string, DenoHttpClient>();

function deno(): DenoGlobal {
  return (globalThis as unknown as { Deno: DenoGlobal }).Deno;
}

/**
 * Creates a client with no proxy: the proxy variables are hidden while the (synchronous)
 * constructor reads them, then restored, so child processes and other code see them unchanged.
 */
function createDirectClient(): DenoHttpClient {
  const { env, createHttpClient } = deno();
  const saved = PROXY_VARIABLES.map((name) => [name, env.get(name)] as const);
  try {
    for (const name of PROXY_VARIABLES) env.delete(name);
    return createHttpClient.call(deno(), {});
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
 * @see runtime-fetch.ts for the contract; config.md §12 ("Runtime behaviour")
 */
export const fetchDeno: RuntimeFetch = (url, init, decision) => {
  let client: DenoHttpClient;
  if (decision.mode === 'direct') {
    directClient ??= createDirectClient();
    client = directClient;
  } else {
    let proxied = proxyClients.get(decision.proxyUrl);
    if (proxied === undefined) {
      proxied = deno().createHttpClient({ proxy: { url: decision.proxyUrl } });
      proxyClients.set(decision.proxyUrl, proxied);
    }
    client = proxied;
  }
  const routed: DenoRequestInit = { ...init, client };
  return fetch(url, routed);
};
