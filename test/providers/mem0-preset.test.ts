// The `mem0` preset adapter: exact bodies and headers per preset (providers.md §5.4), search
// and Direct Import write against the strict Mem0 fakes, and §6 classification end to end.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { PRESETS, type PresetId, type ScopeKey } from '../../src/config/presets.ts';
import { buildSearchRequest, buildWriteRequest, createMem0PresetProvider, parseSearchResponse, type Mem0Target } from '../../src/providers/mem0-preset.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';
import type { BoundProvider, RememberResult } from '../../src/providers/types.ts';
import { startFakeServer, timeoutAfterRequests, type FakeServer } from '../fakes/fake-server.ts';
import { startMem0PlatformFake, type Mem0PlatformFake } from '../fakes/mem0-platform.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY_CREDENTIAL, mem0Binding, testSignal } from '../support/provider-bindings.ts';

const QUERY = 'deployment policy';
const CONTENT = 'Use pnpm.';
const FULL_SCOPE = { userId: 'u1', agentId: 'qwen-code', appId: 'repository-memory' } as const;
const SCOPES: Readonly<Record<PresetId, Readonly<Partial<Record<ScopeKey, string>>>>> = {
  'mem0-platform-v3': { appId: 'repository-memory' },
  'mem0-server-rest-2026-08': { userId: 'u1', agentId: 'qwen-code' },
  'polardb-mysql-2026-08': { userId: 'u1', agentId: 'qwen-code' },
};

const target = (preset: PresetId, scope: Readonly<Partial<Record<ScopeKey, string>>> = FULL_SCOPE): Mem0Target => ({
  preset: PRESETS[preset],
  searchUrl: `https://m.example${PRESETS[preset].searchPath}`,
  writeUrl: `https://m.example${PRESETS[preset].writePath}`,
  scope,
  credential: 'k',
});

describe('buildSearchRequest() exact bodies (providers.md §5.4)', () => {
  test.each<[PresetId, string, string]>([
    ['mem0-platform-v3', '{"query":"deployment policy","top_k":5,"threshold":0.1,"rerank":false,"filters":{"app_id":"repository-memory"}}', 'Token k'],
    ['mem0-server-rest-2026-08', '{"query":"deployment policy","top_k":5,"user_id":"u1","agent_id":"qwen-code","filters":{"user_id":"u1","agent_id":"qwen-code"}}', 'k'],
    ['polardb-mysql-2026-08', '{"query":"deployment policy","top_k":5,"agent_id":"qwen-code","filters":{"user_id":"u1"}}', 'Token k'],
  ])('%s', (preset, body, credentialValue) => {
    const request = buildSearchRequest(target(preset), QUERY, 5);
    expect(request.body).toBe(body);
    expect(request.url).toBe(`https://m.example${PRESETS[preset].searchPath}`);
    expect(request.credential).toEqual({ name: preset === 'mem0-server-rest-2026-08' ? 'x-api-key' : 'authorization', value: credentialValue });
  });

  test('without agentId', () => {
    expect(buildSearchRequest(target('mem0-server-rest-2026-08', { userId: 'u1' }), QUERY, 5).body).toBe('{"query":"deployment policy","top_k":5,"user_id":"u1","filters":{"user_id":"u1"}}');
    expect(buildSearchRequest(target('polardb-mysql-2026-08', { userId: 'u1' }), QUERY, 5).body).toBe('{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1"}}');
  });

  test('the limit sent is min(limit, 5)', () => {
    expect(JSON.parse(buildSearchRequest(target('polardb-mysql-2026-08'), QUERY, 99).body).top_k).toBe(5);
    expect(JSON.parse(buildSearchRequest(target('polardb-mysql-2026-08'), QUERY, 3).body).top_k).toBe(3);
  });
});

describe('buildWriteRequest() exact bodies (providers.md §5.4)', () => {
  test.each<[PresetId, string]>([
    ['mem0-platform-v3', '{"messages":[{"role":"user","content":"Use pnpm."}],"infer":false,"app_id":"repository-memory"}'],
    ['mem0-server-rest-2026-08', '{"messages":[{"role":"user","content":"Use pnpm."}],"infer":false,"user_id":"u1","agent_id":"qwen-code"}'],
    ['polardb-mysql-2026-08', '{"messages":[{"role":"user","content":"Use pnpm."}],"infer":false,"user_id":"u1","agent_id":"qwen-code"}'],
  ])('%s', (preset, body) => {
    const request = buildWriteRequest(target(preset), CONTENT);
    expect(request.body).toBe(body);
    expect(request.url).toBe(`https://m.example${PRESETS[preset].writePath}`);
  });

  test('without agentId both writes drop agent_id; content is never modified', () => {
    const content = '  Line one\n\t"quoted" 𝄞  ';
    for (const preset of ['mem0-server-rest-2026-08', 'polardb-mysql-2026-08'] as const) {
      expect(buildWriteRequest(target(preset, { userId: 'u1' }), content).body).toBe(`{"messages":[{"role":"user","content":${JSON.stringify(content)}}],"infer":false,"user_id":"u1"}`);
    }
  });
});

describe('parseSearchResponse()', () => {
  test('the stock server falls back to content; the Platform reads memory only', () => {
    const value = { results: [{ id: 'a', content: 'from content' }] };
    expect(parseSearchResponse(value, PRESETS['mem0-server-rest-2026-08'])).toEqual([{ id: 'a', content: 'from content' }]);
    expect(parseSearchResponse(value, PRESETS['mem0-platform-v3'])).toEqual([]);
  });
});

describe('createMem0PresetProvider() construction', () => {
  test('the allowInsecureHttp hint, and the flag keeping basePath', () => {
    const hint = 'Provider URL must use HTTPS or loopback HTTP; set "allowInsecureHttp": true to permit plain HTTP for this provider. Field: provider.endpoint.origin.';
    const insecure = mem0Binding('polardb-mysql-2026-08', 'http://192.0.2.1:8080', SCOPES['polardb-mysql-2026-08'], { basePath: '/mem0' });
    expect(() => createMem0PresetProvider(insecure)).toThrow(new ConfigError(hint, 'provider.endpoint.origin'));
    const allowed = createMem0PresetProvider(mem0Binding('polardb-mysql-2026-08', 'http://192.0.2.1:8080', SCOPES['polardb-mysql-2026-08'], { basePath: '/mem0', allowInsecureHttp: true }));
    expect(allowed.searchUrl).toBe('http://192.0.2.1:8080/mem0/v2/memories/search');
    expect(allowed.writeUrl).toBe('http://192.0.2.1:8080/mem0/v1/memories');
    for (const origin of ['http://[::1]:8080', 'http://localhost:8080']) {
      expect(createMem0PresetProvider(mem0Binding('mem0-server-rest-2026-08', origin, SCOPES['mem0-server-rest-2026-08'])).origin).toBe(origin);
    }
  });

  test('origin policy runs before basePath; basePath errors name their field', () => {
    const both = mem0Binding('mem0-server-rest-2026-08', 'https://m.example/x', SCOPES['mem0-server-rest-2026-08'], { basePath: 'bad' });
    expect(() => createMem0PresetProvider(both)).toThrow('Provider URL must not contain credentials, path, query, or fragment. Field: provider.endpoint.origin.');
    const basePath = mem0Binding('mem0-server-rest-2026-08', 'https://m.example', SCOPES['mem0-server-rest-2026-08'], { basePath: '/a/../b' });
    let error: unknown;
    try {
      createMem0PresetProvider(basePath);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe('External context Mem0 endpoint basePath is invalid: it must not contain a "." or ".." segment. Field: provider.endpoint.basePath.');
    expect((error as ConfigError).fieldPath).toBe('provider.endpoint.basePath');
  });

  test('a writer per preset when writes are enabled; writeUrl either way', () => {
    for (const preset of Object.keys(SCOPES) as PresetId[]) {
      const enabled = createMem0PresetProvider(mem0Binding(preset, 'https://m.example', SCOPES[preset]));
      expect(typeof enabled.remember).toBe('function');
      expect(enabled.writeUrl).toBe(`https://m.example${PRESETS[preset].writePath}`);
      const disabled = createMem0PresetProvider(mem0Binding(preset, 'https://m.example', SCOPES[preset], { writeEnabled: false }));
      expect(disabled.remember).toBeUndefined();
      expect(disabled.writeUrl).toBe(enabled.writeUrl);
    }
  });
});

describe('basePath on the wire', () => {
  let raw: FakeServer;
  beforeAll(async () => {
    raw = await startFakeServer({ handler: (request) => ({ status: 200, json: request.path.endsWith('search') ? { results: [] } : { results: [{ id: 'm1' }] } }) });
  });
  afterAll(() => raw.close());

  test('one trailing slash is removed and the prefix applies to search and write', async () => {
    const provider = createMem0PresetProvider(mem0Binding('polardb-mysql-2026-08', raw.origin, SCOPES['polardb-mysql-2026-08'], { basePath: '/proxy/' }));
    await provider.search({ query: QUERY, limit: 5, signal: testSignal() });
    expect(await provider.remember!({ content: CONTENT, signal: testSignal() })).toEqual({ status: 'stored', providerOperationId: 'm1' });
    expect(raw.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /proxy/v2/memories/search', 'POST /proxy/v1/memories']);
  });
});

/** Runs the shared adapter suite against one fake. */
function adapterSuite(preset: PresetId, start: () => Promise<Mem0ServerFake | Mem0PlatformFake>, expectHeaders: (headers: Readonly<Record<string, string>>) => void): void {
  let fake: Mem0ServerFake | Mem0PlatformFake;
  let provider: BoundProvider;
  beforeAll(async () => {
    fake = await start();
    provider = createMem0PresetProvider(mem0Binding(preset, fake.origin, SCOPES[preset]));
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const remember = (content = CONTENT): Promise<RememberResult> => provider.remember!({ content, signal: testSignal() });

  test('search: exact path, credential header and body, one request', async () => {
    await provider.search({ query: QUERY, limit: 99, signal: testSignal() });
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.path).toBe(PRESETS[preset].searchPath);
    expect(request.text).toBe(buildSearchRequest(target(preset, SCOPES[preset]), QUERY, 5).body);
    expectHeaders(request.headers);
  });

  test('write: exact Direct Import request, stored with the returned id, one request', async () => {
    const result = await remember();
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.path).toBe(PRESETS[preset].writePath);
    expect(request.text).toBe(buildWriteRequest(target(preset, SCOPES[preset]), CONTENT).body);
    expectHeaders(request.headers);
    expect(result.status).toBe('stored');
  });

  test('two identical writes make two requests', async () => {
    await remember();
    await remember();
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.text).toBe(fake.requests[1]!.text);
  });

  test.each([400, 401, 403, 404, 405, 413, 415, 422])('write answered %i → failed, once', async (status) => {
    fake.override({ kind: 'reply', status, json: { detail: 'canary-body' } });
    expect(await remember()).toEqual({ status: 'failed', cause: `http-status ${status}` });
    expect(fake.requests).toHaveLength(1);
  });

  test.each([302, 408, 409, 429, 500])('write answered %i → unknown, once', async (status) => {
    fake.override(status === 302 ? { kind: 'redirect', status } : { kind: 'reply', status, json: {} });
    expect(await remember()).toEqual({ status: 'unknown', cause: `${status === 302 ? 'redirect' : 'http-status'} ${status}` });
    expect(fake.requests).toHaveLength(1);
  });

  test('malformed, oversized, destroyed and timed-out write responses → unknown', async () => {
    fake.override({ kind: 'reply', status: 200, body: '{"results":' }, { times: 1 });
    expect(await remember()).toEqual({ status: 'unknown', cause: 'invalid-json' });
    fake.override({ kind: 'endless', chunkBytes: 512 * 1024 }, { times: 1 });
    expect((await remember()).status).toBe('unknown');
    fake.override({ kind: 'reset-mid-body' }, { times: 1 });
    expect(await remember()).toEqual({ status: 'unknown', cause: 'connection-reset' });
    fake.override({ kind: 'stall-before-headers' }, { times: 1 });
    expect(await provider.remember!({ content: CONTENT, signal: timeoutAfterRequests(fake, 4, 50) })).toEqual({
      status: 'unknown',
      cause: 'timeout',
    });
    expect(fake.requests).toHaveLength(4);
  });

  test('a top-level array search response is rejected as invalid', async () => {
    fake.override({ kind: 'reply', status: 200, json: [{ id: 'a', memory: 'x' }] });
    let error: unknown;
    try {
      await provider.search({ query: QUERY, limit: 5, signal: testSignal() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('invalid-response');
  });

  test('a 404 search is rejected with its status', async () => {
    fake.override({ kind: 'reply', status: 404, json: {} });
    let error: unknown;
    try {
      await provider.search({ query: QUERY, limit: 5, signal: testSignal() });
    } catch (caught) {
      error = caught;
    }
    expect((error as ProviderError).status).toBe(404);
    expect((error as ProviderError).errorClass).toBe('rejected');
  });
}

describe('mem0-server-rest-2026-08 against the stock server fake', () => {
  adapterSuite(
    'mem0-server-rest-2026-08',
    () => startMem0ServerFake({ routes: 'stock', apiKey: CANARY_CREDENTIAL }),
    (headers) => {
      expect(headers['x-api-key']).toBe(CANARY_CREDENTIAL);
      expect(headers['authorization']).toBeUndefined();
    },
  );
});

describe('polardb-mysql-2026-08 against the PolarDB fake', () => {
  adapterSuite(
    'polardb-mysql-2026-08',
    () => startMem0ServerFake({ routes: 'polardb', apiKey: CANARY_CREDENTIAL }),
    (headers) => {
      expect(headers['authorization']).toBe(`Token ${CANARY_CREDENTIAL}`);
      expect(headers['x-api-key']).toBeUndefined();
    },
  );
});

describe('mem0-platform-v3 preset against the Platform fake', () => {
  adapterSuite(
    'mem0-platform-v3',
    () => startMem0PlatformFake({ apiKey: CANARY_CREDENTIAL }),
    (headers) => {
      expect(headers['authorization']).toBe(`Token ${CANARY_CREDENTIAL}`);
      expect(headers['x-api-key']).toBeUndefined();
    },
  );
});

describe('write classification end to end (results-id)', () => {
  let lastStoredId: string | undefined;
  async function writeWith(routes: 'stock' | 'polardb', write: 'echo' | 'encoded-echo' | 'id-only' | 'rewrite' | 'delete-event'): Promise<RememberResult> {
    const fake = await startMem0ServerFake({ routes, apiKey: CANARY_CREDENTIAL, write });
    try {
      const preset = routes === 'stock' ? 'mem0-server-rest-2026-08' : 'polardb-mysql-2026-08';
      const provider = createMem0PresetProvider(mem0Binding(preset, fake.origin, SCOPES[preset]));
      const result = await provider.remember!({ content: CONTENT, signal: testSignal() });
      lastStoredId = fake.memories.at(-1)?.id;
      return result;
    } finally {
      await fake.close();
    }
  }

  test('an echoed identical memory is stored with the returned id', async () => {
    const result = await writeWith('stock', 'echo');
    expect(result).toEqual({ status: 'stored', providerOperationId: lastStoredId! });
  });

  test('the PolarDB encoded echo is stored with the returned id', async () => {
    const result = await writeWith('polardb', 'encoded-echo');
    expect(result).toEqual({ status: 'stored', providerOperationId: lastStoredId! });
  });

  test('an id-only answer is stored (judged by its id)', async () => {
    const result = await writeWith('polardb', 'id-only');
    expect(result).toEqual({ status: 'stored', providerOperationId: lastStoredId! });
  });

  test('a rewritten memory and a DELETE event are unknown', async () => {
    expect(await writeWith('stock', 'rewrite')).toEqual({ status: 'unknown', cause: 'response-not-recognized' });
    expect(await writeWith('polardb', 'delete-event')).toEqual({ status: 'unknown', cause: 'response-not-recognized' });
  });

  describe('scripted answers', () => {
    let fake: Mem0ServerFake;
    let provider: BoundProvider;
    beforeAll(async () => {
      fake = await startMem0ServerFake({ routes: 'stock', apiKey: CANARY_CREDENTIAL });
      provider = createMem0PresetProvider(mem0Binding('mem0-server-rest-2026-08', fake.origin, SCOPES['mem0-server-rest-2026-08']));
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());
    const answer = async (json: unknown): Promise<RememberResult> => {
      fake.override({ kind: 'reply', status: 200, json }, { times: 1 });
      return provider.remember!({ content: CONTENT, signal: testSignal() });
    };

    test('a direct-import response with only event_id is unknown', async () => {
      expect((await answer({ event_id: 'evt-1' })).status).toBe('unknown');
      expect((await answer({ results: [{ event_id: 'evt-1' }] })).status).toBe('unknown');
    });

    test('root array, alternate root and non-array results are unknown', async () => {
      expect((await answer([{ id: 'mem-1', memory: CONTENT }])).status).toBe('unknown');
      expect((await answer({ data: { results: [{ id: 'mem-1' }] } })).status).toBe('unknown');
      expect((await answer({ results: { id: 'mem-1' } })).status).toBe('unknown');
    });

    test('an id of 256 code points is stored, 257 unknown', async () => {
      const id256 = '𝄞'.repeat(256);
      expect(await answer({ results: [{ id: id256, memory: CONTENT }] })).toEqual({ status: 'stored', providerOperationId: id256 });
      expect((await answer({ results: [{ id: '𝄞'.repeat(257), memory: CONTENT }] })).status).toBe('unknown');
    });
  });
});

describe('search items end to end', () => {
  test('an item without a usable content field is dropped', async () => {
    const fake = await startMem0ServerFake({
      routes: 'stock',
      apiKey: CANARY_CREDENTIAL,
      memories: [
        { id: 'a', memory: 5, user_id: 'u1' },
        { id: 'b', memory: 'Kept', user_id: 'u1' },
        { id: 'c', memory: '', user_id: 'u1' },
      ],
    });
    try {
      const provider = createMem0PresetProvider(mem0Binding('mem0-server-rest-2026-08', fake.origin, { userId: 'u1' }));
      expect((await provider.search({ query: QUERY, limit: 5, signal: testSignal() })).map((item) => item.id)).toEqual(['b']);
    } finally {
      await fake.close();
    }
  });

  test('a PolarDB item with infer:false and an encoded memory is decoded, one without infer:false is not', async () => {
    const encoded = JSON.stringify([{ role: 'user', content: CONTENT }]);
    const fake = await startMem0ServerFake({
      routes: 'polardb',
      apiKey: CANARY_CREDENTIAL,
      memories: [
        { id: 'decoded', memory: encoded, infer: false, user_id: 'u1', score: 0.9 },
        { id: 'raw', memory: encoded, user_id: 'u1', score: 0.8 },
      ],
    });
    try {
      const provider = createMem0PresetProvider(mem0Binding('polardb-mysql-2026-08', fake.origin, { userId: 'u1' }));
      const items = await provider.search({ query: QUERY, limit: 5, signal: testSignal() });
      expect(items.map((item) => [item.id, item.content])).toEqual([
        ['decoded', CONTENT],
        ['raw', encoded],
      ]);
    } finally {
      await fake.close();
    }
  });
});
