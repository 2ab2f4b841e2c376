// createTokenVerifier(): jose against a real JWKS on loopback with keys generated in the test
// (remote.md §1.6, §1.7, §1.11). Every rejection is `invalid` without saying why.
import { afterAll, beforeAll, beforeEach, describe, expect, setSystemTime, test } from 'bun:test';
import { createJwksFetch } from '../../../src/mcp/http/jwks-fetch.ts';
import { carriesScope, createTokenVerifier, type TokenVerifier } from '../../../src/mcp/http/token-verifier.ts';
import { base64url, closedPort, hmacToken, ISSUER, type JwksServer, RESOURCE, SCOPE, serveJwksOn, startJwksServer, unsecuredToken } from './remote-kit.ts';

let jwks: JwksServer;

beforeAll(async () => {
  jwks = await startJwksServer();
});
afterAll(async () => {
  await jwks.close();
});
beforeEach(() => jwks.fake.reset());

function verifier(jwksUrl: string = jwks.url, scope: string = SCOPE): TokenVerifier {
  return createTokenVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUrl, scope, fetch: createJwksFetch({ mode: 'direct' }) });
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('createTokenVerifier()', () => {
  test('accepts a valid RS256, ES256 and EdDSA token, and an aud array containing the resource', async () => {
    const verify = verifier();
    expect(await verify(await jwks.sign())).toBe('valid');
    expect(await verify(await jwks.sign({}, { alg: 'ES256' }))).toBe('valid');
    expect(await verify(await jwks.sign({}, { alg: 'EdDSA' }))).toBe('valid');
    expect(await verify(await jwks.sign({ aud: ['https://other.example.com/mcp', RESOURCE] }))).toBe('valid');
  });

  test('a remembered valid token stays valid; refused tokens are checked again and stay refused', async () => {
    const verify = verifier();
    const token = await jwks.sign();
    expect([await verify(token), await verify(token)]).toEqual(['valid', 'valid']);
    const expired = await jwks.sign({ exp: now() - 120 });
    expect([await verify(expired), await verify(expired)]).toEqual(['invalid', 'invalid']);
    const unscoped = await jwks.sign({ scope: 'other' });
    expect([await verify(unscoped), await verify(unscoped)]).toEqual(['insufficient-scope', 'insufficient-scope']);
    const scoped = createTokenVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUrl: jwks.url, scope: 'other', fetch: createJwksFetch({ mode: 'direct' }) });
    expect(await scoped(token)).toBe('insufficient-scope');
  });

  test('accepts a token expired within the 60 s tolerance and rejects one expired beyond it', async () => {
    const verify = verifier();
    expect(await verify(await jwks.sign({ exp: now() - 30 }))).toBe('valid');
    expect(await verify(await jwks.sign({ exp: now() - 120 }))).toBe('invalid');
  });

  test('rejects nbf in the future beyond 60 s, and accepts it within', async () => {
    const verify = verifier();
    expect(await verify(await jwks.sign({ nbf: now() + 30 }))).toBe('valid');
    expect(await verify(await jwks.sign({ nbf: now() + 600 }))).toBe('invalid');
  });

  test('rejects a wrong audience, a wrong issuer, a missing exp, and near-miss strings', async () => {
    const verify = verifier();
    expect(await verify(await jwks.sign({ aud: 'https://other.example.com/mcp' }))).toBe('invalid');
    expect(await verify(await jwks.sign({ aud: `${RESOURCE}/` }))).toBe('invalid');
    expect(await verify(await jwks.sign({ iss: 'https://issuer.example.com/other' }))).toBe('invalid');
    expect(await verify(await jwks.sign({ iss: `${ISSUER}/` }))).toBe('invalid');
    expect(await verify(await jwks.sign({}, { omit: ['exp'] }))).toBe('invalid');
  });

  test('rejects a bad signature and a key that is not in the JWKS', async () => {
    const verify = verifier();
    const token = await jwks.sign();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${header}.${base64url({ iss: ISSUER, aud: RESOURCE, exp: now() + 300, scope: `${SCOPE} admin` })}.${signature}`;
    expect(await verify(tampered)).toBe('invalid');
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await verify(flipped)).toBe('invalid');
    expect(await verify(await jwks.sign({}, { unpublished: true }))).toBe('invalid');
  });

  test('rejects alg none and HS256 before any key lookup, and a.b.c', async () => {
    const verify = verifier();
    expect(await verify(unsecuredToken())).toBe('invalid');
    expect(await verify(await hmacToken())).toBe('invalid');
    expect(await verify('a.b.c')).toBe('invalid');
    expect(await verify('not-a-jwt')).toBe('invalid');
    expect(jwks.fetches()).toBe(0);
  });

  test('answers insufficient-scope without the scope, and accepts scope and scp in every form', async () => {
    const verify = verifier();
    expect(await verify(await jwks.sign({ scope: 'context.write' }))).toBe('insufficient-scope');
    expect(await verify(await jwks.sign({ scope: 'context.readonly' }))).toBe('insufficient-scope');
    expect(await verify(await jwks.sign({}, { omit: ['scope'] }))).toBe('insufficient-scope');
    expect(await verify(await jwks.sign({ scope: `openid ${SCOPE} profile` }))).toBe('valid');
    expect(await verify(await jwks.sign({ scp: ['openid', SCOPE] }, { omit: ['scope'] }))).toBe('valid');
    expect(await verify(await jwks.sign({ scp: `openid ${SCOPE}` }, { omit: ['scope'] }))).toBe('valid');
  });

  test('many verifications, concurrent ones included, cause one JWKS fetch', async () => {
    const verify = verifier();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => jwks.sign()));
    expect(await Promise.all(tokens.map((token) => verify(token)))).toEqual(tokens.map(() => 'valid'));
    for (const token of tokens.slice(0, 5)) expect(await verify(token)).toBe('valid');
    expect(jwks.fetches()).toBe(1);
  });

  test('a remembered token stops being valid once a refetched key set no longer has its key', async () => {
    // Before tokens were remembered, the refetch that dropped the key refused its tokens at once.
    const port = await closedPort();
    const verify = verifier(`http://127.0.0.1:${port}/jwks.json`);
    const start = Date.now();
    setSystemTime(new Date(start));
    let keySet = await serveJwksOn(port, jwks.jwks);
    try {
      const token = await jwks.sign();
      const other = await jwks.sign({}, { alg: 'ES256' });
      expect([await verify(token), await verify(other)]).toEqual(['valid', 'valid']);
      await keySet.close();
      keySet = await serveJwksOn(port, { keys: jwks.jwks.keys.filter((key) => key.kid !== 'rsa-1') });
      // Past the 30 s cooldown, a token with an unknown kid makes jose fetch the key set again.
      setSystemTime(new Date(start + 31_000));
      expect(await verify(await jwks.sign({}, { unpublished: true }))).toBe('invalid');
      expect(keySet.fetches()).toBe(1);
      expect([await verify(token), await verify(other)]).toEqual(['invalid', 'valid']);
    } finally {
      setSystemTime();
      await keySet.close();
    }
  });

  test('nothing is fetched until the first token arrives', async () => {
    verifier();
    await Bun.sleep(20);
    expect(jwks.fetches()).toBe(0);
  });

  test('an unreachable JWKS gives jwks-unavailable, and the same token succeeds once it is up', async () => {
    const port = await closedPort();
    const verify = verifier(`http://127.0.0.1:${port}/jwks.json`);
    const token = await jwks.sign();
    expect(await verify(token)).toBe('jwks-unavailable');
    expect(await verify(token)).toBe('jwks-unavailable');
    const mirror = await serveJwksOn(port, jwks.jwks);
    try {
      expect(await verify(token)).toBe('valid');
      expect(await verify(token)).toBe('valid');
      expect(mirror.fetches()).toBe(1);
    } finally {
      await mirror.close();
    }
  });

  test('a connection reset by the JWKS gives jwks-unavailable', async () => {
    const verify = createTokenVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUrl: jwks.url, scope: SCOPE, fetch: createJwksFetch({ mode: 'direct' }) });
    jwks.fake.override({ kind: 'reset-before-headers' });
    expect(await verify(await jwks.sign())).toBe('jwks-unavailable');
  });

  for (const [label, behaviour] of [
    ['a 500 answer', { kind: 'reply', status: 500, json: { keys: [] } }],
    ['a redirect', { kind: 'redirect', status: 302 }],
    ['invalid JSON', { kind: 'reply', status: 200, body: '{"keys":[' }],
    ['JSON that is not a key set', { kind: 'reply', status: 200, json: { keys: 'none' } }],
    ['a body over 1048576 bytes', { kind: 'reply', status: 200, body: `{"keys":[],"pad":"${'x'.repeat(1_048_576)}"}` }],
    ['a lying content-length over the limit', { kind: 'reply', status: 200, body: '{"keys":[]}', headers: { 'content-length': '2000000' } }],
  ] as const) {
    test(`a JWKS answering ${label} gives jwks-unavailable, never invalid`, async () => {
      const verify = verifier();
      jwks.fake.override(behaviour, { times: 1 });
      expect(await verify(await jwks.sign())).toBe('jwks-unavailable');
    });
  }

  test('a JWKS URL with nothing listening gives jwks-unavailable', async () => {
    const verify = verifier('http://127.0.0.1:9/jwks.json');
    expect(await verify(await jwks.sign())).toBe('jwks-unavailable');
  });
});

describe('carriesScope()', () => {
  test('matches whole space-separated entries only', () => {
    expect(carriesScope({ scope: 'a context.read b' }, SCOPE)).toBe(true);
    expect(carriesScope({ scope: 'context.readx' }, SCOPE)).toBe(false);
    expect(carriesScope({ scp: ['x', SCOPE] }, SCOPE)).toBe(true);
    expect(carriesScope({ scp: [`${SCOPE} x`] }, SCOPE)).toBe(false);
    expect(carriesScope({ scope: ['context.read'] }, SCOPE)).toBe(false);
    expect(carriesScope({}, SCOPE)).toBe(false);
  });
});
