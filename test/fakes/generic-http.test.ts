// The Generic HTTP Search V1 fake is strict about path, method, auth and body shape.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { GENERIC_ERRORS, startGenericHttpFake, type GenericHttpFake } from './generic-http.ts';

const TOKEN = 'generic-token-1';
const ITEMS = [{ id: 'a', content: 'Alpha' }, { id: 'b', content: 'Beta', score: 0.5 }, 'not an object'];
let fake: GenericHttpFake;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: ITEMS });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function search(body: unknown, init: { path?: string; method?: string; auth?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.auth !== null) headers['authorization'] = init.auth ?? `Bearer ${TOKEN}`;
  const method = init.method ?? 'POST';
  return fetch(`${fake.origin}${init.path ?? '/v1/context/search'}`, {
    method,
    headers,
    ...(method === 'GET' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

describe('startGenericHttpFake()', () => {
  test('answers an exact search with the seeded items verbatim, not cut to limit', async () => {
    expect(fake.url).toBe(`${fake.origin}/v1/context/search`);
    const res = await search({ query: 'alpha', limit: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: ITEMS });
    expect(fake.requests[0]?.json).toEqual({ query: 'alpha', limit: 1 });
  });

  test('setItems() changes the answer and survives reset()', async () => {
    fake.setItems([]);
    fake.reset();
    expect(await (await search({ query: 'x', limit: 5 })).json()).toEqual({ items: [] });
    fake.setItems(ITEMS);
  });

  test.each([
    ['a trailing slash', { path: '/v1/context/search/' }],
    ['a query string', { path: '/v1/context/search?x=1' }],
    ['another path', { path: '/v1/context' }],
    ['GET on the search path', { method: 'GET' }],
    ['PUT on the search path', { method: 'PUT' }],
  ])('404 Not found. for %s', async (_name, init) => {
    const res = await search({ query: 'x', limit: 5 }, init);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: GENERIC_ERRORS.notFound });
  });

  test.each([
    ['no authorization', null],
    ['a wrong token', 'Bearer other'],
    ['the Token scheme', `Token ${TOKEN}`],
    ['a lower-case scheme', `bearer ${TOKEN}`],
  ])('401 with WWW-Authenticate for %s', async (_name, auth) => {
    const res = await search({ query: 'x', limit: 5 }, { auth });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({ error: GENERIC_ERRORS.unauthorized });
  });

  test.each([
    ['malformed JSON', '{"query":', GENERIC_ERRORS.invalidJson],
    ['an empty body', '', GENERIC_ERRORS.invalidJson],
    ['a top-level array', '[]', GENERIC_ERRORS.invalidShape],
    ['an extra field', { query: 'x', limit: 5, tenant: 't' }, GENERIC_ERRORS.invalidShape],
    ['a missing limit', { query: 'x' }, GENERIC_ERRORS.invalidShape],
    ['limit 0', { query: 'x', limit: 0 }, GENERIC_ERRORS.invalidShape],
    ['limit 6', { query: 'x', limit: 6 }, GENERIC_ERRORS.invalidShape],
    ['a string limit', { query: 'x', limit: '5' }, GENERIC_ERRORS.invalidShape],
    ['a blank query', { query: '  ', limit: 5 }, GENERIC_ERRORS.invalidShape],
    ['a 2001 code-point query', { query: '😀'.repeat(2001), limit: 5 }, GENERIC_ERRORS.invalidShape],
  ])('400 for %s', async (_name, body, text) => {
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: text });
  });

  test('400 for invalid UTF-8 in an otherwise valid body', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"query":"'), 0xff, ...new TextEncoder().encode('","limit":5}')]);
    const res = await fetch(fake.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: bytes });
    expect(res.status).toBe(400);
  });

  test('accepts a 2000 code-point query', async () => {
    expect((await search({ query: '😀'.repeat(2000), limit: 5 })).status).toBe(200);
  });
});
