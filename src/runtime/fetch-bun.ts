// Bun routing. Bun's fetch reads HTTP(S)_PROXY and NO_PROXY from the process environment on
// every call (it proxies loopback too, and applies NO_PROXY even to an explicit `proxy`
// option), so the environment it sees is pinned for the duration of the synchronous call.
// Bun's own response decompression is switched off: on a corrupt compressed body it writes
// `Decompression error: …` to the process's stderr, which the Hooks and the MCP server must
// never do (docs/design/hooks.md §1, docs/design/config.md §11). Bodies are decoded here with DecompressionStream.
// Verbose logging is pinned off: BUN_CONFIG_VERBOSE_FETCH in the environment would otherwise
// print every request (credential header and query included) to stderr. Certificate checks are
// pinned on: NODE_TLS_REJECT_UNAUTHORIZED=0 must not send a credential to an untrusted server
// (Deno ignores that variable; fetch-node.ts refuses it). NODE_EXTRA_CA_CERTS still applies.
import process from 'node:process';
import type { RuntimeFetch } from './fetch-types.ts';
import { ownEnv } from '../util/own-env.ts';

/** Bun's extension of `RequestInit`: an explicit proxy URL (credentials allowed), decompression, logging. */
interface BunRequestInit extends RequestInit {
  proxy?: string;
  /** False: the body arrives as sent and Bun adds no `accept-encoding` header. */
  decompress?: boolean;
  /** False: never log the exchange, whatever BUN_CONFIG_VERBOSE_FETCH says. */
  verbose?: boolean;
  /** `rejectUnauthorized: true`: verify certificates, whatever NODE_TLS_REJECT_UNAUTHORIZED says. */
  tls?: { rejectUnauthorized: boolean };
}

/** `content-encoding` tokens → Bun's DecompressionStream formats; `identity` needs none. */
const DECODERS: Readonly<Record<string, string>> = {
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'brotli',
  zstd: 'zstd',
};

/** Statuses whose response can carry no body (the Response constructor rejects one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** A stream whose first read fails: the body of an encoding nothing here can decode. */
function failingStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      controller.error(new TypeError('Unsupported content encoding.'));
    },
  });
}

/**
 * Decodes a body by its `content-encoding` (codings applied in order, so undone in reverse),
 * streaming, so the 1 MiB limit of docs/design/providers.md §1.2 still counts decoded bytes chunk by
 * chunk. A corrupt body or an unknown coding makes a read fail (row 6: did not complete);
 * nothing is ever written to stderr. Without a coding the response is returned unchanged.
 */
function decodeBody(response: Response): Response {
  const header = response.headers.get('content-encoding');
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
  let body: ReadableStream<Uint8Array> = response.body;
  for (const coding of codings.reverse()) {
    const format = DECODERS[coding];
    if (format === undefined) {
      void body.cancel().catch(() => undefined);
      body = failingStream();
      break;
    }
    const decoder = new DecompressionStream(format as CompressionFormat) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    body = body.pipeThrough(decoder);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-encoding');
  // The declared length counts the encoded bytes: a reader must count the decoded ones itself.
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

const NO_PROXY_NAMES = ['NO_PROXY', 'no_proxy'] as const;
const PROXY_NAMES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'] as const;

/** True when no proxy variable is set, so Bun's own proxy lookup cannot apply to any request. */
function noProxyVariables(): boolean {
  const env = process.env;
  return PROXY_NAMES.every((name) => !env[name]);
}

/**
 * Runs `call` with `NO_PROXY`/`no_proxy` set to `value` (or removed for `undefined`) and
 * restores both before returning. Bun reads them synchronously inside `fetch()`, so the
 * override never outlives the call and no child process or later request can see it.
 */
function withNoProxy<T>(value: string | undefined, call: () => T): T {
  const env = process.env;
  const saved = NO_PROXY_NAMES.map((name) => [name, ownEnv(env, name)] as const);
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
 * `decideProxy` has already applied `NO_PROXY` by the product's rules. Either way Bun's
 * decompression and verbose logging are off, certificates are always verified, and an
 * encoded body is decoded by `decodeBody`.
 *
 * @see runtime-fetch.ts for the contract; docs/design/config.md §12 ("Runtime behaviour")
 */
export const fetchBun: RuntimeFetch = async (url, init, decision) => {
  const quiet: BunRequestInit = { ...init, decompress: false, verbose: false, tls: { rejectUnauthorized: true } };
  // Hot path: a direct request with no proxy variable set needs no environment pinning.
  if (decision.mode === 'direct' && noProxyVariables()) return decodeBody(await fetch(url, quiet));
  const routed: BunRequestInit = decision.mode === 'direct' ? quiet : { ...quiet, proxy: decision.proxyUrl };
  const pending = withNoProxy(decision.mode === 'direct' ? '*' : undefined, () => fetch(url, routed));
  return decodeBody(await pending);
};
