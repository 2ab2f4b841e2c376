// One configurable strict fake for the stock Mem0 REST server and for PolarDB Mem0
// (mem0-services.md §2, §3, §5): route table, auth, scope rule, schema strictness, limit field,
// write answer and the 2025 legacy behaviour are options; memories are seeded per scope.
import { createHash, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { validateBody } from './fastapi-validation.ts';
import { checkServerAuth, type ServerAuthMode } from './mem0-server-auth.ts';
import { addModel, openApiDocument, searchModel, type ModelOptions } from './mem0-server-models.ts';
import { resolveScope, type ScopeMode } from './mem0-server-scope.ts';
import { answerAdd, type WriteMode } from './mem0-server-write.ts';
import { matchesFilters } from './mem0-platform-filters.ts';
import { jsonReply, type FakeReply } from './reply.ts';

/** A stored memory. Unknown keys (for example `infer`, `content`) are returned as they are. */
export interface ServerMemory {
  readonly id: string;
  /** Usually a string; any value lets a test send an unusable content field. */
  readonly memory?: unknown;
  readonly user_id?: string;
  readonly agent_id?: string;
  readonly run_id?: string;
  /** Score in [0, 1] (default 0.8). */
  readonly score?: number;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  readonly [extra: string]: unknown;
}

/** Options of {@link startMem0ServerFake}; defaults depend on the route table (stock / polardb). */
export interface Mem0ServerFakeOptions {
  /** `stock`: `POST /memories`, `POST /search`; `polardb`: `POST /v1/memories`, `POST /v2/memories/search`. */
  readonly routes?: 'stock' | 'polardb';
  /** The credential the chosen `auth` mode requires. */
  readonly apiKey: string;
  /** `x-api-key` / `token`; also `bearer` (`Authorization: Bearer <apiKey>`) and `none`. */
  readonly auth?: ServerAuthMode;
  /** `merge` / `polardb`; also `root-only`, `filters-only` (mem0-server-scope.ts). */
  readonly scope?: ScopeMode;
  /** `tolerant` (default), `strict` or `strict-no-root-ids` (search model without root ids). */
  readonly schema?: 'tolerant' | 'strict' | 'strict-no-root-ids';
  /** The search limit field read (default `top_k`); the other one is an unknown field. */
  readonly limitField?: 'top_k' | 'limit';
  /** `echo` / `encoded-echo`; also `id-only`, `rewrite`, `delete-event` (mem0-server-write.ts). */
  readonly write?: WriteMode;
  /** Stock only: 307 on a trailing slash, 500 on a search without root id, `infer` dropped, 400s are 500s. */
  readonly legacy2025?: boolean;
  /** Serve `GET /openapi.json` (no auth); default true on stock, false on polardb. */
  readonly openapi?: boolean;
  /** Name of the search model in the OpenAPI document (default `SearchRequest` / `SearchMemoryRequest`). */
  readonly searchSchemaName?: string;
  /** Seeded memories with their scope ids (default none: the empty corpus). Restored by `reset()`. */
  readonly memories?: readonly ServerMemory[];
}

/** A running Mem0 server fake; `url` is the search URL. */
export interface Mem0ServerFake extends FakeServer {
  readonly url: string;
  readonly searchUrl: string;
  readonly writeUrl: string;
  /** The route paths in use. */
  readonly paths: { readonly search: string; readonly add: string };
  /** Stored memories: the seed plus writes, in insertion order. */
  readonly memories: readonly ServerMemory[];
}

/** Route paths of the two tables. */
export const SERVER_ROUTES = {
  stock: { search: '/search', add: '/memories' },
  polardb: { search: '/v2/memories/search', add: '/v1/memories' },
} as const;

/** The not-found body (FastAPI's; also used on the PolarDB table, unverified there). */
export const NOT_FOUND = { detail: 'Not Found' } as const;

const DEFAULT_SCORE = 0.8;
const DEFAULT_LIMIT = { stock: 20, polardb: 10 } as const;
const DEFAULT_THRESHOLD = 0.1;
const SEED_TIMESTAMP = '2026-01-15T10:30:00+00:00';

/**
 * Starts the fake. Order: exact method and path (else 404 `{"detail":"Not Found"}`; with
 * `legacy2025` a trailing-slash variant of a route gets 307 to the slash-less URL), then auth
 * (401), then body validation (422 list form), then the handler rules (400, or 500 in legacy
 * mode). Stock answers carry `x-request-id` unless `legacy2025`.
 *
 * @throws {RangeError} If `legacy2025` is combined with the polardb table.
 * @see mem0-services.md §5, "Mem0 server fake"
 */
export async function startMem0ServerFake(options: Mem0ServerFakeOptions): Promise<Mem0ServerFake> {
  const routes = options.routes ?? 'stock';
  if (routes === 'polardb' && options.legacy2025 === true) throw new RangeError('legacy2025 applies to the stock table only.');
  const config: ServerConfig = {
    routes,
    apiKey: options.apiKey,
    auth: options.auth ?? (routes === 'stock' ? 'x-api-key' : 'token'),
    scope: options.scope ?? (routes === 'stock' ? 'merge' : 'polardb'),
    write: options.write ?? (routes === 'stock' ? 'echo' : 'encoded-echo'),
    openapi: options.openapi ?? routes === 'stock',
    paths: SERVER_ROUTES[routes],
    models: {
      routes,
      schema: options.schema ?? 'tolerant',
      limitField: options.limitField ?? 'top_k',
      legacy2025: options.legacy2025 ?? false,
      searchSchemaName: options.searchSchemaName ?? (routes === 'stock' ? 'SearchRequest' : 'SearchMemoryRequest'),
    },
  };
  const state = { memories: [...(options.memories ?? [])] };
  const server = await startFakeServer({
    handler: (request) => withRequestId(config, answer(request, config, state, origin)),
    onReset: () => {
      state.memories = [...(options.memories ?? [])];
    },
  });
  const origin = server.origin;
  const searchUrl = `${origin}${config.paths.search}`;
  return {
    ...server,
    url: searchUrl,
    searchUrl,
    writeUrl: `${origin}${config.paths.add}`,
    paths: config.paths,
    get memories() {
      return state.memories;
    },
  };
}

interface ServerConfig {
  readonly routes: 'stock' | 'polardb';
  readonly apiKey: string;
  readonly auth: ServerAuthMode;
  readonly scope: ScopeMode;
  readonly write: WriteMode;
  readonly openapi: boolean;
  readonly paths: { readonly search: string; readonly add: string };
  readonly models: ModelOptions;
}

interface ServerState {
  memories: ServerMemory[];
}

function answer(request: RecordedRequest, config: ServerConfig, state: ServerState, origin: string): FakeReply {
  const { method, url } = request;
  const legacy = config.models.legacy2025;
  if (method === 'GET' && url === '/openapi.json' && config.openapi) return jsonReply(200, openApiDocument(config.models, config.paths));
  const route = method === 'POST' && url === config.paths.search ? 'search' : method === 'POST' && url === config.paths.add ? 'add' : undefined;
  if (route === undefined) {
    const known = [config.paths.search, config.paths.add, ...(config.openapi ? ['/openapi.json'] : [])];
    // 2025 builds redirected a trailing slash (Starlette redirect_slashes) instead of a 404 (§2.5).
    if (legacy && url.endsWith('/') && known.includes(url.slice(0, -1))) {
      return { status: 307, headers: { location: `${origin}${url.slice(0, -1)}` }, body: '' };
    }
    return jsonReply(404, NOT_FOUND);
  }
  const denied = checkServerAuth(request, config.auth, config.apiKey);
  if (denied !== undefined) return denied;
  if (route === 'add') {
    const validated = validateBody(request, addModel(config.models));
    if (!validated.ok) return validated.reply;
    const reply = answerAdd(validated.body, { routes: config.routes, write: config.write, legacy, memories: state.memories });
    return legacyStatus(reply, legacy);
  }
  const validated = validateBody(request, searchModel(config.models));
  if (!validated.ok) return validated.reply;
  return legacyStatus(search(validated.body, config, state), legacy);
}

function search(body: Record<string, unknown>, config: ServerConfig, state: ServerState): FakeReply {
  const scope = resolveScope(body, config.scope, config.models.legacy2025);
  if (!scope.ok) return jsonReply(scope.status, { detail: scope.detail });
  const limit = (body[config.models.limitField] as number | null | undefined) ?? DEFAULT_LIMIT[config.routes];
  const threshold = (body['threshold'] as number | null | undefined) ?? DEFAULT_THRESHOLD;
  const results = state.memories
    .filter((memory) => matchesFilters(memory, scope.filters))
    .map((memory) => ({ memory, score: memory.score ?? DEFAULT_SCORE }))
    .filter((hit) => hit.score >= threshold)
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(0, limit))
    .map(({ memory, score }) => serverItem(memory, score));
  return jsonReply(200, { results });
}

/** A search result item in the stock server's shape (§2.3); seeded keys win, score is computed. */
function serverItem(memory: ServerMemory, score: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: memory.id,
    memory: memory.memory,
    hash: typeof memory.memory === 'string' ? createHash('md5').update(memory.memory).digest('hex') : null,
    metadata: null,
    score,
    created_at: SEED_TIMESTAMP,
    updated_at: null,
  };
  for (const [key, value] of Object.entries(memory)) if (key !== 'score') item[key] = value;
  return item;
}

function legacyStatus(reply: FakeReply, legacy: boolean): FakeReply {
  // Before 2026-04-23 every handler failure was a 500 with the exception text (§2.6).
  return legacy && reply.status === 400 ? { ...reply, status: 500 } : reply;
}

function withRequestId(config: ServerConfig, reply: FakeReply): FakeReply {
  if (config.routes !== 'stock' || config.models.legacy2025) return reply;
  return { ...reply, headers: { ...reply.headers, 'x-request-id': randomBytes(4).toString('hex') } };
}
