// The common fake machinery: recording and every scripted override, exercised with fetch.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { jsonReply } from './reply.ts';

let fake: FakeServer;

beforeAll(async () => {
  fake = await startFakeServer({ handler: (request) => jsonReply(200, { echo: request.path }) });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function post(path: string, body = '{"q":1}', signal?: AbortSignal): Promise<Response> {
  return fetch(`${fake.origin}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: 'Token k' },
    redirect: 'manual',
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('startFakeServer()', () => {
  test('binds 127.0.0.1 on a free port and exposes origin and url', () => {
    expect(fake.origin).toBe(`http://127.0.0.1:${fake.port}`);
    expect(fake.url).toBe(`${fake.origin}/`);
    expect(fake.port).toBeGreaterThan(0);
  });

  test('records method, raw path and url, headers, raw bytes and parsed body', async () => {
    const res = await post('/a//b/?x=1', '{"q":"é"}');
    expect(await res.json()).toEqual({ echo: '/a//b/' });
    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/a//b/');
    expect(request?.url).toBe('/a//b/?x=1');
    expect(request?.headers['authorization']).toBe('Token k');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.rawHeaders).toContain('Token k');
    expect([...(request?.body ?? [])]).toEqual([...new TextEncoder().encode('{"q":"é"}')]);
    expect(request?.text).toBe('{"q":"é"}');
    expect(request?.json).toEqual({ q: 'é' });
    expect(request?.response.status).toBe(200);
    expect(request?.response.answeredBy).toBe('handler');
    await request?.response.settled;
    expect(request?.response.completed).toBe(true);
  });

  test('leaves json undefined for invalid JSON or invalid UTF-8 and joins repeated headers', async () => {
    await post('/x', '{not json');
    await fetch(`${fake.origin}/y`, { method: 'POST', body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    const headers = new Headers([
      ['x-api-key', 'a'],
      ['x-api-key', 'b'],
    ]);
    await fetch(`${fake.origin}/z`, { headers });
    expect(fake.requests[0]?.json).toBeUndefined();
    expect(fake.requests[1]?.json).toBeUndefined();
    expect(fake.requests[1]?.text).toBe('{\uFFFD}');
    expect(fake.requests[2]?.headers['x-api-key']).toBe('a, b');
  });

  test('reset() forgets requests and overrides; waitForRequests() resolves on arrival', async () => {
    fake.override({ kind: 'reply', status: 500 });
    await post('/x');
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    expect(fake.requests).toHaveLength(0);
    const waiting = fake.waitForRequests(1);
    expect((await post('/x')).status).toBe(200);
    await waiting;
    await expect(fake.waitForRequests(5, 50)).rejects.toThrow('1 of 5');
  });
});

describe('FakeServer.override()', () => {
  test('reply: fixed status, raw body bytes and extra headers; times and path limit it', async () => {
    fake.override({ kind: 'reply', status: 429, body: 'slow down', headers: { 'Retry-After': '1' } }, { times: 1, path: '/x' });
    expect((await post('/other')).status).toBe(200);
    const res = await post('/x');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('content-length')).toBe('9');
    expect(await res.text()).toBe('slow down');
    expect((await post('/x')).status).toBe(200);
    expect(fake.requests.map((r) => r.response.answeredBy)).toEqual(['handler', 'reply', 'handler']);
  });

  test('reply with json, and a declared content-length larger than the body', async () => {
    fake.override({ kind: 'reply', status: 200, json: { results: [] } }, { times: 1 });
    expect(await (await post('/x')).json()).toEqual({ results: [] });
    fake.override({ kind: 'stall-after-headers', headers: { 'content-length': '2000000' }, partial: '{}' });
    const res = await post('/x');
    expect(res.headers.get('content-length')).toBe('2000000');
    await res.body?.cancel();
  });

  test('reply may declare a content-length above 1 MiB, and sends exactly 1 MiB bodies', async () => {
    fake.override({ kind: 'reply', status: 200, headers: { 'content-length': '2000000' }, body: '{}' }, { times: 1 });
    const lying = await post('/x');
    expect(lying.headers.get('content-length')).toBe('2000000');
    await lying.body?.cancel();
    const exact = new Uint8Array(1048576).fill(0x20);
    exact[0] = 0x7b;
    exact[exact.length - 1] = 0x7d;
    fake.override({ kind: 'reply', status: 200, body: exact }, { times: 1 });
    const res = await post('/x');
    expect(res.headers.get('content-length')).toBe('1048576');
    expect(await res.json()).toEqual({});
  });

  test('passthrough adds headers to the service reply after a delay', async () => {
    fake.override({ kind: 'passthrough', headers: { 'x-extra': 'yes' }, delayMs: 20 });
    const res = await post('/p');
    expect(res.headers.get('x-extra')).toBe('yes');
    expect(await res.json()).toEqual({ echo: '/p' });
  });

  test('stall-before-headers never answers; the client timeout ends it and the fake sees the close', async () => {
    fake.override({ kind: 'stall-before-headers' });
    // The client gives up once the fake holds the request (an event, not a timer that could
    // fire before the request arrives).
    const client = new AbortController();
    const sent = post('/x', '{}', client.signal);
    await fake.waitForRequests(1, 30000);
    client.abort();
    await expect(sent).rejects.toThrow();
    const record = fake.requests[0];
    await record?.response.settled;
    expect(record?.response.status).toBeUndefined();
    expect(record?.response.clientClosed).toBe(true);
  });

  test('stall-after-headers sends headers and a partial body, then nothing', async () => {
    fake.override({ kind: 'stall-after-headers', partial: '{"items":' });
    const controller = new AbortController();
    const res = await post('/x', '{}', controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"items":');
    const next = reader.read();
    controller.abort();
    await expect(next).rejects.toThrow();
    await fake.requests[0]?.response.settled;
    expect(fake.requests[0]?.response.clientClosed).toBe(true);
  });

  test('endless streams chunks until the client cancels, and counts chunks written', async () => {
    fake.override({ kind: 'endless', chunkBytes: 512 * 1024 });
    const res = await post('/x');
    const reader = res.body!.getReader();
    let bytes = 0;
    while (bytes <= 1048576) {
      const { value } = await reader.read();
      bytes += value?.byteLength ?? 0;
    }
    await reader.cancel();
    const record = fake.requests[0]!;
    await record.response.settled;
    expect(record.response.clientClosed).toBe(true);
    expect(record.response.completed).toBe(false);
    expect(record.response.chunksWritten).toBeGreaterThanOrEqual(3);
    expect(record.response.bytesWritten).toBe(record.response.chunksWritten * 512 * 1024);
  });

  test('endless stops writing (stalls) after maxBytes', async () => {
    fake.override({ kind: 'endless', chunkBytes: 10, maxBytes: 30, fill: 0x61 });
    const res = await post('/x');
    const reader = res.body!.getReader();
    let text = '';
    while (text.length < 30) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toBe('a'.repeat(30));
    await reader.cancel();
    expect(fake.requests[0]?.response.chunksWritten).toBe(3);
  });

  test('chunked sends a transfer-encoded body in separate writes that reassemble', async () => {
    fake.override({ kind: 'chunked', chunks: ['{"items"', ':[', ']}'] });
    const res = await post('/x');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.json()).toEqual({ items: [] });
    expect(fake.requests[0]?.response.chunksWritten).toBe(3);
  });

  test('invalid-utf8 sends JSON whose string holds the bytes C3 28', async () => {
    fake.override({ kind: 'invalid-utf8' });
    const bytes = new Uint8Array(await (await post('/x')).arrayBuffer());
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const lossy = JSON.parse(new TextDecoder().decode(bytes)) as { items: unknown[]; results: unknown[] };
    expect(lossy.items).toHaveLength(1);
    expect(lossy.results).toHaveLength(1);
  });

  test('redirect answers 3xx with a location and is not followed by a manual client', async () => {
    fake.override({ kind: 'redirect' });
    const res = await post('/x');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${fake.origin}/redirected`);
    fake.override({ kind: 'redirect', status: 307, location: '/elsewhere' });
    expect((await post('/y')).headers.get('location')).toBe('/elsewhere');
    expect(fake.requests).toHaveLength(2);
  });

  test('reset-before-headers fails the fetch itself', async () => {
    fake.override({ kind: 'reset-before-headers' });
    await expect(post('/x')).rejects.toThrow();
    expect(fake.requests).toHaveLength(1);
  });

  test('reset-mid-body delivers headers then fails the body read', async () => {
    fake.override({ kind: 'reset-mid-body' });
    const res = await post('/x');
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(fake.requests[0]?.response.clientClosed).toBe(true);
  });

  test('empty-204 answers 204 with no body', async () => {
    fake.override({ kind: 'empty-204' });
    const res = await post('/x');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  test('close() ends stalled connections', async () => {
    const other = await startFakeServer();
    other.override({ kind: 'stall-before-headers' });
    const pending = fetch(`${other.origin}/x`).catch((error: unknown) => error);
    await other.waitForRequests(1);
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
