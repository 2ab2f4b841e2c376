// The Mem0 Platform fake follows mem0-services.md §1 strictly: paths, Token auth, 400 texts,
// Direct Import, deduplication, PENDING events and the optional decay mode.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { PLATFORM_ERRORS, startMem0PlatformFake, type Mem0PlatformFake, type PlatformMemory } from './mem0-platform.ts';

const KEY = 'platform-key-1';
const SEED: PlatformMemory[] = [
  { id: 'm1', memory: 'Alice prefers green tea', app_id: 'repository-memory', score: 0.9 },
  { id: 'm2', memory: 'Use pnpm.', app_id: 'repository-memory', score: 0.5 },
  { id: 'm3', memory: 'Low score', app_id: 'repository-memory', score: 0.05 },
  { id: 'm4', memory: 'Other app', app_id: 'other-app', score: 0.99 },
];
let fake: Mem0PlatformFake;

beforeAll(async () => {
  fake = await startMem0PlatformFake({ apiKey: KEY, memories: SEED });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function call(path: string, body?: unknown, auth: string | null = `Token ${KEY}`, method = body === undefined ? 'GET' : 'POST') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth !== null) headers['authorization'] = auth;
  const res = await fetch(`${fake.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const searchBody = { query: 'deployment policy', top_k: 5, threshold: 0.1, rerank: false, filters: { app_id: 'repository-memory' } };
const ids = (json: Record<string, unknown>): unknown[] => (json['results'] as { id: unknown }[]).map((r) => r.id);

describe('startMem0PlatformFake() routes and auth', () => {
  test('exposes search and write URLs', () => {
    expect(fake.url).toBe(`${fake.origin}/v3/memories/search/`);
    expect(fake.searchUrl).toBe(fake.url);
    expect(fake.writeUrl).toBe(`${fake.origin}/v3/memories/add/`);
  });

  test.each([
    ['POST', '/v3/memories/search'],
    ['POST', '/v3/memories/add'],
    ['GET', '/v3/memories/search/'],
    ['POST', '/v2/memories/search/'],
    ['GET', '/v1/ping'],
    ['POST', '/search'],
  ])('%s %s is 404', async (method, path) => {
    const res = await call(path, method === 'POST' ? searchBody : undefined, `Token ${KEY}`, method);
    expect(res).toEqual({ status: 404, json: PLATFORM_ERRORS.notFound });
  });

  test.each([
    ['missing', null, PLATFORM_ERRORS.missingCredential],
    ['wrong key', 'Token nope', PLATFORM_ERRORS.invalidKey],
    ['Bearer scheme', `Bearer ${KEY}`, PLATFORM_ERRORS.invalidKey],
    ['x-api-key style value', KEY, PLATFORM_ERRORS.invalidKey],
  ])('401 for a %s credential', async (_name, auth, body) => {
    expect(await call('/v3/memories/search/', searchBody, auth)).toEqual({ status: 401, json: body });
  });

  test('GET /v1/ping/ answers status ok', async () => {
    const res = await call('/v1/ping/');
    expect(res.status).toBe(200);
    expect(res.json['status']).toBe('ok');
  });
});

describe('POST /v3/memories/search/', () => {
  test('filters by scope, applies the threshold, sorts by score and honours top_k', async () => {
    const res = await call('/v3/memories/search/', searchBody);
    expect(res.status).toBe(200);
    expect(ids(res.json)).toEqual(['m1', 'm2']);
    const first = (res.json['results'] as Record<string, unknown>[])[0];
    expect(first).toMatchObject({ id: 'm1', memory: 'Alice prefers green tea', app_id: 'repository-memory', score: 0.9 });
    expect(first?.['created_at']).toBeString();
    expect(ids((await call('/v3/memories/search/', { ...searchBody, top_k: 1 })).json)).toEqual(['m1']);
    expect(ids((await call('/v3/memories/search/', { ...searchBody, threshold: 0 })).json)).toEqual(['m1', 'm2', 'm3']);
  });

  test('supports in, OR and wildcard filters combined with a positive id', async () => {
    const res = await call('/v3/memories/search/', { query: 'q', filters: { OR: [{ app_id: 'other-app' }, { app_id: { in: ['repository-memory'] } }] } });
    expect(ids(res.json)).toEqual(['m4', 'm1', 'm2']);
  });

  test.each([
    ['root user_id', { ...searchBody, user_id: 'u1' }, PLATFORM_ERRORS.rootIds],
    ['root agent_id', { ...searchBody, agent_id: 'a' }, PLATFORM_ERRORS.rootIds],
    ['root run_id', { ...searchBody, run_id: 'r' }, PLATFORM_ERRORS.rootIds],
    ['missing filters', { query: 'q' }, PLATFORM_ERRORS.scope],
    ['empty filters', { query: 'q', filters: {} }, PLATFORM_ERRORS.scope],
    ['wildcard-only scope', { query: 'q', filters: { user_id: '*' } }, PLATFORM_ERRORS.scope],
    ['NOT-only scope', { query: 'q', filters: { NOT: [{ user_id: 'u1' }] } }, PLATFORM_ERRORS.scope],
    ['empty query', { query: '', filters: { app_id: 'x' } }, PLATFORM_ERRORS.scope],
    ['top_k 0', { ...searchBody, top_k: 0 }, PLATFORM_ERRORS.topK],
    ['top_k 1001', { ...searchBody, top_k: 1001 }, PLATFORM_ERRORS.topK],
    ['threshold 2', { ...searchBody, threshold: 2 }, PLATFORM_ERRORS.threshold],
    ['string rerank', { ...searchBody, rerank: 'no' }, PLATFORM_ERRORS.rerank],
    ['a top-level array', [], PLATFORM_ERRORS.scope],
  ])('400 for %s', async (_name, body, error) => {
    expect(await call('/v3/memories/search/', body)).toEqual({ status: 400, json: error });
  });
});

describe('POST /v3/memories/add/', () => {
  const write = { messages: [{ role: 'user', content: 'Use pnpm workspaces.' }], infer: false, app_id: 'repository-memory' };

  test('Direct Import stores verbatim and answers SUCCEEDED with results[].data.memory', async () => {
    const res = await call('/v3/memories/add/', write);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ message: 'Memories stored successfully', status: 'SUCCEEDED' });
    const [result] = res.json['results'] as Record<string, unknown>[];
    expect(result).toEqual({ id: expect.any(String), data: { memory: 'Use pnpm workspaces.' }, event: 'ADD' });
    expect(fake.memories.at(-1)).toMatchObject({ id: result?.['id'], memory: 'Use pnpm workspaces.', app_id: 'repository-memory' });
    const event = await call(`/v1/event/${String(res.json['event_id'])}/`);
    expect(event.json).toMatchObject({ status: 'SUCCEEDED', results: [result] });
    expect(ids((await call('/v3/memories/search/', searchBody)).json)).toContain(result?.['id']);
  });

  test('an exact repeat in the same scope answers SUCCEEDED with results: []', async () => {
    await call('/v3/memories/add/', write);
    const again = await call('/v3/memories/add/', write);
    expect(again.json).toMatchObject({ status: 'SUCCEEDED', results: [] });
    const otherScope = await call('/v3/memories/add/', { ...write, app_id: 'other-app' });
    expect(otherScope.json['results']).toHaveLength(1);
  });

  test('system messages and multimodal parts are dropped; user and assistant are kept', async () => {
    const res = await call('/v3/memories/add/', {
      ...write,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: { type: 'image_url', image_url: { url: 'x' } } },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'U' },
      ],
    });
    expect((res.json['results'] as { data: { memory: string } }[]).map((r) => r.data.memory)).toEqual(['A', 'U']);
  });

  test('infer true (the default) answers PENDING with an event_id and stores nothing', async () => {
    const res = await call('/v3/memories/add/', { messages: write.messages, app_id: 'repository-memory' });
    expect(res.json).toEqual({ event_id: expect.any(String), status: 'PENDING' });
    expect(fake.memories).toHaveLength(SEED.length);
    expect((await call(`/v1/event/${String(res.json['event_id'])}/`)).json['status']).toBe('PENDING');
  });

  test('an unknown event is 404 with the documented body', async () => {
    expect(await call('/v1/event/nope/')).toEqual({ status: 404, json: PLATFORM_ERRORS.eventNotFound });
  });

  test.each([
    ['no entity id', { messages: write.messages, infer: false }, PLATFORM_ERRORS.entityRequired],
    ['an empty entity id', { messages: write.messages, infer: false, user_id: '' }, PLATFORM_ERRORS.entityRequired],
    ['missing messages', { infer: false, app_id: 'x' }, PLATFORM_ERRORS.malformed],
    ['a string message list', { messages: 'hi', infer: false, app_id: 'x' }, PLATFORM_ERRORS.malformed],
    ['an unknown role', { messages: [{ role: 'tool', content: 'x' }], app_id: 'x' }, PLATFORM_ERRORS.malformed],
    ['a string infer', { ...write, infer: 'false' }, PLATFORM_ERRORS.malformed],
    ['malformed JSON', '{"messages":', PLATFORM_ERRORS.malformed],
  ])('400 for %s', async (_name, body, error) => {
    expect(await call('/v3/memories/add/', body)).toEqual({ status: 400, json: error });
  });

  test('reset() restores the seed and forgets events', async () => {
    await call('/v3/memories/add/', write);
    fake.reset();
    expect(fake.memories).toEqual(SEED);
    expect(fake.events.size).toBe(0);
  });
});

describe('decay mode', () => {
  test('returns a score below the requested threshold and records access', async () => {
    const seed = [...SEED, { id: 'm5', memory: 'Near the threshold', app_id: 'repository-memory', score: 0.2 }];
    const decayed = await startMem0PlatformFake({ apiKey: KEY, memories: seed, decayFactor: 0.3 });
    try {
      const res = await fetch(decayed.url, {
        method: 'POST',
        headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(searchBody),
      });
      const results = ((await res.json()) as { results: { id: string; score: number }[] }).results;
      expect(results.map((r) => r.id)).toEqual(['m1', 'm2', 'm5']);
      expect(results[2]?.score).toBeCloseTo(0.06);
      expect(results[2]?.score).toBeLessThan(searchBody.threshold);
      expect(decayed.accessCounts.get('m1')).toBe(1);
    } finally {
      await decayed.close();
    }
  });
});
