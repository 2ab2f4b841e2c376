// Test kit for the remote server (remote.md §1.11): keys generated here with jose, a real JWKS
// served on loopback that counts its fetches, token signing (valid and every broken form), and
// an SDK Client wired to an in-process handler through `new Request(...)`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, type CryptoKey } from 'jose';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { allowedHosts } from '../../../src/mcp/http/allowed-hosts.ts';
import { createJwksFetch } from '../../../src/mcp/http/jwks-fetch.ts';
import { createRemoteMcpHandler, type RemoteMcpHandler } from '../../../src/mcp/http/remote-mcp-handler.ts';
import type { RequestLogEntry } from '../../../src/mcp/http/request-log.ts';
import { createTokenChecker } from '../../../src/mcp/http/token-verifier.ts';
import { createContextSearchTool } from '../../../src/mcp/context-search.ts';
import type { Tool } from '../../../src/mcp/tool.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { type FakeServer, startFakeServer } from '../../fakes/fake-server.ts';
import type { GenericHttpFake } from '../../fakes/generic-http.ts';
import { jsonReply } from '../../fakes/reply.ts';
import { genericBinding } from '../../support/provider-bindings.ts';

/** `--listen` of the in-process handler (no socket is bound; only the Host check uses it). */
export const LISTEN_HOST = '127.0.0.1';
export const LISTEN_PORT = 8788;
/** The endpoint the in-process requests go to. */
export const ENDPOINT = `http://${LISTEN_HOST}:${LISTEN_PORT}/mcp`;
/** The `Host` header a real HTTP client sends to ENDPOINT (`new Request` adds none). */
export const HOST_HEADER = { host: `${LISTEN_HOST}:${LISTEN_PORT}` } as const;
/** `--resource`: another host name, so the Host allow-list has two kinds of entry. */
export const RESOURCE = 'https://context.example.com/mcp';
/** `--issuer`. */
export const ISSUER = 'https://issuer.example.com/tenant-1';
/** The default scope. */
export const SCOPE = 'context.read';
/** The path-suffixed metadata URL every challenge names. */
export const METADATA_URL = 'https://context.example.com/.well-known/oauth-protected-resource/mcp';
/** The headers every MCP POST needs. */
export const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' } as const;

/** The JWKS path the loopback key server answers. */
const JWKS_PATH = '/jwks.json';

type Alg = 'RS256' | 'ES256' | 'EdDSA';

interface KeyPair {
  readonly alg: Alg;
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: Record<string, unknown>;
}

/** A loopback JWKS server with the three accepted key types, and a key it does not publish. */
export interface JwksServer {
  /** `http://127.0.0.1:<port>/jwks.json`. */
  readonly url: string;
  readonly fake: FakeServer;
  /** The published key set. */
  readonly jwks: { readonly keys: readonly Record<string, unknown>[] };
  /** GET requests to the JWKS path so far. */
  fetches(): number;
  /** Signs a token; `claims` are merged over valid defaults (`iss`, `aud`, `exp` in 300 s, `scope`). */
  sign(claims?: JWTPayload, options?: { readonly alg?: Alg; readonly unpublished?: boolean; readonly omit?: readonly string[] }): Promise<string>;
  close(): Promise<void>;
}

async function keyPair(alg: Alg, kid: string): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/**
 * Starts the key server.
 *
 * @see remote.md §1.11 ("A loopback test server serves the JWKS and counts fetches")
 */
export async function startJwksServer(): Promise<JwksServer> {
  const keys = {
    RS256: await keyPair('RS256', 'rsa-1'),
    ES256: await keyPair('ES256', 'ec-1'),
    EdDSA: await keyPair('EdDSA', 'ed-1'),
  };
  const unpublished = await keyPair('RS256', 'rsa-unpublished');
  const jwks = { keys: Object.values(keys).map((key) => key.publicJwk) };
  const fake = await startFakeServer({
    handler: (request) => (request.method === 'GET' && request.path === JWKS_PATH ? jsonReply(200, jwks) : jsonReply(404, {})),
  });
  return {
    url: `${fake.origin}${JWKS_PATH}`,
    fake,
    jwks,
    fetches: () => fake.requests.filter((request) => request.path === JWKS_PATH).length,
    async sign(claims = {}, options = {}) {
      const key = options.unpublished === true ? unpublished : keys[options.alg ?? 'RS256'];
      const now = Math.floor(Date.now() / 1000);
      const payload: JWTPayload = { iss: ISSUER, aud: RESOURCE, exp: now + 300, iat: now, scope: SCOPE, ...claims };
      for (const name of options.omit ?? []) delete payload[name];
      return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    },
    close: () => fake.close(),
  };
}

/** A TCP port on 127.0.0.1 that was free a moment ago and has nothing listening now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Serves `jwks` at `http://127.0.0.1:<port>/jwks.json` (a port from {@link closedPort}), so a
 * URL that was unreachable comes up.
 *
 * @returns The GET count and `close()`.
 */
export async function serveJwksOn(port: number, jwks: unknown): Promise<{ fetches(): number; close(): Promise<void> }> {
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === JWKS_PATH) fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** base64url of a JSON value. */
export function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An unsigned `alg: none` token with otherwise valid claims. */
export function unsecuredToken(): string {
  const now = Math.floor(Date.now() / 1000);
  return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: ISSUER, aud: RESOURCE, exp: now + 300, scope: SCOPE })}.`;
}

/** An HS256 token with otherwise valid claims. */
export async function hmacToken(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: RESOURCE, exp: now + 300, scope: SCOPE })
    .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
    .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!'));
}

/** Options of {@link createTestHandler}. */
export interface TestHandlerOptions {
  /** The Generic fake behind context_search. */
  readonly fake: GenericHttpFake;
  /** Authentication against this key server; omitted = `--insecure-no-auth`. */
  readonly jwks?: { readonly url: string };
  readonly allowedOrigins?: readonly string[];
  readonly maxConcurrency?: number;
  /** Provider timeout in ms (default 5000). */
  readonly timeoutMs?: number;
  /** Operator lines go here (default: dropped). */
  readonly stderr?: Writable;
  readonly scope?: string;
  /** Receives the operator log entries (default: no log). */
  readonly log?: (entry: RequestLogEntry) => void;
}

/**
 * The server's one tool, context_search, with the real provider against the Generic fake.
 *
 * @param fake The Generic fake the provider searches.
 * @param timeoutMs Provider timeout in ms.
 * @param stderr Where the tool's operator lines go (default: dropped).
 */
export function contextSearchTools(fake: GenericHttpFake, timeoutMs: number, stderr?: Writable): Tool[] {
  const provider = createProvider(genericBinding(fake.origin), { env: {} });
  return [createContextSearchTool(provider, timeoutMs, stderr ?? new Writable({ write: (_chunk, _encoding, callback) => callback() }))];
}

/** A remote handler exactly as `serve --http` builds it, with the real provider and verifier. */
export function createTestHandler(options: TestHandlerOptions): RemoteMcpHandler {
  const scope = options.scope ?? SCOPE;
  return createRemoteMcpHandler({
    tools: contextSearchTools(options.fake, options.timeoutMs ?? 5000, options.stderr),
    allowedHosts: allowedHosts(LISTEN_HOST, LISTEN_PORT, options.jwks === undefined ? undefined : RESOURCE),
    allowedOrigins: new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase())),
    maxConcurrency: options.maxConcurrency ?? 64,
    ...(options.log === undefined ? {} : { log: options.log }),
    auth:
      options.jwks === undefined
        ? undefined
        : {
            resource: RESOURCE,
            issuer: ISSUER,
            scope,
            verify: createTokenChecker({ issuer: ISSUER, audience: RESOURCE, jwksUrl: options.jwks.url, scope, fetch: createJwksFetch({ mode: 'direct' }) }),
          },
  });
}

/** A JSON-RPC request body. */
export function rpc(method: string, params: Record<string, unknown> = {}, id: number = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

/** A POST to the in-process endpoint with the Host and MCP headers plus `headers`. */
export function mcpPost(body: string | Uint8Array<ArrayBuffer>, headers: Readonly<Record<string, string>> = {}, init: RequestInit = {}): Request {
  return new Request(ENDPOINT, { method: 'POST', headers: { ...HOST_HEADER, ...MCP_HEADERS, ...headers }, body, ...init });
}

/** An SDK Client connected to the in-process handler (every request is `handler.fetch(new Request(...))`). */
export async function connectClient(handler: RemoteMcpHandler, headers: Readonly<Record<string, string>> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(ENDPOINT), {
    requestInit: { headers: { ...HOST_HEADER, ...headers } },
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new Client({ name: 'remote-kit', version: '0.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}
