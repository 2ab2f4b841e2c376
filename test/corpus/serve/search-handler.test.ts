import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openCorpusIndex, type CorpusIndex } from '../../../src/corpus/serve/corpus-index.ts';
import { createSearchHandler, SEARCH_PATH } from '../../../src/corpus/serve/search-handler.ts';
import { indexSample, type IndexedCorpus } from '../sample-corpus.ts';

const TOKEN = 'canary-token-4b1d';
const URL_BASE = 'http://127.0.0.1:8787';
const AUTH = { authorization: `Bearer ${TOKEN}` };
let corpus: IndexedCorpus;
let index: CorpusIndex;
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  corpus = await indexSample();
  index = await openCorpusIndex(corpus.dbPath, '/');
  handler = withHost(createSearchHandler({ token: TOKEN, search: (query, limit) => index.search(query, limit) }));
});
afterAll(() => {
  index.close();
  corpus.remove();
});

/** A request built in-process has no Host field, which a socket always brings (row 0): add the listener's. */
function withHost(inner: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return (request) => {
    const headers = new Headers(request.headers);
    if (!headers.has('host')) headers.set('host', new URL(URL_BASE).host);
    return inner(new Request(request, { headers }));
  };
}

function post(body: BodyInit | null, headers: Record<string, string> = AUTH, path = SEARCH_PATH): Promise<Response> {
  return handler(new Request(`${URL_BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
}

async function expectError(response: Response, status: number, text: string, headers: Record<string, string> = {}): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
  expect(await response.text()).toBe(JSON.stringify({ error: text }));
}

// After every error, a valid search still succeeds (providers.md §8.3).
async function expectStillServing(): Promise<void> {
  const response = await post(JSON.stringify({ query: 'apples', limit: 1 }));
  expect(response.status).toBe(200);
  expect(((await response.json()) as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(['docs/fruit.md#apples:1']);
}

const INVALID_REQUEST = 'Request must contain only a string query and an integer limit from 1 to 5.';

describe('createSearchHandler()', () => {
  test('answers a valid search with 200 and {items} of id, content, title, uri, score, updated_at in that order', async () => {
    const response = await post(JSON.stringify({ query: 'pears', limit: 5 }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const { items } = (await response.json()) as { items: Record<string, unknown>[] };
    expect(Object.keys(items[0] ?? {})).toEqual(['id', 'content', 'title', 'uri', 'score', 'updated_at']);
    expect(items.length).toBeLessThanOrEqual(5);
  });

  test('row 1: GET / answers 404 Not found.', async () => {
    await expectError(await handler(new Request(`${URL_BASE}/`)), 404, 'Not found.');
    await expectStillServing();
  });

  test('row 1: POST to another path answers 404 Not found. even with a valid token and body', async () => {
    await expectError(await post(JSON.stringify({ query: 'x', limit: 1 }), AUTH, '/v1/context/search/'), 404, 'Not found.');
    await expectStillServing();
  });

  test('row 2: GET on the search path answers 405 with Allow: POST', async () => {
    await expectError(await handler(new Request(`${URL_BASE}${SEARCH_PATH}`, { headers: AUTH })), 405, 'Method not allowed.', { allow: 'POST' });
    await expectStillServing();
  });

  test('row 3: a wrong token answers 401 with WWW-Authenticate: Bearer', async () => {
    await expectError(await post(JSON.stringify({ query: 'x', limit: 1 }), { authorization: `Bearer ${TOKEN}x` }), 401, 'Authentication required.', {
      'www-authenticate': 'Bearer',
    });
    await expectStillServing();
  });

  test('row 3: a missing token answers 401 before the body is looked at', async () => {
    await expectError(await post('not json', {}), 401, 'Authentication required.', { 'www-authenticate': 'Bearer' });
    await expectStillServing();
  });

  test('row 4: a 65537-byte body answers 413 (declared and streamed without content-length)', async () => {
    const body = JSON.stringify({ query: 'x'.repeat(65_537 - 22), limit: 1 });
    expect(new TextEncoder().encode(body).byteLength).toBe(65_537);
    await expectError(await post(body), 413, 'Request body is too large.');
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const streamed = new Request(`${URL_BASE}${SEARCH_PATH}`, { method: 'POST', headers: AUTH, body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.headers.get('content-length')).toBeNull();
    await expectError(await handler(streamed), 413, 'Request body is too large.');
    await expectStillServing();
  });

  test('row 5: malformed JSON and invalid UTF-8 answer 400 Request body is not valid JSON.', async () => {
    await expectError(await post('{"query":'), 400, 'Request body is not valid JSON.');
    await expectError(await post(new Uint8Array([0x22, 0xff, 0x22])), 400, 'Request body is not valid JSON.');
    await expectError(await post(''), 400, 'Request body is not valid JSON.');
    await expectStillServing();
  });

  test('row 6: wrong types answer 400 with the fixed text', async () => {
    await expectError(await post(JSON.stringify({ query: 5, limit: '1' })), 400, INVALID_REQUEST);
    await expectStillServing();
  });

  test('row 6: extra fields answer 400', async () => {
    await expectError(await post(JSON.stringify({ query: 'apples', limit: 1, filter: { user_id: 'u' } })), 400, INVALID_REQUEST);
    await expectStillServing();
  });

  test('row 6: limit 0 and limit 6 answer 400', async () => {
    await expectError(await post(JSON.stringify({ query: 'apples', limit: 0 })), 400, INVALID_REQUEST);
    await expectError(await post(JSON.stringify({ query: 'apples', limit: 6 })), 400, INVALID_REQUEST);
    await expectStillServing();
  });

  test('row 6: an empty query answers 400', async () => {
    await expectError(await post(JSON.stringify({ query: '', limit: 1 })), 400, INVALID_REQUEST);
    await expectStillServing();
  });

  test('row 7: a failing search answers 500 Search failed. without the error text', async () => {
    // The search function is the handler's parameter; a SQLite failure reaches it as this throw.
    const failing = withHost(
      createSearchHandler({
        token: TOKEN,
        search: () => {
          throw new Error('canary-internal-detail');
        },
      }),
    );
    const response = await failing(new Request(`${URL_BASE}${SEARCH_PATH}`, { method: 'POST', headers: AUTH, body: JSON.stringify({ query: 'x', limit: 1 }) }));
    await expectError(response, 500, 'Search failed.');
    await expectStillServing();
  });

  test('row 0: no Host, a repeated one (folded with a comma) or a malformed one answers an empty 400 before the path is read', async () => {
    const bare = createSearchHandler({ token: TOKEN, search: (query, limit) => index.search(query, limit) });
    const body = JSON.stringify({ query: 'x', limit: 1 });
    for (const host of [undefined, 'a, b', 'a/b', 'evil@127.0.0.1:8787', '127.0.0.1:99999', '']) {
      const headers: Record<string, string> = { ...AUTH, ...(host === undefined ? {} : { host }) };
      const response = await bare(new Request(`${URL_BASE}${SEARCH_PATH}`, { method: 'POST', headers, body }));
      expect({ host, status: response.status, body: await response.text() }).toEqual({ host, status: 400, body: '' });
    }
  });

  test('FTS5 syntax characters in the query answer 200, and a query of only punctuation gives no items', async () => {
    for (const query of ['"unbalanced', 'NEAR(a b)', 'title:apples', 'apples*', 'a OR', '^(){}[]:-+*"']) {
      const response = await post(JSON.stringify({ query, limit: 5 }));
      expect(response.status).toBe(200);
    }
    expect(await (await post(JSON.stringify({ query: '?!"*', limit: 5 }))).json()).toEqual({ items: [] });
  });

  test('no response body contains the token or the query', async () => {
    const query = 'canary-query-9c2e';
    for (const response of [await post(JSON.stringify({ query, limit: 9 })), await post(JSON.stringify({ query, limit: 1 }), { authorization: 'Bearer wrong' })]) {
      const text = await response.text();
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(query);
    }
  });
});
