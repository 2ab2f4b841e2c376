// The one file a provider owner changes: it maps a search query to the provider's own REST API
// and returns raw items. As shipped it speaks Generic HTTP Search V1 (POST /v1/context/search,
// `authorization: Bearer <token>`), so it runs against any such service, including the test fake.
// Everything the profile requires (validation, bounding, escaping, stable errors) lives in
// main.ts and needs no change.

/** One raw result. main.ts drops items without a non-empty `id` and `content` and bounds the rest. */
export interface ProviderItem {
  readonly id: string;
  readonly content: string;
  readonly title?: string;
  readonly uri?: string;
  readonly score?: number;
  readonly updatedAt?: string;
}

/** The provider as main.ts uses it. */
export interface ContextProvider {
  /**
   * Runs one search: exactly one HTTP request, no retry, no cache.
   *
   * @param query The normalized query (1…2000 Unicode code points).
   * @param limit Results wanted (always 5).
   * @param signal Aborted on client cancellation or after the timeout.
   * @returns Items in ranking order.
   * @throws {ProviderFailure} On any failure; its `status` is the HTTP status when there is one.
   */
  search(query: string, limit: number, signal: AbortSignal): Promise<ProviderItem[]>;
}

/** A failed provider call. The message is a fixed phrase: never a URL, body, token or query. */
export class ProviderFailure extends Error {
  override readonly name = 'ProviderFailure';
  /** HTTP status of a non-2xx or redirect answer, else undefined. */
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** The variables the extension manifest passes in. */
export const BASE_URL_VARIABLE = 'PROVIDER_CONTEXT_BASE_URL';
export const TOKEN_VARIABLE = 'PROVIDER_CONTEXT_TOKEN';

const SEARCH_PATH = '/v1/context/search';
const MAX_RESPONSE_BYTES = 1048576;
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
// Qwen Code leaves `${NAME}` literal when the launcher did not export the variable.
const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Builds the provider from the environment.
 *
 * @param env The process environment.
 * @returns The provider.
 * @throws {Error} When the base URL is not an `https:` origin or a loopback `http:` origin
 *   (`localhost`, `127.0.0.1`, `[::1]`), or the token is missing, blank, an unresolved
 *   `${NAME}` placeholder or contains control characters. Messages never contain the values.
 */
export function createProvider(env: Readonly<Record<string, string | undefined>>): ContextProvider {
  const origin = checkOrigin(ownValue(env, BASE_URL_VARIABLE));
  const token = ownValue(env, TOKEN_VARIABLE);
  if (token === undefined || token.trim() === '' || PLACEHOLDER.test(token) || CONTROL.test(token)) {
    throw new Error('The provider token is not set.');
  }
  const url = `${origin}${SEARCH_PATH}`;
  return {
    async search(query, limit, signal) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, limit }),
          // A redirect must not carry the token to another origin.
          redirect: 'manual',
          signal,
        });
      } catch {
        throw new ProviderFailure('request did not complete');
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => undefined);
        throw new ProviderFailure('request was rejected', response.status);
      }
      return parseItems(await readJson(response));
    },
  };
}

function ownValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value: unknown = Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function checkOrigin(value: string | undefined): string {
  let url: URL;
  try {
    url = new URL(value ?? '');
  } catch {
    throw new Error('The provider base URL is not set or not a URL.');
  }
  const plainOrigin = url.username === '' && url.password === '' && url.pathname === '/' && !url.href.includes('?') && !url.href.includes('#');
  const allowedScheme = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname));
  if (!plainOrigin || !allowedScheme) throw new Error('The provider base URL must be an https origin or a loopback http origin.');
  return url.origin;
}

async function readJson(response: Response): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderFailure('response is too large');
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  try {
    while (reader !== undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_RESPONSE_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw new ProviderFailure('response is too large');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ProviderFailure) throw error;
    throw new ProviderFailure('request did not complete');
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw new ProviderFailure('response is not JSON');
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Generic HTTP Search V1 answers `{ "items": [ { id, content, title?, uri?, score?, updated_at? } ] }`.
function parseItems(json: unknown): ProviderItem[] {
  if (!isPlainObject(json) || !Array.isArray(json['items'])) throw new ProviderFailure('response has no items');
  const items: ProviderItem[] = [];
  for (const raw of json['items'] as unknown[]) {
    if (!isPlainObject(raw)) continue;
    const { id, content, title, uri, score } = raw;
    if (typeof id !== 'string' || id === '' || typeof content !== 'string' || content === '') continue;
    const updatedAt = typeof raw['updated_at'] === 'string' ? raw['updated_at'] : raw['updatedAt'];
    items.push({
      id,
      content,
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof uri === 'string' ? { uri } : {}),
      ...(typeof score === 'number' && Number.isFinite(score) ? { score } : {}),
      ...(typeof updatedAt === 'string' ? { updatedAt } : {}),
    });
  }
  return items;
}
