import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { CorpusError } from '../../../src/corpus/corpus-error.ts';
import { SEARCH_PATH } from '../../../src/corpus/serve/search-handler.ts';
import { ListenError, startCorpusService } from '../../../src/corpus/serve/start-corpus-service.ts';
import type { Listener } from '../../../src/runtime/listen-types.ts';
import { indexSample, type IndexedCorpus } from '../sample-corpus.ts';

const TOKEN = 'canary-token-service-51';
const AUTH = { authorization: `Bearer ${TOKEN}` };
let corpus: IndexedCorpus;
let service: Listener;

beforeAll(async () => {
  corpus = await indexSample();
  service = await startCorpusService({ dbPath: corpus.dbPath, cwd: '/', token: TOKEN, address: { hostname: '127.0.0.1', port: 0 } });
});
afterAll(async () => {
  await service.close();
  corpus.remove();
});

function call(init: RequestInit & { path?: string } = {}): Promise<Response> {
  return fetch(`${service.url}${init.path ?? SEARCH_PATH}`, init);
}

function search(body: string, headers: Record<string, string> = AUTH): Promise<Response> {
  return call({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

async function expectStatus(response: Response, status: number, error?: string): Promise<void> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error?: string };
  if (error !== undefined) expect(body.error).toBe(error);
}

async function expectStillServing(): Promise<void> {
  const response = await search(JSON.stringify({ query: 'hammer', limit: 5 }));
  expect(response.status).toBe(200);
  expect(((await response.json()) as { items: { id: string }[] }).items[0]?.id).toBe('docs/tools.md#tools:1');
}

const INVALID_REQUEST = 'Request must contain only a string query and an integer limit from 1 to 5.';

describe('startCorpusService()', () => {
  test('listens on 127.0.0.1 with port 0 and reports the bound port in its base URL', () => {
    expect(service.port).toBeGreaterThan(0);
    expect(service.url).toBe(`http://127.0.0.1:${service.port}`);
  });

  // providers.md §8.3: each row of the §8.2 table once, over real HTTP, then a valid search.
  const rows: [string, () => Promise<Response>, number, string][] = [
    ['wrong token', () => search(JSON.stringify({ query: 'x', limit: 1 }), { authorization: 'Bearer wrong' }), 401, 'Authentication required.'],
    ['missing token', () => search(JSON.stringify({ query: 'x', limit: 1 }), {}), 401, 'Authentication required.'],
    ['malformed JSON', () => search('{"query": "x", '), 400, 'Request body is not valid JSON.'],
    ['wrong types', () => search(JSON.stringify({ query: ['x'], limit: true })), 400, INVALID_REQUEST],
    ['extra fields', () => search(JSON.stringify({ query: 'x', limit: 1, namespace: 'n' })), 400, INVALID_REQUEST],
    ['limit 0', () => search(JSON.stringify({ query: 'x', limit: 0 })), 400, INVALID_REQUEST],
    ['limit 6', () => search(JSON.stringify({ query: 'x', limit: 6 })), 400, INVALID_REQUEST],
    ['an empty query', () => search(JSON.stringify({ query: '', limit: 1 })), 400, INVALID_REQUEST],
    ['a 65537-byte body', () => search('x'.repeat(65_537)), 413, 'Request body is too large.'],
    ['GET /', () => call({ path: '/' }), 404, 'Not found.'],
    ['another path', () => call({ method: 'POST', path: '/v1/context/other', headers: AUTH, body: '{}' }), 404, 'Not found.'],
    ['GET on the search path', () => call({ headers: AUTH }), 405, 'Method not allowed.'],
  ];
  for (const [name, send, status, error] of rows) {
    test(`answers ${name} with ${status} and keeps serving`, async () => {
      await expectStatus(await send(), status, error);
      await expectStillServing();
    });
  }

  test('answers FTS5 syntax characters with 200 and scores in [0, 1), best first', async () => {
    const response = await search(JSON.stringify({ query: 'apples" OR NEAR(pears* ^saw):', limit: 5 }));
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { score: number }[] };
    expect(items.length).toBeGreaterThan(1);
    for (const [i, item] of items.entries()) {
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThan(1);
      if (i > 0) expect(items[i - 1]!.score).toBeGreaterThanOrEqual(item.score);
    }
  });

  test('listens on IPv6 loopback [::1] with port 0', async () => {
    const v6 = await startCorpusService({ dbPath: corpus.dbPath, cwd: '/', token: TOKEN, address: { hostname: '::1', port: 0 } });
    try {
      expect(v6.url).toBe(`http://[::1]:${v6.port}`);
      const response = await fetch(`${v6.url}${SEARCH_PATH}`, { method: 'POST', headers: AUTH, body: JSON.stringify({ query: 'kiwis', limit: 1 }) });
      expect(((await response.json()) as { items: { id: string }[] }).items[0]?.id).toBe('notes.txt:1');
    } finally {
      await v6.close();
    }
  });

  test('throws ListenError when the port is taken and CorpusError when the index is missing', async () => {
    const taken = await startCorpusService({ dbPath: corpus.dbPath, cwd: '/', token: TOKEN, address: { hostname: '127.0.0.1', port: service.port } }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ListenError);
    const missing = await startCorpusService({ dbPath: 'missing.sqlite', cwd: corpus.dir, token: TOKEN, address: { hostname: '127.0.0.1', port: 0 } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CorpusError);
  });

  test('close() stops accepting connections', async () => {
    const other = await startCorpusService({ dbPath: corpus.dbPath, cwd: '/', token: TOKEN, address: { hostname: '127.0.0.1', port: 0 } });
    await other.close();
    expect(
      await fetch(`${other.url}/`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
  });
});
