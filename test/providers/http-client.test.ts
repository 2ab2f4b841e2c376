// sendJsonRequest() and sendRawRequest() against a real loopback fake: exact request bytes and
// headers, and every row of the providers.md §1.2 response table.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';
import { sendJsonRequest, sendRawRequest, USER_AGENT, type ProviderRequest } from '../../src/providers/http-client.ts';
import { CANARY_CREDENTIAL, testSignal } from '../support/provider-bindings.ts';
import { rejectionOf } from '../support/thrown-error.ts';

const KIB = 1024;
const MIB = 1_048_576;
const DIRECT = { mode: 'direct' } as const;
const CANARY_QUERY = 'canary-query-5d1c';
/** Transport headers a runtime may add (providers.md §1.1). */
const TRANSPORT_HEADERS = ['host', 'content-length', 'accept-encoding', 'connection'];

let fake: FakeServer;

beforeAll(async () => {
  fake = await startFakeServer({ handler: () => ({ status: 200, json: { items: [] } }) });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function post(overrides: Partial<Extract<ProviderRequest, { method: 'POST' }>> = {}): Extract<ProviderRequest, { method: 'POST' }> {
  return {
    method: 'POST',
    url: `${fake.origin}/v1/context/search`,
    credential: { name: 'authorization', value: `Bearer ${CANARY_CREDENTIAL}` },
    body: JSON.stringify({ query: CANARY_QUERY, limit: 5 }),
    signal: testSignal(),
    proxy: DIRECT,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const providerError = await rejectionOf(ProviderError, promise);
  // No URL, header, body or underlying message ever rides along.
  const shown = `${providerError.message} ${JSON.stringify(providerError)} ${String(providerError.cause)}`;
  for (const secret of [CANARY_CREDENTIAL, CANARY_QUERY, fake.origin, '127.0.0.1']) expect(shown).not.toContain(secret);
  return providerError;
}

/** A JSON body of exactly `bytes` bytes: `{"items":[],"pad":"   …"}`. */
function jsonOfExactly(bytes: number): string {
  const shell = '{"items":[],"pad":""}';
  return shell.replace('""', `"${' '.repeat(bytes - shell.length)}"`);
}

describe('sendJsonRequest() request', () => {
  test('POST sends exactly the product headers and the body bytes, once', async () => {
    const response = await sendJsonRequest(post());
    expect(response).toEqual({ status: 200, value: { items: [] } });
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/context/search');
    expect(request.text).toBe(`{"query":"${CANARY_QUERY}","limit":5}`);
    expect(request.headers['accept']).toBe('application/json');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['authorization']).toBe(`Bearer ${CANARY_CREDENTIAL}`);
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^external-context\/\d+\.\d+\.\d+$/);
    const product = ['accept', 'content-type', 'authorization', 'user-agent'];
    const extra = Object.keys(request.headers).filter((name) => !product.includes(name) && !TRANSPORT_HEADERS.includes(name));
    expect(extra).toEqual([]);
  });

  test('an x-api-key credential is the only credential header', async () => {
    await sendJsonRequest(post({ credential: { name: 'x-api-key', value: CANARY_CREDENTIAL } }));
    const headers = fake.requests[0]!.headers;
    expect(headers['x-api-key']).toBe(CANARY_CREDENTIAL);
    expect(headers['authorization']).toBeUndefined();
  });

  test('the body is sent as UTF-8 byte for byte', async () => {
    const body = JSON.stringify({ query: 'naïve 𝄞 \u2028', limit: 5 });
    await sendJsonRequest(post({ body }));
    expect(fake.requests[0]!.body).toEqual(new TextEncoder().encode(body));
  });

  test('GET (the probe schema read) sends no body and no credential header', async () => {
    fake.override({ kind: 'reply', status: 200, json: { openapi: '3.1.0' } });
    const response = await sendJsonRequest({ method: 'GET', url: `${fake.origin}/openapi.json`, signal: testSignal(), proxy: DIRECT });
    expect(response.value).toEqual({ openapi: '3.1.0' });
    const request = fake.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.body.byteLength).toBe(0);
    expect(request.headers['accept']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    expect(request.headers['authorization']).toBeUndefined();
    expect(request.headers['x-api-key']).toBeUndefined();
    const extra = Object.keys(request.headers).filter((name) => !['accept', 'user-agent', ...TRANSPORT_HEADERS].includes(name));
    expect(extra).toEqual([]);
  });
});

describe('sendJsonRequest() response table', () => {
  test.each([301, 302, 303, 307, 308])('%i is an invalid response with the status; one request, not followed', async (status) => {
    fake.override({ kind: 'redirect', status, body: '{"items":[]}' });
    const error = await failure(sendJsonRequest(post()));
    expect(error.kind).toBe('redirect');
    expect(error.status).toBe(status);
    expect(error.message).toBe('External context provider returned an invalid response.');
    expect(fake.requests).toHaveLength(1);
    await Bun.sleep(20);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/context/search']);
  });

  test.each([429, 500, 400, 401, 404, 503])('%i is rejected with the status, exactly one request', async (status) => {
    fake.override({ kind: 'reply', status, json: { error: 'canary-upstream-body' } });
    const error = await failure(sendJsonRequest(post()));
    expect(error.kind).toBe('http-status');
    expect(error.status).toBe(status);
    expect(error.message).toBe('External context provider rejected the request.');
    expect(error.message).not.toContain('canary-upstream-body');
    expect(fake.requests).toHaveLength(1);
  });

  test('a declared content-length above 1 MiB is invalid before any read', async () => {
    fake.override({ kind: 'stall-after-headers', headers: { 'content-length': String(MIB + 1) }, partial: '{}' });
    const error = await failure(sendJsonRequest(post()));
    expect(error.kind).toBe('oversize');
    expect(error.errorClass).toBe('invalid');
  });

  test('a streamed body above 1 MiB (chunked, no content-length) is invalid', async () => {
    fake.override({ kind: 'chunked', chunks: ['{"items":[],"pad":"', ' '.repeat(600 * KIB), ' '.repeat(600 * KIB), '"}'] });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('oversize');
  });

  test('exactly 1 MiB is accepted, with content-length and chunked', async () => {
    const body = jsonOfExactly(MIB);
    expect(new TextEncoder().encode(body).byteLength).toBe(1_048_576);
    fake.override({ kind: 'reply', status: 200, body }, { times: 1 });
    expect((await sendJsonRequest(post())).value).toMatchObject({ items: [] });
    fake.override({ kind: 'chunked', chunks: [body.slice(0, 700 * KIB), body.slice(700 * KIB)] }, { times: 1 });
    expect((await sendJsonRequest(post())).value).toMatchObject({ items: [] });
  });

  test('1 MiB + 1 byte is rejected', async () => {
    fake.override({ kind: 'chunked', chunks: [jsonOfExactly(MIB + 1)] });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('oversize');
  });

  test('an endless stream of 512 KiB chunks is rejected and the connection is closed', async () => {
    fake.override({ kind: 'endless', chunkBytes: 512 * KIB });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('oversize');
    const record = fake.requests[0]!.response;
    await record.settled;
    expect(record.clientClosed).toBe(true);
    expect(record.completed).toBe(false);
  });

  test('a multi-chunk body is reassembled', async () => {
    fake.override({ kind: 'chunked', chunks: ['{"items":[{"id":"a",', '"content":"Al', 'pha"}]}'] });
    expect((await sendJsonRequest(post())).value).toEqual({ items: [{ id: 'a', content: 'Alpha' }] });
  });

  test('invalid JSON and an empty body are invalid-json', async () => {
    fake.override({ kind: 'reply', status: 200, body: '{"items":[' }, { times: 1 });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('invalid-json');
    fake.override({ kind: 'reply', status: 200, body: '' }, { times: 1 });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('invalid-json');
    fake.override({ kind: 'empty-204' }, { times: 1 });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('invalid-json');
  });

  test('invalid UTF-8 inside valid JSON is invalid-utf8', async () => {
    fake.override({ kind: 'invalid-utf8' });
    const error = await failure(sendJsonRequest(post()));
    expect(error.kind).toBe('invalid-utf8');
    expect(error.errorClass).toBe('invalid');
  });

  test('a leading BOM is dropped', async () => {
    fake.override({ kind: 'reply', status: 200, body: '\uFEFF{"items":[]}' });
    expect((await sendJsonRequest(post())).value).toEqual({ items: [] });
  });

  test('a client timeout before headers is timeout (did not complete)', async () => {
    fake.override({ kind: 'stall-before-headers' });
    const error = await failure(sendJsonRequest(post({ signal: AbortSignal.timeout(50) })));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('External context provider request did not complete.');
  });

  test('a client timeout mid-stream is timeout', async () => {
    fake.override({ kind: 'stall-after-headers', partial: '{"items":' });
    const signal = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(50)]);
    expect((await failure(sendJsonRequest(post({ signal })))).kind).toBe('timeout');
  });

  test('a caller cancellation is cancelled', async () => {
    fake.override({ kind: 'stall-before-headers' });
    const controller = new AbortController();
    const pending = sendJsonRequest(post({ signal: controller.signal }));
    await fake.waitForRequests(1);
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('cancelled');
    expect(error.errorClass).toBe('incomplete');
  });

  test('a connection failing mid-body is network (did not complete)', async () => {
    fake.override({ kind: 'reset-mid-body' });
    const error = await failure(sendJsonRequest(post()));
    expect(error.kind).toBe('network');
    expect(error.errorClass).toBe('incomplete');
  });

  test('a reset before headers and a refused connection are network', async () => {
    fake.override({ kind: 'reset-before-headers' });
    expect((await failure(sendJsonRequest(post()))).kind).toBe('network');
    const closed = await startFakeServer();
    const url = `${closed.origin}/v1/context/search`;
    await closed.close();
    expect((await failure(sendJsonRequest(post({ url })))).kind).toBe('network');
  });
});

describe('sendRawRequest()', () => {
  test('returns status and body text for non-2xx answers', async () => {
    fake.override({ kind: 'reply', status: 422, json: { detail: [] } });
    expect(await sendRawRequest(post())).toEqual({ status: 422, text: '{"detail":[]}' });
  });

  test('a redirect is returned, never followed', async () => {
    fake.override({ kind: 'redirect', status: 307, body: 'moved' });
    expect(await sendRawRequest(post())).toEqual({ status: 307, text: 'moved' });
    expect(fake.requests).toHaveLength(1);
  });

  test('an unreadable body gives text undefined', async () => {
    fake.override({ kind: 'invalid-utf8' }, { times: 1 });
    expect(await sendRawRequest(post())).toEqual({ status: 200, text: undefined });
    fake.override({ kind: 'endless', chunkBytes: 512 * KIB }, { times: 1 });
    expect(await sendRawRequest(post())).toEqual({ status: 200, text: undefined });
    fake.override({ kind: 'reset-mid-body', status: 500 }, { times: 1 });
    expect(await sendRawRequest(post())).toEqual({ status: 500, text: undefined });
  });

  test('no response is still an incomplete ProviderError', async () => {
    fake.override({ kind: 'stall-before-headers' });
    expect((await failure(sendRawRequest(post({ signal: AbortSignal.timeout(50) })))).kind).toBe('timeout');
  });
});
