// Strict fake of the hosted Mem0 Platform (mem0-services.md §1, §5): v3 search and add, event
// lookup and ping, `Authorization: Token <key>`, every documented path with its trailing slash.
import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeServer, type RecordedRequest } from './fake-server.ts';
import { hasPositiveScope, matchesFilters, PLATFORM_ENTITY_KEYS } from './mem0-platform-filters.ts';
import { jsonReply, type FakeReply } from './reply.ts';
import { isNonEmptyString, isPlainObject, parseStrictJsonObject } from './strict-json.ts';

/** A stored Platform memory. Unknown keys are returned as they are (after the known ones). */
export interface PlatformMemory {
  readonly id: string;
  /** Usually a string; any value lets a test send an unusable content field. */
  readonly memory: unknown;
  readonly user_id?: string | null;
  readonly agent_id?: string | null;
  readonly app_id?: string | null;
  readonly run_id?: string | null;
  /** Score in [0, 1] (default 0.8). */
  readonly score?: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly [extra: string]: unknown;
}

/** Options of {@link startMem0PlatformFake}. */
export interface Mem0PlatformFakeOptions {
  /** The API key; `authorization` must be exactly `Token <apiKey>`. */
  readonly apiKey: string;
  /** Seeded memories (default none: the empty corpus). Restored by `reset()`. */
  readonly memories?: readonly PlatformMemory[];
  /**
   * Memory Decay (§1.4): scores are multiplied by this factor after the threshold filter and
   * clamped to [0, 1], so a returned score can fall below the threshold; each returned memory
   * gets an access record. Off (undefined) by default; 0.3 is the documented minimum.
   */
  readonly decayFactor?: number;
}

/** One event of `GET /v1/event/{id}/`. */
export interface PlatformEvent {
  readonly id: string;
  readonly event_type: 'ADD';
  readonly status: 'PENDING' | 'RUNNING' | 'FAILED' | 'SUCCEEDED';
  readonly results: readonly unknown[];
}

/** A running Platform fake; `url` is the search URL. */
export interface Mem0PlatformFake extends FakeServer {
  /** `<origin>/v3/memories/search/`. */
  readonly url: string;
  readonly searchUrl: string;
  /** `<origin>/v3/memories/add/`. */
  readonly writeUrl: string;
  /** Stored memories: the seed plus Direct Import writes, in insertion order. */
  readonly memories: readonly PlatformMemory[];
  /** Events by id. */
  readonly events: ReadonlyMap<string, PlatformEvent>;
  /** Number of times decay-mode search returned each memory id. */
  readonly accessCounts: ReadonlyMap<string, number>;
}

/** Paths of the Platform (every one ends with `/`). */
export const PLATFORM_PATHS = {
  search: '/v3/memories/search/',
  add: '/v3/memories/add/',
  ping: '/v1/ping/',
  eventPrefix: '/v1/event/',
} as const;

/** Bodies of the fake. Only `scope`, `entityRequired`, `malformed` and `eventNotFound` are documented texts. */
export const PLATFORM_ERRORS = {
  notFound: { detail: 'Not found.' },
  missingCredential: { detail: 'Authentication credentials were not provided.' },
  invalidKey: { detail: 'Invalid API key. Please check your API key and try again.' },
  scope: {
    error: 'filters must include at least one positively-scoped entity ID (user_id, agent_id, app_id, or run_id). Wildcards and NOT-only entity references do not count as scoped.',
  },
  rootIds: { error: 'Top-level entity parameters (user_id, agent_id, run_id) are not supported in search. Use filters instead.' },
  topK: { error: 'top_k must be an integer between 1 and 1000.' },
  threshold: { error: 'threshold must be a number between 0 and 1.' },
  rerank: { error: 'rerank must be a boolean.' },
  entityRequired: { error: 'At least one entity ID is required (user_id, agent_id, app_id, or run_id).' },
  malformed: {
    error: '400 Bad Request',
    details: {
      message: 'Invalid input data. Please refer to the memory creation documentation at https://docs.mem0.ai/platform/quickstart#4-1-create-memories for correct formatting and required fields.',
    },
  },
  eventNotFound: { error: "Event not found or you don't have permission to access it." },
} as const;

const DEFAULT_SCORE = 0.8;
const DEFAULT_TOP_K = 10;
const DEFAULT_THRESHOLD = 0.1;
const SEED_TIMESTAMP = '2026-01-15T10:30:00Z';

/**
 * Starts the Platform fake. Checks, in order: exact method and path (else 404), exact
 * `authorization: Token <key>` (else 401), then the route's body rules (400 with the §1.2 and
 * §1.3 bodies). Search honours `top_k` (1…1000, default 10) and `threshold` (0…1, default 0.1,
 * 0 disables); `rerank` must be a boolean and leaves the order unchanged. Add: `infer` true
 * (default) → `PENDING` + `event_id`, nothing stored; `infer: false` → `SUCCEEDED` with one
 * `results[].data.memory` per new non-system text message; an exact repeat in the same scope
 * is dropped (`results: []`).
 *
 * @see mem0-services.md §1, §5 "Platform fake"
 */
export async function startMem0PlatformFake(options: Mem0PlatformFakeOptions): Promise<Mem0PlatformFake> {
  const state = {
    memories: [...(options.memories ?? [])],
    events: new Map<string, PlatformEvent>(),
    accessCounts: new Map<string, number>(),
  };
  const server = await startFakeServer({
    handler: (request) => answer(request, options, state),
    onReset: () => {
      state.memories = [...(options.memories ?? [])];
      state.events.clear();
      state.accessCounts.clear();
    },
  });
  const searchUrl = `${server.origin}${PLATFORM_PATHS.search}`;
  return {
    ...server,
    url: searchUrl,
    searchUrl,
    writeUrl: `${server.origin}${PLATFORM_PATHS.add}`,
    get memories() {
      return state.memories;
    },
    events: state.events,
    accessCounts: state.accessCounts,
  };
}

interface PlatformState {
  memories: PlatformMemory[];
  readonly events: Map<string, PlatformEvent>;
  readonly accessCounts: Map<string, number>;
}

function answer(request: RecordedRequest, options: Mem0PlatformFakeOptions, state: PlatformState): FakeReply {
  const route = routeOf(request);
  if (route === undefined) return jsonReply(404, PLATFORM_ERRORS.notFound);
  const auth = request.headers['authorization'];
  if (auth === undefined) return jsonReply(401, PLATFORM_ERRORS.missingCredential);
  if (auth !== `Token ${options.apiKey}`) return jsonReply(401, PLATFORM_ERRORS.invalidKey);
  switch (route.name) {
    case 'ping':
      return jsonReply(200, { status: 'ok', org_id: 'org-fake', project_id: 'project-fake', user_email: 'owner@example.invalid' });
    case 'event': {
      const event = state.events.get(route.id);
      return event === undefined ? jsonReply(404, PLATFORM_ERRORS.eventNotFound) : jsonReply(200, event);
    }
    case 'search':
      return search(request, options, state);
    case 'add':
      return add(request, state);
  }
}

type Route = { readonly name: 'search' | 'add' | 'ping' } | { readonly name: 'event'; readonly id: string };

function routeOf(request: RecordedRequest): Route | undefined {
  const { method, url } = request;
  if (method === 'POST' && url === PLATFORM_PATHS.search) return { name: 'search' };
  if (method === 'POST' && url === PLATFORM_PATHS.add) return { name: 'add' };
  if (method === 'GET' && url === PLATFORM_PATHS.ping) return { name: 'ping' };
  const event = /^\/v1\/event\/([^/?]+)\/$/.exec(url);
  if (method === 'GET' && event !== null) return { name: 'event', id: decodeURIComponent(event[1] as string) };
  return undefined;
}

function search(request: RecordedRequest, options: Mem0PlatformFakeOptions, state: PlatformState): FakeReply {
  const parsed = parseStrictJsonObject(request);
  if (!parsed.ok) return jsonReply(400, PLATFORM_ERRORS.scope);
  const body = parsed.value;
  if (['user_id', 'agent_id', 'run_id'].some((key) => key in body)) return jsonReply(400, PLATFORM_ERRORS.rootIds);
  const { query, filters } = body;
  if (!isNonEmptyString(query) || !isPlainObject(filters) || !hasPositiveScope(filters)) {
    return jsonReply(400, PLATFORM_ERRORS.scope);
  }
  const topK = body['top_k'] ?? DEFAULT_TOP_K;
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > 1000) return jsonReply(400, PLATFORM_ERRORS.topK);
  const threshold = body['threshold'] ?? DEFAULT_THRESHOLD;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) return jsonReply(400, PLATFORM_ERRORS.threshold);
  if (body['rerank'] !== undefined && typeof body['rerank'] !== 'boolean') return jsonReply(400, PLATFORM_ERRORS.rerank);
  const hits = state.memories
    .filter((memory) => matchesFilters(memory, filters))
    .map((memory) => ({ memory, score: memory.score ?? DEFAULT_SCORE }))
    .filter((hit) => threshold === 0 || hit.score >= threshold)
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
  const results = hits.map(({ memory, score }) => {
    if (options.decayFactor === undefined) return platformItem(memory, score);
    state.accessCounts.set(memory.id, (state.accessCounts.get(memory.id) ?? 0) + 1);
    return platformItem(memory, Math.min(1, Math.max(0, score * options.decayFactor)));
  });
  return jsonReply(200, { results });
}

function platformItem(memory: PlatformMemory, score: number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: memory.id,
    memory: memory.memory,
    user_id: null,
    agent_id: null,
    app_id: null,
    run_id: null,
    score,
    score_breakdown: { semantic: score, bm25: 0, entity: 0 },
    metadata: {},
    categories: [],
    expiration_date: null,
    created_at: SEED_TIMESTAMP,
    updated_at: SEED_TIMESTAMP,
  };
  // Seeded keys win (known keys keep their place, unknown ones follow); the score is computed.
  for (const [key, value] of Object.entries(memory)) if (key !== 'score') item[key] = value;
  return item;
}

function add(request: RecordedRequest, state: PlatformState): FakeReply {
  const parsed = parseStrictJsonObject(request);
  if (!parsed.ok || !isValidAddBody(parsed.value)) return jsonReply(400, PLATFORM_ERRORS.malformed);
  const body = parsed.value;
  const scope = Object.fromEntries(PLATFORM_ENTITY_KEYS.filter((key) => isNonEmptyString(body[key])).map((key) => [key, body[key] as string]));
  if (Object.keys(scope).length === 0) return jsonReply(400, PLATFORM_ERRORS.entityRequired);
  const eventId = randomUUID();
  if (body['infer'] !== false) {
    state.events.set(eventId, { id: eventId, event_type: 'ADD', status: 'PENDING', results: [] });
    return jsonReply(200, { event_id: eventId, status: 'PENDING' });
  }
  const results: unknown[] = [];
  for (const message of body['messages'] as readonly Record<string, unknown>[]) {
    const text = message['content'];
    // Direct Import: one memory per non-system text message; multimodal parts are skipped and
    // an exact repeat in the same scope is dropped by hash deduplication (§1.3).
    if (message['role'] === 'system' || typeof text !== 'string' || text === '') continue;
    if (state.memories.some((memory) => memory.memory === text && sameScope(memory, scope))) continue;
    const memory: PlatformMemory = { id: randomUUID(), memory: text, ...scope, metadata: isPlainObject(body['metadata']) ? body['metadata'] : {} };
    state.memories.push(memory);
    results.push({ id: memory.id, data: { memory: text }, event: 'ADD' });
  }
  state.events.set(eventId, { id: eventId, event_type: 'ADD', status: 'SUCCEEDED', results });
  return jsonReply(200, { message: 'Memories stored successfully', status: 'SUCCEEDED', event_id: eventId, results });
}

function isValidAddBody(body: Record<string, unknown>): boolean {
  const { messages, infer } = body;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const validMessage = (m: unknown): boolean =>
    isPlainObject(m) &&
    (m['role'] === 'user' || m['role'] === 'assistant' || m['role'] === 'system') &&
    (typeof m['content'] === 'string' || isPlainObject(m['content']) || Array.isArray(m['content']));
  if (!messages.every(validMessage)) return false;
  if (infer !== undefined && typeof infer !== 'boolean') return false;
  return PLATFORM_ENTITY_KEYS.every((key) => body[key] === undefined || body[key] === null || typeof body[key] === 'string');
}

function sameScope(memory: PlatformMemory, scope: Readonly<Record<string, string>>): boolean {
  return PLATFORM_ENTITY_KEYS.every((key) => (memory[key] ?? undefined) === scope[key]);
}
