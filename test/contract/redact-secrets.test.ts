// `redactSecrets` (config.md §4.3) from the side of recall: a planted-secret set of every kind
// of the pattern table, built by a seeded generator, is 100% redacted wherever it sits in
// ordinary text, with `[redacted:<kind>]` in its place; and runSearch applies it only when the
// binding asks, to content and title, before bounding. The false-positive side is in
// redact-false-positives.test.ts.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { redactItems, redactText } from '../../src/contract/redact-secrets.ts';
import { runSearch } from '../../src/search/run-search.ts';

/** How many planted secrets of each kind (12 kinds → 240). */
const PER_KIND = 20;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64URL = `${ALNUM}-_`;
const from = (alphabet: string, min: number, max: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const b64 = (text: string): string => btoa(text).replace(/=+$/, '');
const b64url = (value: unknown): string => btoa(JSON.stringify(value)).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
// A password-like value: letters, then at least one digit and a symbol.
const password = fc.tuple(from(ALNUM, 6, 20), from('0123456789', 1, 4), fc.constantFrom('!', '#', '%', '@', '^', '&', '*', '')).map(([a, d, s]) => `${a}${d}${s}`);

/** Generators per kind: the secret as it would appear in a document. */
const KINDS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  'aws-access-key-id': fc.tuple(fc.constantFrom('AKIA', 'ASIA'), from(UPPER_DIGITS, 16, 16)).map(([p, r]) => p + r),
  'aws-secret-access-key': fc
    .tuple(fc.constantFrom('aws_secret_access_key = ', 'AWS_SECRET_ACCESS_KEY=', '"aws_secret_access_key": "'), from(`${ALNUM}/+`, 40, 40))
    .map(([k, v]) => `${k}${v}${k.startsWith('"') ? '"' : ''}`),
  'github-token': fc.oneof(
    fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghs_', 'ghu_', 'ghr_'), from(ALNUM, 36, 36)).map(([p, r]) => p + r),
    from(`${ALNUM}_`, 82, 82).map((r) => `github_pat_${r}`),
  ),
  'gitlab-token': from(B64URL, 20, 20).map((r) => `glpat-${r}`),
  'slack-token': fc.tuple(fc.constantFrom('xoxb-', 'xoxp-', 'xoxa-', 'xoxs-'), from('0123456789', 10, 13), from(ALNUM, 24, 32)).map(([p, n, r]) => `${p}${n}-${n}-${r}`),
  'npm-token': from(ALNUM, 36, 36).map((r) => `npm_${r}`),
  bearer: fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'Authorization: Bearer '), from(`${ALNUM}-._~+/`, 20, 60)).map(([p, r]) => `${p}${r}`),
  basic: fc.tuple(from(ALNUM, 3, 12), password).map(([user, pass]) => `Basic ${btoa(`${user}:${pass}`)}`),
  jwt: fc
    .tuple(from(ALNUM, 4, 12), fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }), from(B64URL, 43, 86))
    .map(([sub, exp, sig]) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub, exp })}.${sig}`),
  'private-key': fc
    .tuple(fc.constantFrom('RSA ', 'EC ', 'OPENSSH ', ''), fc.array(from(`${ALNUM}+/`, 64, 64), { minLength: 2, maxLength: 6 }))
    .map(([type, lines]) => `-----BEGIN ${type}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${type}PRIVATE KEY-----`),
  assignment: fc
    .tuple(fc.constantFrom('password', 'db_password', 'api_key', 'API-KEY', 'client_secret', 'secret', 'apikey'), fc.constantFrom('=', ': ', ' = '), fc.constantFrom('', '"', "'"), password)
    .map(([name, op, quote, value]) => `${name}${op}${quote}${value}${quote}`),
  'url-userinfo': fc
    .tuple(fc.constantFrom('https', 'postgres', 'redis', 'mongodb+srv'), from(ALNUM, 3, 12), password, fc.constantFrom('db.example.com', '10.0.0.5:5432'))
    .map(([scheme, user, pass, host]) => `${scheme}://${user}:${encodeURIComponent(pass)}@${host}/app`),
};

// What must not survive: the part of each planted string that is the credential itself.
function secretPart(kind: string, planted: string): string {
  switch (kind) {
    case 'aws-secret-access-key':
      return planted.replace(/^.*?[:=] ?"?/, '').replace(/"$/, '');
    case 'bearer':
      return planted.replace(/^.*Bearer /i, '');
    case 'basic':
      return planted.slice('Basic '.length);
    case 'private-key':
      return planted.split('\n')[1] as string;
    case 'assignment':
      return planted.replace(/^.*?(?:=|: )\s*["']?/, '').replace(/["']$/, '');
    case 'url-userinfo':
      return planted.slice(planted.indexOf('://') + 3, planted.indexOf('@'));
    default:
      return planted;
  }
}

const PROSE = fc.constantFrom('Deploy with the reviewed workflow.', 'Die Konfiguration liegt im Repository.', '部署前请检查。', 'See the runbook;', '');

describe('redactSecrets: planted secrets (seeded generator)', () => {
  test(`every one of ${PER_KIND * Object.keys(KINDS).length} planted secrets of ${Object.keys(KINDS).length} kinds is redacted with its kind`, () => {
    const planted = Object.entries(KINDS).flatMap(([kind, arbitrary]) =>
      fc.sample(fc.tuple(PROSE, arbitrary, PROSE), { numRuns: PER_KIND, seed: 27 }).map(([before, secret, after]) => ({ kind, secret, text: `${before} ${secret} ${after}` })),
    );
    expect(planted.length).toBeGreaterThanOrEqual(200);
    const missed: string[] = [];
    for (const { kind, secret, text } of planted) {
      const { text: redacted, redactions } = redactText(text);
      if (redacted.includes(secretPart(kind, secret)) || !redacted.includes(`[redacted:${kind}]`) || redactions < 1) missed.push(`${kind}: ${JSON.stringify(text)} → ${JSON.stringify(redacted)}`);
    }
    process.stderr.write(`redactSecrets planted set: ${planted.length - missed.length}/${planted.length} redacted\n`);
    expect(missed).toEqual([]);
  });

  test('redactItems redacts content and title of the first five items and counts; other fields stay', () => {
    const key = 'AKIAABCDEFGHIJKLMNOP';
    const items = Array.from({ length: 6 }, (_, index) => ({ id: key, content: `k ${key}`, title: `t ${key}`, uri: `https://example.com/${key}`, score: index }));
    const { items: redacted, redactions } = redactItems(items);
    expect(redacted).toHaveLength(5);
    expect(redactions).toBe(10);
    expect(redacted[0]).toEqual({ id: key, content: 'k [redacted:aws-access-key-id]', title: 't [redacted:aws-access-key-id]', uri: `https://example.com/${key}`, score: 0 });
  });

  test('runSearch redacts before bounding only when the provider carries redactSecrets, and reports the count', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const answer = [{ id: '1', content: `use ${token} here`, title: 'Token' }];
    const on = await runSearch({ search: async () => answer, redactSecrets: true }, { query: 'q' }, { signal: AbortSignal.timeout(60_000) });
    const off = await runSearch({ search: async () => answer }, { query: 'q' }, { signal: AbortSignal.timeout(60_000) });
    if (on.status !== 'ok' || off.status !== 'ok') throw new Error('search failed');
    expect(on.rendered.structuredContent.untrusted_external_context.items[0]?.content).toBe('use [redacted:github-token] here');
    expect(on.redactions).toBe(1);
    expect(off.rendered.text).toContain(token);
    expect(off.redactions).toBe(0);
  });
});

describe('redactSecrets on hostile input', () => {
  test("a 1 MiB provider text built from the patterns' prefixes is redacted in one pass per pattern (finishes, and leaves no planted key)", () => {
    const unit = 'password= ://user:pw -----BEGIN PRIVATE KEY----- Bearer eyJ glpat- AKIA ';
    const text = `${unit.repeat(Math.floor(1_048_576 / unit.length))}AKIAABCDEFGHIJKLMNOP`;
    const { text: redacted, redactions } = redactText(text);
    // An unterminated BEGIN line takes the key-like text after it (a cut block), so the key may
    // go as part of that; either way it is gone.
    expect(redacted).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(redactions).toBeGreaterThan(10_000);
  }, 600_000);
});
