// createJwksFetch(): remote.md §1.7 — one GET, no credential, manual redirects, 1048576-byte
// limit, and every failure as JwksUnavailableError.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createJwksFetch, JwksUnavailableError } from '../../../src/mcp/http/jwks-fetch.ts';
import { type JwksServer, startJwksServer } from './remote-kit.ts';

let jwks: JwksServer;

beforeAll(async () => {
  jwks = await startJwksServer();
});
afterAll(async () => {
  await jwks.close();
});
beforeEach(() => jwks.fake.reset());

const init = (): RequestInit => ({ method: 'GET', headers: new Headers({ accept: 'application/json' }), redirect: 'manual', signal: AbortSignal.timeout(5000) });

describe('createJwksFetch()', () => {
  test('one GET with only the headers given, and a 200 JSON answer for jose', async () => {
    const response = await createJwksFetch({ mode: 'direct' })(jwks.url, init());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(jwks.jwks);
    expect(jwks.fake.requests.length).toBe(1);
    const headers = jwks.fake.requests[0]?.headers ?? {};
    expect(headers['accept']).toBe('application/json');
    expect(headers['authorization']).toBeUndefined();
    expect(headers['cookie']).toBeUndefined();
  });

  test('a redirect is not followed', async () => {
    jwks.fake.override({ kind: 'redirect', status: 307, location: `${jwks.fake.origin}/jwks.json` }, { times: 1 });
    await expect(createJwksFetch({ mode: 'direct' })(jwks.url, init())).rejects.toBeInstanceOf(JwksUnavailableError);
    expect(jwks.fake.requests.length).toBe(1);
  });

  test('exactly 1048576 bytes are accepted, one more is refused', async () => {
    const body = (size: number): string => {
      const head = '{"keys":[],"pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    jwks.fake.override({ kind: 'reply', status: 200, body: body(1_048_576) }, { times: 1 });
    expect((await createJwksFetch({ mode: 'direct' })(jwks.url, init())).status).toBe(200);
    jwks.fake.override({ kind: 'chunked', chunks: [body(1_048_577)] }, { times: 1 });
    await expect(createJwksFetch({ mode: 'direct' })(jwks.url, init())).rejects.toBeInstanceOf(JwksUnavailableError);
  });

  test('invalid UTF-8, a non-200 status and an aborted request are JwksUnavailableError', async () => {
    const fetchJwks = createJwksFetch({ mode: 'direct' });
    jwks.fake.override({ kind: 'invalid-utf8', template: '{"keys":[{"kty":"@@INVALID@@"}]}' }, { times: 1 });
    await expect(fetchJwks(jwks.url, init())).rejects.toBeInstanceOf(JwksUnavailableError);
    jwks.fake.override({ kind: 'reply', status: 404, json: { keys: [] } }, { times: 1 });
    await expect(fetchJwks(jwks.url, init())).rejects.toBeInstanceOf(JwksUnavailableError);
    jwks.fake.override({ kind: 'stall-before-headers' }, { times: 1 });
    await expect(fetchJwks(jwks.url, { ...init(), signal: AbortSignal.timeout(50) })).rejects.toBeInstanceOf(JwksUnavailableError);
  });
});
