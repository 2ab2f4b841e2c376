// The configurable Mem0 server fake: every option of mem0-services.md §5 on the stock table,
// the 2025 legacy mode, and the PolarDB table (not verified against a live instance).
import { afterEach, describe, expect, test } from 'bun:test';
import { SERVER_AUTH_ERRORS } from './mem0-server-auth.ts';
import { SCOPE_ERRORS } from './mem0-server-scope.ts';
import { ADD_IDENTIFIER_REQUIRED } from './mem0-server-write.ts';
import { NOT_FOUND, startMem0ServerFake, type Mem0ServerFake, type Mem0ServerFakeOptions, type ServerMemory } from './mem0-server.ts';

const KEY = 'server-key-1';
const SEED: ServerMemory[] = [
  { id: 'm1', memory: 'Use pnpm.', user_id: 'u1', score: 0.9 },
  { id: 'm2', memory: 'Deploy on Fridays is forbidden.', user_id: 'u1', agent_id: 'qwen-code', score: 0.7 },
  { id: 'm3', memory: 'Other user', user_id: 'u2', score: 0.95 },
];
const open: Mem0ServerFake[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((fake) => fake.close()));
});

async function start(options: Partial<Mem0ServerFakeOptions> = {}): Promise<Mem0ServerFake> {
  const fake = await startMem0ServerFake({ apiKey: KEY, memories: SEED, ...options });
  open.push(fake);
  return fake;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: Record<string, unknown>;
}

async function call(fake: Mem0ServerFake, path: string, body?: unknown, headers: Record<string, string> = { 'x-api-key': KEY }, method = body === undefined ? 'GET' : 'POST'): Promise<Answer> {
  const res = await fetch(`${fake.origin}${path}`, {
    method,
    redirect: 'manual',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const ids = (answer: Answer): unknown[] => ((answer.json['results'] as { id: unknown }[] | undefined) ?? []).map((r) => r.id);
const serverRestSearch = { query: 'deployment policy', top_k: 5, user_id: 'u1', filters: { user_id: 'u1' } };
const directImport = { messages: [{ role: 'user', content: 'Use pnpm.' }], infer: false, user_id: 'u1', agent_id: 'qwen-code' };

describe('startMem0ServerFake() stock table: routes and OpenAPI', () => {
  test('exposes the stock URLs and answers the server-rest preset search', async () => {
    const fake = await start();
    expect(fake.url).toBe(`${fake.origin}/search`);
    expect(fake.writeUrl).toBe(`${fake.origin}/memories`);
    const answer = await call(fake, '/search', serverRestSearch);
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(['m1', 'm2']);
    expect((answer.json['results'] as Record<string, unknown>[])[0]).toMatchObject({
      id: 'm1',
      memory: 'Use pnpm.',
      hash: expect.any(String),
      metadata: null,
      score: 0.9,
      created_at: expect.any(String),
      user_id: 'u1',
    });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}$/);
  });

  test.each([
    ['POST', '/search/'],
    ['POST', '/memories/'],
    ['POST', '/v2/memories/search'],
    ['POST', '/v1/memories'],
    ['POST', '/v3/memories/search/'],
    ['GET', '/search'],
    ['PUT', '/memories'],
    ['GET', '/'],
    ['POST', '/search?x=1'],
  ])('%s %s is 404 Not Found without a redirect', async (method, path) => {
    const fake = await start();
    const answer = await call(fake, path, method === 'GET' ? undefined : serverRestSearch, { 'x-api-key': KEY }, method);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual(NOT_FOUND);
  });

  test('GET /openapi.json is open and lists the SearchRequest properties in order, no additionalProperties', async () => {
    const fake = await start();
    const answer = await call(fake, '/openapi.json', undefined, {});
    expect(answer.status).toBe(200);
    const schemas = (answer.json['components'] as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const search = schemas['SearchRequest'] ?? {};
    expect(Object.keys(search['properties'] as object)).toEqual(['query', 'user_id', 'run_id', 'agent_id', 'filters', 'top_k', 'threshold', 'explain', 'show_expired']);
    expect('additionalProperties' in search).toBe(false);
    expect(Object.keys((answer.json['components'] as { securitySchemes: object }).securitySchemes)).toEqual(['HTTPBearer', 'APIKeyHeader']);
    expect(fake.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  test('openapi: false answers 404', async () => {
    const fake = await start({ openapi: false });
    expect((await call(fake, '/openapi.json')).status).toBe(404);
  });
});

describe('startMem0ServerFake() stock auth', () => {
  test.each([
    ['no credential', {}],
    ['the Token scheme', { authorization: `Token ${KEY}` }],
  ])('%s → 401 authentication required with WWW-Authenticate: Bearer', async (_name, headers) => {
    const fake = await start();
    const answer = await call(fake, '/search', serverRestSearch, headers);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.json).toEqual(SERVER_AUTH_ERRORS.required);
  });

  test('a wrong X-API-Key → 401 Invalid API key.; a Bearer token in x-api-key mode → 401 invalid token', async () => {
    const fake = await start();
    expect((await call(fake, '/search', serverRestSearch, { 'x-api-key': 'nope' })).json).toEqual(SERVER_AUTH_ERRORS.invalidKey);
    const bearer = await call(fake, '/search', serverRestSearch, { authorization: `Bearer ${KEY}` });
    expect(bearer.status).toBe(401);
    expect(bearer.json).toEqual(SERVER_AUTH_ERRORS.invalidToken);
  });

  test('bearer mode accepts only Authorization: Bearer <key>', async () => {
    const fake = await start({ auth: 'bearer' });
    expect((await call(fake, '/search', serverRestSearch, { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect((await call(fake, '/search', serverRestSearch, { 'x-api-key': KEY })).json).toEqual(SERVER_AUTH_ERRORS.invalidKey);
    expect((await call(fake, '/search', serverRestSearch, { authorization: 'Bearer other' })).json).toEqual(SERVER_AUTH_ERRORS.invalidToken);
  });

  test('auth: none lets every request through', async () => {
    const fake = await start({ auth: 'none' });
    expect((await call(fake, '/search', serverRestSearch, {})).status).toBe(200);
  });
});

describe('startMem0ServerFake() scope option', () => {
  test('merge: root ids are copied over filters keys', async () => {
    const fake = await start();
    expect(ids(await call(fake, '/search', { query: 'q', filters: { user_id: 'u1' } }))).toEqual(['m1', 'm2']);
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u1' }))).toEqual(['m1', 'm2']);
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u2', filters: { user_id: 'u1' } }))).toEqual(['m3']);
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u1', agent_id: 'qwen-code', filters: { user_id: 'u1', agent_id: 'qwen-code' } }))).toEqual(['m2']);
  });

  test('merge: no scope, or only empty ids → 400 with the library text', async () => {
    const fake = await start();
    for (const body of [{ query: 'q' }, { query: 'q', user_id: '', filters: {} }]) {
      expect(await call(fake, '/search', body).then((a) => [a.status, a.json])).toEqual([400, { detail: SCOPE_ERRORS.filtersRequired }]);
    }
  });

  test('filters-only ignores root ids', async () => {
    const fake = await start({ scope: 'filters-only' });
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u2', filters: { user_id: 'u1' } }))).toEqual(['m1', 'm2']);
    expect((await call(fake, '/search', { query: 'q', user_id: 'u1' })).status).toBe(400);
  });

  test('root-only ignores filters and answers 500 without a root id', async () => {
    const fake = await start({ scope: 'root-only' });
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u2', filters: { user_id: 'u1' } }))).toEqual(['m3']);
    const answer = await call(fake, '/search', { query: 'q', filters: { user_id: 'u1' } });
    expect([answer.status, answer.json]).toEqual([500, { detail: SCOPE_ERRORS.rootIdRequired }]);
  });

  test('polardb scope reads filters.user_id and a root agent_id only', async () => {
    const fake = await start({ scope: 'polardb' });
    expect(ids(await call(fake, '/search', { query: 'q', agent_id: 'qwen-code', filters: { user_id: 'u1' } }))).toEqual(['m2']);
    expect(ids(await call(fake, '/search', { query: 'q', user_id: 'u2', filters: { user_id: 'u1', agent_id: 'x' } }))).toEqual(['m1', 'm2']);
    expect((await call(fake, '/search', { query: 'q', user_id: 'u1' })).json).toEqual({ detail: SCOPE_ERRORS.polardbUserId });
  });

  test('an empty seed is the empty corpus; reset() restores the seed', async () => {
    const empty = await start({ memories: [] });
    expect(await call(empty, '/search', serverRestSearch).then((a) => a.json)).toEqual({ results: [] });
    const fake = await start();
    await call(fake, '/memories', directImport);
    expect(fake.memories).toHaveLength(4);
    fake.reset();
    expect(fake.memories).toEqual(SEED);
  });
});

describe('startMem0ServerFake() limit, threshold and schema options', () => {
  test('limitField top_k (default) honours top_k and ignores limit', async () => {
    const fake = await start();
    expect(ids(await call(fake, '/search', { ...serverRestSearch, top_k: 1 }))).toEqual(['m1']);
    expect(ids(await call(fake, '/search', { query: 'q', limit: 1, filters: { user_id: 'u1' } }))).toEqual(['m1', 'm2']);
  });

  test('limitField limit honours limit, ignores top_k and shows limit in the OpenAPI schema', async () => {
    const fake = await start({ limitField: 'limit' });
    expect(ids(await call(fake, '/search', { query: 'q', limit: 1, filters: { user_id: 'u1' } }))).toEqual(['m1']);
    expect(ids(await call(fake, '/search', { query: 'q', top_k: 1, filters: { user_id: 'u1' } }))).toEqual(['m1', 'm2']);
    const doc = (await call(fake, '/openapi.json')).json as { components: { schemas: { SearchRequest: { properties: object } } } };
    expect(Object.keys(doc.components.schemas.SearchRequest.properties)).toContain('limit');
  });

  test('threshold drops lower scores', async () => {
    const fake = await start();
    expect(ids(await call(fake, '/search', { ...serverRestSearch, threshold: 0.8 }))).toEqual(['m1']);
  });

  test('tolerant schema ignores unknown fields', async () => {
    const fake = await start();
    expect((await call(fake, '/search', { ...serverRestSearch, rerank: true, __qwen_preset_probe_unused__: 1 })).status).toBe(200);
  });

  test('strict schema: unknown fields → 422 extra_forbidden; root ids are known; OpenAPI additionalProperties false', async () => {
    const fake = await start({ schema: 'strict' });
    expect((await call(fake, '/search', serverRestSearch)).status).toBe(200);
    const answer = await call(fake, '/search', { query: 'q', filters: { user_id: 'u1' }, __qwen_preset_probe_unused__: 1 });
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({
      detail: [{ type: 'extra_forbidden', loc: ['body', '__qwen_preset_probe_unused__'], msg: 'Extra inputs are not permitted', input: 1 }],
    });
    const doc = (await call(fake, '/openapi.json')).json as { components: { schemas: { SearchRequest: Record<string, unknown> } } };
    expect(doc.components.schemas.SearchRequest['additionalProperties']).toBe(false);
  });

  test('strict-no-root-ids: root ids are unknown fields and absent from the OpenAPI schema', async () => {
    const fake = await start({ schema: 'strict-no-root-ids' });
    expect((await call(fake, '/search', { query: 'q', filters: { user_id: 'u1' } })).status).toBe(200);
    const answer = await call(fake, '/search', serverRestSearch);
    expect(answer.status).toBe(422);
    expect(answer.json['detail']).toEqual([{ type: 'extra_forbidden', loc: ['body', 'user_id'], msg: 'Extra inputs are not permitted', input: 'u1' }]);
    const doc = (await call(fake, '/openapi.json')).json as { components: { schemas: { SearchRequest: { properties: object } } } };
    expect(Object.keys(doc.components.schemas.SearchRequest.properties)).toEqual(['query', 'filters', 'top_k', 'threshold', 'explain', 'show_expired']);
  });
});

describe('startMem0ServerFake() body validation', () => {
  test.each([
    ['missing messages', '/memories', { user_id: 'u1' }, [{ type: 'missing', loc: ['body', 'messages'], msg: 'Field required', input: { user_id: 'u1' } }]],
    ['a string message list', '/memories', { messages: 'hi', user_id: 'u1' }, [{ type: 'list_type', loc: ['body', 'messages'], msg: 'Input should be a valid list', input: 'hi' }]],
    [
      'a message without content',
      '/memories',
      { messages: [{ role: 'user' }], user_id: 'u1' },
      [{ type: 'missing', loc: ['body', 'messages', 0, 'content'], msg: 'Field required', input: { role: 'user' } }],
    ],
    ['a boolean infer as string', '/memories', { ...directImport, infer: 'no' }, [{ type: 'bool_type', loc: ['body', 'infer'], msg: 'Input should be a valid boolean', input: 'no' }]],
    ['a missing query', '/search', { filters: { user_id: 'u1' } }, [{ type: 'missing', loc: ['body', 'query'], msg: 'Field required', input: { filters: { user_id: 'u1' } } }]],
    ['a string top_k', '/search', { ...serverRestSearch, top_k: '5' }, [{ type: 'int_type', loc: ['body', 'top_k'], msg: 'Input should be a valid integer', input: '5' }]],
    ['a list body', '/search', [1], [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] }]],
  ])('422 list form for %s', async (_name, path, body, detail) => {
    const fake = await start();
    const answer = await call(fake, path, body);
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({ detail });
  });

  test('malformed JSON → 422 json_invalid; invalid UTF-8 → 400 parse error; a text body → 422', async () => {
    const fake = await start();
    const malformed = await call(fake, '/search', '{"query":');
    expect([malformed.status, (malformed.json['detail'] as { type: string }[])[0]?.type]).toEqual([422, 'json_invalid']);
    const res = await fetch(fake.url, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect([res.status, await res.json()]).toEqual([400, { detail: 'There was an error parsing the body' }]);
    const text = await call(fake, '/search', JSON.stringify(serverRestSearch), { 'x-api-key': KEY, 'content-type': 'text/plain' });
    expect((text.json['detail'] as { type: string }[])[0]?.type).toBe('model_attributes_type');
  });
});

describe('startMem0ServerFake() write option', () => {
  test('echo (stock default): verbatim memory per message, searchable afterwards', async () => {
    const fake = await start({ memories: [] });
    const answer = await call(fake, '/memories', directImport);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ results: [{ id: expect.any(String), memory: 'Use pnpm.', event: 'ADD', actor_id: null, role: 'user' }] });
    expect(ids(await call(fake, '/search', serverRestSearch))).toEqual(ids(answer));
    expect(fake.memories[0]).toMatchObject({ memory: 'Use pnpm.', user_id: 'u1', agent_id: 'qwen-code' });
  });

  test('add without a truthy identifier → 400 with the stock text', async () => {
    const fake = await start();
    for (const body of [
      { messages: directImport.messages, infer: false },
      { ...directImport, user_id: '', agent_id: '' },
    ]) {
      const answer = await call(fake, '/memories', body);
      expect([answer.status, answer.json]).toEqual([400, { detail: ADD_IDENTIFIER_REQUIRED }]);
    }
  });

  test('encoded-echo stores the message list as one memory with infer:false and echoes it', async () => {
    const fake = await start({ write: 'encoded-echo', memories: [] });
    const answer = await call(fake, '/memories', directImport);
    const encoded = '[{"role":"user","content":"Use pnpm."}]';
    expect(answer.json).toEqual({ results: [{ id: expect.any(String), memory: encoded, event: 'ADD' }] });
    const found = (await call(fake, '/search', serverRestSearch)).json['results'] as Record<string, unknown>[];
    expect(found[0]).toMatchObject({ memory: encoded, infer: false });
  });

  test.each([
    ['id-only', { results: [{ id: expect.any(String) }] }],
    ['rewrite', { results: [{ id: expect.any(String), memory: 'User said: Use pnpm.', event: 'ADD', actor_id: null, role: 'user' }] }],
    ['delete-event', { results: [{ id: expect.any(String), memory: 'Use pnpm.', event: 'DELETE' }] }],
  ] as const)('%s answers as documented', async (write, expected) => {
    const fake = await start({ write });
    expect((await call(fake, '/memories', directImport)).json).toEqual(expected);
  });

  test('infer true extracts a rewritten memory and answers [] for an exact repeat', async () => {
    const fake = await start({ memories: [] });
    const inferred = { messages: directImport.messages, user_id: 'u1' };
    expect(((await call(fake, '/memories', inferred)).json['results'] as { memory: string }[])[0]?.memory).toBe('User said: Use pnpm.');
    expect((await call(fake, '/memories', inferred)).json).toEqual({ results: [] });
  });
});

describe('startMem0ServerFake() legacy2025', () => {
  test('a trailing slash gets 307 to the slash-less URL', async () => {
    const fake = await start({ legacy2025: true });
    const answer = await call(fake, '/search/', serverRestSearch);
    expect(answer.status).toBe(307);
    expect(answer.headers.get('location')).toBe(`${fake.origin}/search`);
    expect((await call(fake, '/unknown/', serverRestSearch)).status).toBe(404);
  });

  test('a filters-only search → 500; a root-id search works; no x-request-id', async () => {
    const fake = await start({ legacy2025: true });
    const filtersOnly = await call(fake, '/search', { query: 'q', filters: { user_id: 'u1' } });
    expect([filtersOnly.status, filtersOnly.json]).toEqual([500, { detail: SCOPE_ERRORS.rootIdRequired }]);
    const both = await call(fake, '/search', serverRestSearch);
    expect(ids(both)).toEqual(['m1', 'm2']);
    expect(both.headers.get('x-request-id')).toBeNull();
  });

  test('infer:false is dropped, so the memory is rewritten; handler 400s become 500s', async () => {
    const fake = await start({ legacy2025: true });
    expect(((await call(fake, '/memories', directImport)).json['results'] as { memory: string }[])[0]?.memory).toBe('User said: Use pnpm.');
    expect((await call(fake, '/memories', { messages: directImport.messages })).status).toBe(500);
  });

  test('is refused on the polardb table', async () => {
    await expect(startMem0ServerFake({ apiKey: KEY, routes: 'polardb', legacy2025: true })).rejects.toThrow(RangeError);
  });
});

describe('startMem0ServerFake() polardb table (not verified against a live instance)', () => {
  const token = { authorization: `Token ${KEY}` };
  const polardbSearch = { query: 'deployment policy', top_k: 5, agent_id: 'qwen-code', filters: { user_id: 'u1' } };

  test('routes are POST /v2/memories/search and POST /v1/memories; the stock paths are 404', async () => {
    const fake = await start({ routes: 'polardb' });
    expect(fake.url).toBe(`${fake.origin}/v2/memories/search`);
    expect(fake.writeUrl).toBe(`${fake.origin}/v1/memories`);
    const answer = await call(fake, '/v2/memories/search', polardbSearch, token);
    expect(ids(answer)).toEqual(['m2']);
    expect(answer.headers.get('x-request-id')).toBeNull();
    for (const path of ['/search', '/memories', '/v2/memories/search/', '/v1/memories/', '/openapi.json']) {
      expect((await call(fake, path, polardbSearch, token)).status).toBe(404);
    }
    expect((await call(fake, '/openapi.json', undefined, {})).status).toBe(404);
  });

  test('auth is exactly Authorization: Token <key>', async () => {
    const fake = await start({ routes: 'polardb' });
    for (const headers of [{}, { 'x-api-key': KEY }, { authorization: `Bearer ${KEY}` }, { authorization: 'Token other' }]) {
      const answer = await call(fake, '/v2/memories/search', polardbSearch, headers);
      expect([answer.status, answer.headers.get('www-authenticate')]).toEqual([401, 'Token']);
    }
  });

  test('default write is encoded-echo; search decodes nothing and returns infer:false', async () => {
    const fake = await start({ routes: 'polardb', memories: [] });
    const answer = await call(fake, '/v1/memories', directImport, token);
    expect((answer.json['results'] as { memory: string }[])[0]?.memory).toBe('[{"role":"user","content":"Use pnpm."}]');
    const found = (await call(fake, '/v2/memories/search', polardbSearch, token)).json['results'] as Record<string, unknown>[];
    expect(found[0]).toMatchObject({ infer: false, agent_id: 'qwen-code' });
  });

  test('async_mode true answers a job_id and stores nothing', async () => {
    const fake = await start({ routes: 'polardb', memories: [] });
    expect((await call(fake, '/v1/memories', { ...directImport, async_mode: true }, token)).json).toEqual({ job_id: expect.any(String) });
    expect(fake.memories).toHaveLength(0);
  });

  test('openapi: true serves SearchMemoryRequest; strict-no-root-ids rejects a root agent_id', async () => {
    const fake = await start({ routes: 'polardb', openapi: true, schema: 'strict-no-root-ids' });
    const doc = (await call(fake, '/openapi.json', undefined, {})).json as { components: { schemas: Record<string, Record<string, unknown>> } };
    const schema = doc.components.schemas['SearchMemoryRequest'] ?? {};
    expect(Object.keys(schema['properties'] as object)).toEqual(['query', 'top_k', 'filters', 'threshold', 'output_format']);
    expect(schema['additionalProperties']).toBe(false);
    const answer = await call(fake, '/v2/memories/search', polardbSearch, token);
    expect(answer.status).toBe(422);
    expect((answer.json['detail'] as { type: string; loc: unknown[] }[])[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'agent_id'] });
  });

  test('options of the stock table work here too: merge scope, limit field, echo writes', async () => {
    const fake = await start({ routes: 'polardb', scope: 'merge', limitField: 'limit', write: 'echo' });
    expect(ids(await call(fake, '/v2/memories/search', { query: 'q', limit: 1, user_id: 'u1' }, token))).toEqual(['m1']);
    expect(((await call(fake, '/v1/memories', directImport, token)).json['results'] as { memory: string }[])[0]?.memory).toBe('Use pnpm.');
  });
});
