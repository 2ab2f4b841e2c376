// fetchBun() response decoding: Bun's own decompression is off (it prints `Decompression
// error: …` to stderr on a corrupt body), so encoded bodies are decoded here, streaming, and a
// corrupt or unknown coding fails the read quietly (providers.md §1.2 rows 5–6; hooks.md §1).
// Regression for the issue 11 fuzzing finding: a corrupt gzip body made the executable write to
// stderr from inside a Hook and beside the single `check --search` operator line.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { fetchBun } from '../../src/runtime/fetch-bun.ts';
import { sendJsonRequest } from '../../src/providers/http-client.ts';
import { ProviderError } from '../../src/providers/provider-error.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';

const ENVELOPE = { items: [{ id: 'doc-1', content: 'compressed <answer>' }] };
const JSON_BYTES = new TextEncoder().encode(JSON.stringify(ENVELOPE));

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const post = () =>
  sendJsonRequest({
    method: 'POST',
    url: `${fake.origin}/v1/context/search`,
    credential: { name: 'authorization', value: 'Bearer t' },
    body: '{}',
    signal: AbortSignal.timeout(20000),
    proxy: { mode: 'direct' },
  });

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
}

describe('fetchBun() content decoding', () => {
  test('asks for no encoding: Bun adds no accept-encoding header', async () => {
    fake.override({ kind: 'reply', status: 200, json: ENVELOPE });
    await post();
    expect(fake.requests[0]?.headers['accept-encoding']).toBeUndefined();
  });

  test.each<[string, Uint8Array]>([
    ['gzip', new Uint8Array(gzipSync(JSON_BYTES))],
    ['x-gzip', new Uint8Array(gzipSync(JSON_BYTES))],
    ['deflate', new Uint8Array(deflateSync(JSON_BYTES))],
    ['br', new Uint8Array(brotliCompressSync(JSON_BYTES))],
    ['zstd', new Uint8Array(Bun.zstdCompressSync(JSON_BYTES))],
    ['gzip, br', new Uint8Array(brotliCompressSync(gzipSync(JSON_BYTES)))],
    ['identity', JSON_BYTES],
  ])('a body sent with content-encoding %s is decoded', async (coding, body) => {
    fake.override({ kind: 'reply', status: 200, body, headers: { 'content-encoding': coding } });
    expect((await post()).value).toEqual(ENVELOPE);
  });

  test.each(['gzip', 'deflate', 'br', 'zstd', 'compress', 'gzip, unknown'])('a corrupt or undecodable %s body did not complete', async (coding) => {
    fake.override({ kind: 'reply', status: 200, body: 'not compressed at all', headers: { 'content-encoding': coding } });
    const error = await failure(post());
    expect(error.kind).toBe('network');
    expect(fake.requests).toHaveLength(1);
  });

  test('a gzip bomb is cut after the 1 MiB of decoded bytes it may have', async () => {
    fake.override({ kind: 'reply', status: 200, body: new Uint8Array(gzipSync(new Uint8Array(32 * 1024 * 1024))), headers: { 'content-encoding': 'gzip' } });
    expect((await failure(post())).kind).toBe('oversize');
  });

  test('a 204 or a non-2xx answer with a content-encoding keeps its status', async () => {
    fake.override({ kind: 'reply', status: 500, body: 'garbage', headers: { 'content-encoding': 'gzip' } }, { times: 1 });
    expect((await failure(post())).status).toBe(500);
    const direct = await fetchBun(`${fake.origin}/x`, { method: 'GET' }, { mode: 'direct' });
    expect(direct.status).toBe(404);
  });
});
