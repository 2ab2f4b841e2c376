// The Generic HTTP Search V1 adapter against the strict loopback fake (providers.md §3, §7).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ConfigError } from '../../src/config/config-error.ts';
import { buildSearchRequest, createGenericHttpSearchV1Provider, parseSearchResponse } from '../../src/providers/generic-http-search-v1.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';
import type { BoundProvider } from '../../src/providers/types.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, genericBinding, testSignal } from '../support/provider-bindings.ts';
import { rejectionOf } from '../support/thrown-error.ts';

let fake: GenericHttpFake;
let provider: BoundProvider;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL });
  provider = createGenericHttpSearchV1Provider(genericBinding(fake.origin));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setItems([]);
});

const search = (query = 'deployment policy', limit = 5) => provider.search({ query, limit, signal: testSignal() });

function providerFailure(promise: Promise<unknown>): Promise<ProviderError> {
  return rejectionOf(ProviderError, promise);
}

describe('buildSearchRequest()', () => {
  test('body is exactly {query, limit:5} with a Bearer credential', () => {
    expect(buildSearchRequest('https://s.example/v1/context/search', 'tok', 'deployment policy')).toEqual({
      url: 'https://s.example/v1/context/search',
      credential: { name: 'authorization', value: 'Bearer tok' },
      body: '{"query":"deployment policy","limit":5}',
    });
  });

  test('sends the requested limit, at most 5, as the Mem0 adapters do (it was ignored)', () => {
    expect(buildSearchRequest('https://s.example/v1/context/search', 'tok', 'q', 3).body).toBe('{"query":"q","limit":3}');
    expect(buildSearchRequest('https://s.example/v1/context/search', 'tok', 'q', 9).body).toBe('{"query":"q","limit":5}');
  });
});

describe('parseSearchResponse()', () => {
  test('reads items and rejects a top-level array', () => {
    expect(parseSearchResponse({ items: [{ id: 'a', content: 'x' }] })).toEqual([{ id: 'a', content: 'x' }]);
    expect(() => parseSearchResponse([{ id: 'a', content: 'x' }])).toThrow(ProviderError);
  });
});

describe('createGenericHttpSearchV1Provider()', () => {
  test('binds the fixed path, no writer, direct route', () => {
    expect(provider.origin).toBe(fake.origin);
    expect(provider.searchUrl).toBe(`${fake.origin}/v1/context/search`);
    expect(provider.writeUrl).toBeUndefined();
    expect(provider.remember).toBeUndefined();
    expect(provider.proxy).toBe('direct');
  });

  test('search sends exactly {query, limit:5}, Bearer auth, accept JSON, one request', async () => {
    fake.setItems([{ id: 'a', content: 'Alpha', title: 'A', uri: 'docs/a.md', score: 0.9, updated_at: '2026-01-01T00:00:00Z' }]);
    const items = await search('deployment policy', 99);
    expect(items).toEqual([{ id: 'a', content: 'Alpha', title: 'A', uri: 'docs/a.md', score: 0.9, updatedAt: '2026-01-01T00:00:00Z' }]);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.text).toBe('{"query":"deployment policy","limit":5}');
    expect(request.headers['authorization']).toBe(`Bearer ${CANARY_CREDENTIAL}`);
    expect(request.headers['accept']).toBe('application/json');
    for (const selector of ['tenant', 'repository', 'namespace', 'filters', 'user_id']) expect(request.text).not.toContain(selector);
  });

  test('a wrong-typed optional field is dropped while the item is kept', async () => {
    fake.setItems([{ id: 'a', content: 'Alpha', title: 42, score: 'high' }]);
    expect(await search()).toEqual([{ id: 'a', content: 'Alpha' }]);
  });

  test('invalid items are filtered before the cap of 5', async () => {
    fake.setItems([{ id: '', content: 'x' }, { id: 'no-content' }, 'text', ...[1, 2, 3, 4, 5, 6].map((n) => ({ id: `d${n}`, content: `c${n}` }))]);
    expect((await search()).map((item) => item.id)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5']);
  });

  test('oversized raw fields reach the caller unchanged', async () => {
    const content = 'é'.repeat(100_000);
    fake.setItems([{ id: 'a', content, uri: 'u'.repeat(5000) }]);
    const [item] = await search();
    expect(item?.content).toBe(content);
    expect(item?.uri).toHaveLength(5000);
  });

  test('a top-level array answer and a missing items field are invalid', async () => {
    fake.override({ kind: 'reply', status: 200, json: [{ id: 'a', content: 'x' }] }, { times: 1 });
    expect((await providerFailure(search())).kind).toBe('invalid-response');
    fake.override({ kind: 'reply', status: 200, json: { results: [] } }, { times: 1 });
    expect((await providerFailure(search())).errorClass).toBe('invalid');
  });

  test('a 401 from a wrong credential is rejected with the status and no secret in the error', async () => {
    const wrong = createGenericHttpSearchV1Provider(genericBinding(fake.origin, 'canary-wrong-token'));
    const error = await providerFailure(wrong.search({ query: 'canary-query', limit: 5, signal: testSignal() }));
    expect(error.kind).toBe('http-status');
    expect(error.status).toBe(401);
    expect(`${error.message}${JSON.stringify(error)}`).not.toMatch(/canary|127\.0\.0\.1/);
  });

  test('HTTPS is required except loopback; credentials and paths are rejected with the field', () => {
    const cases: readonly [string, string][] = [
      ['http://search.example', 'Provider URL must use HTTPS or loopback HTTP. Field: provider.baseUrl.'],
      ['https://user:canary@search.example', 'Provider URL must not contain credentials, path, query, or fragment. Field: provider.baseUrl.'],
      ['https://search.example/v1', 'Provider URL must not contain credentials, path, query, or fragment. Field: provider.baseUrl.'],
    ];
    for (const [baseUrl, message] of cases) {
      expect(() => createGenericHttpSearchV1Provider(genericBinding(baseUrl))).toThrow(new ConfigError(message, 'provider.baseUrl'));
    }
    expect(createGenericHttpSearchV1Provider(genericBinding('https://search.example')).searchUrl).toBe('https://search.example/v1/context/search');
    expect(createGenericHttpSearchV1Provider(genericBinding('http://localhost:8787')).searchUrl).toBe('http://localhost:8787/v1/context/search');
  });

  test('rejects a binding of another type', () => {
    const binding = { ...genericBinding(fake.origin), provider: { type: 'mem0-platform-v3', apiKeyEnv: 'K', appId: 'a' } as const };
    expect(() => createGenericHttpSearchV1Provider(binding)).toThrow(TypeError);
  });
});
