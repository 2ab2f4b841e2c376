// The legacy `mem0-platform-v3` type: the Platform preset at a fixed origin, reached in tests
// only through the in-process origin seam (providers.md §4, §6.2, §7).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createMem0PlatformV3Provider, MEM0_PLATFORM_ORIGIN } from '../../src/providers/mem0-platform-v3.ts';
import type { BoundProvider, RememberResult } from '../../src/providers/types.ts';
import { startMem0PlatformFake, type Mem0PlatformFake } from '../fakes/mem0-platform.ts';
import { CANARY_CREDENTIAL, platformBinding, testSignal } from '../support/provider-bindings.ts';

const APP_ID = 'repository-memory';
let fake: Mem0PlatformFake;
let provider: BoundProvider;

beforeAll(async () => {
  fake = await startMem0PlatformFake({
    apiKey: CANARY_CREDENTIAL,
    memories: [
      { id: 'm1', memory: 'Use pnpm.', app_id: APP_ID, score: 0.9 },
      { id: 'm2', memory: 'Other app', app_id: 'other', score: 0.9 },
      { id: 'm3', memory: { text: 'not a string' }, app_id: APP_ID, score: 0.8 },
    ],
  });
  provider = createMem0PlatformV3Provider(platformBinding(APP_ID), { platformOriginForTests: fake.origin });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const remember = (content = 'Run tests before pushing.'): Promise<RememberResult> => provider.remember!({ content, signal: testSignal() });

describe('createMem0PlatformV3Provider()', () => {
  test('without the seam the origin is fixed to https://api.mem0.ai', () => {
    const fixed = createMem0PlatformV3Provider(platformBinding(APP_ID));
    expect(MEM0_PLATFORM_ORIGIN).toBe('https://api.mem0.ai');
    expect(fixed.origin).toBe('https://api.mem0.ai');
    expect(fixed.searchUrl).toBe('https://api.mem0.ai/v3/memories/search/');
    expect(fixed.writeUrl).toBe('https://api.mem0.ai/v3/memories/add/');
    expect(fixed.proxy).toBe('direct');
  });

  test('a writer exists only when writes are enabled', () => {
    expect(typeof provider.remember).toBe('function');
    expect(createMem0PlatformV3Provider(platformBinding(APP_ID, { writeEnabled: false }), { platformOriginForTests: fake.origin }).remember).toBeUndefined();
  });

  test('search: path, Token auth and body exact, limit 99 capped to 5, content from memory', async () => {
    const items = await provider.search({ query: 'deployment policy', limit: 99, signal: testSignal() });
    expect(items).toEqual([{ id: 'm1', content: 'Use pnpm.', score: 0.9, updatedAt: '2026-01-15T10:30:00Z' }]);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.path).toBe('/v3/memories/search/');
    expect(request.headers['authorization']).toBe(`Token ${CANARY_CREDENTIAL}`);
    expect(request.text).toBe('{"query":"deployment policy","top_k":5,"threshold":0.1,"rerank":false,"filters":{"app_id":"repository-memory"}}');
  });

  test('write: path and body exact, one request, stored', async () => {
    const result = await remember();
    expect(result.status).toBe('stored');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe('/v3/memories/add/');
    expect(fake.requests[0]!.text).toBe('{"messages":[{"role":"user","content":"Run tests before pushing."}],"infer":false,"app_id":"repository-memory"}');
  });

  test('a repeat of a memory already in the scope answers results: [] and is unknown', async () => {
    expect(await remember('Use pnpm.')).toEqual({ status: 'unknown', cause: 'response-not-recognized' });
  });

  test('two identical writes make two requests; the deduplicated second one is unknown', async () => {
    expect((await remember('Prefer small commits.')).status).toBe('stored');
    expect(await remember('Prefer small commits.')).toEqual({ status: 'unknown', cause: 'response-not-recognized' });
    expect(fake.requests).toHaveLength(2);
  });

  const answer = async (json: unknown): Promise<RememberResult> => {
    fake.override({ kind: 'reply', status: 200, json }, { times: 1 });
    return remember();
  };

  test('the §6.2 mapping table through the adapter', async () => {
    expect(await answer({ status: 'SUCCEEDED' })).toEqual({ status: 'stored' });
    expect(await answer({ status: 'SUCCEEDED', event_id: 'evt-9' })).toEqual({ status: 'stored', providerOperationId: 'evt-9' });
    expect(await answer({ status: 'PENDING', event_id: 'event-1' })).toEqual({ status: 'accepted', providerOperationId: 'event-1' });
    expect((await answer({ status: 'PENDING' })).status).toBe('unknown');
    expect((await answer({ status: 'PENDING', event_id: '' })).status).toBe('unknown');
    expect((await answer({ status: 'SUCCEEDED', event_id: 'e\u0000' })).status).toBe('unknown');
    expect((await answer({ status: 'UNKNOWN' })).status).toBe('unknown');
    expect((await answer({})).status).toBe('unknown');
    expect((await answer([])).status).toBe('unknown');
    expect((await answer({ status: 'FAILED' })).status).toBe('failed');
    expect((await answer({ status: 'SUCCEEDED', results: [] })).status).toBe('unknown');
    expect((await answer({ status: 'SUCCEEDED', results: [{ id: 'x', data: { memory: 'Runs tests' }, event: 'ADD' }] })).status).toBe('unknown');
  });

  test.each([400, 401, 403, 404, 405, 413, 415, 422])('%i → failed once', async (status) => {
    fake.override({ kind: 'reply', status, json: {} });
    expect(await remember()).toEqual({ status: 'failed', cause: `http-status ${status}` });
    expect(fake.requests).toHaveLength(1);
  });

  test.each([302, 408, 409, 429, 500])('%i → unknown once', async (status) => {
    fake.override(status === 302 ? { kind: 'redirect', status } : { kind: 'reply', status, json: {} });
    expect(await remember()).toEqual({ status: 'unknown', cause: `${status === 302 ? 'redirect' : 'http-status'} ${status}` });
    expect(fake.requests).toHaveLength(1);
  });

  test('a wrong API key is rejected 401 on search and failed on write', async () => {
    const wrong = createMem0PlatformV3Provider(platformBinding(APP_ID, { credential: 'canary-wrong' }), { platformOriginForTests: fake.origin });
    await expect(wrong.search({ query: 'q', limit: 5, signal: testSignal() })).rejects.toMatchObject({ kind: 'http-status', status: 401 });
    expect(await wrong.remember!({ content: 'x', signal: testSignal() })).toEqual({ status: 'failed', cause: 'http-status 401' });
  });

  test('a top-level array search response is rejected', async () => {
    fake.override({ kind: 'reply', status: 200, json: [] });
    await expect(provider.search({ query: 'q', limit: 5, signal: testSignal() })).rejects.toMatchObject({ kind: 'invalid-response' });
  });
});
