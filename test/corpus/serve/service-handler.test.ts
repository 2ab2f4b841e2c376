// createServiceHandler() (docs/design/providers.md §8.2a): /healthz and /readyz without a token
// behind row 0, one observed entry per request with its outcome and item count, and no query or
// token in any entry; in-process against a real index.
import { afterAll, describe, expect, test } from 'bun:test';
import { openCorpusIndex } from '../../../src/corpus/serve/corpus-index.ts';
import { formatCorpusRequestLine, type CorpusRequestLogEntry } from '../../../src/corpus/serve/corpus-request-log.ts';
import { createServiceHandler } from '../../../src/corpus/serve/service-handler.ts';
import { indexSample } from '../sample-corpus.ts';

const corpus = await indexSample();
const index = await openCorpusIndex(corpus.dbPath, corpus.dir);
afterAll(() => {
  index.close();
  corpus.remove();
});

const TOKEN = 'canary-service-token-8a1b';
const QUERY = 'apples';
let reason: string | undefined;
const entries: CorpusRequestLogEntry[] = [];
const handler = createServiceHandler({
  tokens: [TOKEN],
  search: (query, limit) => index.search(query, limit),
  notReadyReason: async () => reason,
  allowedHosts: () => new Set(['127.0.0.1:8787']),
  observe: (entry) => entries.push(entry),
});

function request(path: string, init: RequestInit & { host?: string | null } = {}): Promise<Response> {
  const { host = '127.0.0.1:8787', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (host !== null) headers.set('host', host);
  return handler.fetch(new Request(`http://127.0.0.1:8787${path}`, { ...rest, headers }));
}

const search = (token: string, limit = 2): Promise<Response> =>
  request('/v1/context/search', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY, limit }) });

describe('createServiceHandler()', () => {
  test('answers /healthz and /readyz without a token, and /readyz 503 with the reason once not ready', async () => {
    expect(await (await request('/healthz')).text()).toBe('{"status":"ok"}');
    expect(await (await request('/readyz')).text()).toBe('{"status":"ready"}');
    reason = 'index-missing';
    const closed = await request('/readyz');
    expect([closed.status, await closed.text()]).toEqual([503, '{"status":"not-ready","reason":"index-missing"}']);
    reason = undefined;
    const foreign = await request('/readyz', { host: 'evil.example:8787' });
    expect([foreign.status, await foreign.text()]).toEqual([403, '{"error":"Host not allowed."}']);
    const post = await request('/healthz', { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await request('/healthz', { host: null })).status).toBe(400);
  });

  test('observes each request once: outcome by row, the item count of a search, never the query or the token', async () => {
    entries.length = 0;
    expect((await search(TOKEN)).status).toBe(200);
    expect((await search('wrong')).status).toBe(401);
    expect((await request('/v1/context/search', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{' })).status).toBe(400);
    expect((await request('/elsewhere')).status).toBe(404);
    expect(entries.map(({ status, outcome, items }) => ({ status, outcome, items }))).toEqual([
      { status: 200, outcome: 'ok', items: 2 },
      { status: 401, outcome: 'unauthorized', items: 0 },
      { status: 400, outcome: 'bad-request', items: 0 },
      { status: 404, outcome: 'not-found', items: 0 },
    ]);
    const lines = entries.flatMap((entry) => [formatCorpusRequestLine(entry, 'json'), formatCorpusRequestLine(entry, 'text')]).join('\n');
    for (const secret of [TOKEN, QUERY]) expect(lines).not.toContain(secret);
    expect(formatCorpusRequestLine({ time: 't', status: 200, outcome: 'ok', items: 2, ms: 3 }, 'text')).toBe('t 200 ok items=2 3ms');
    expect(formatCorpusRequestLine({ time: 't', status: 200, outcome: 'ok', items: 2, ms: 3 }, 'json')).toBe('{"time":"t","status":200,"outcome":"ok","items":2,"ms":3}');
    expect(formatCorpusRequestLine({ time: 't', status: 200, outcome: 'ok', items: 2, ms: 3 }, 'none')).toBeUndefined();
  });
});
