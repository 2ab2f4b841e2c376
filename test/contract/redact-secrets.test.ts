// `redactSecrets` (config.md §4.3) from the side of recall: a planted-secret set of every kind
// of the pattern table, built by a seeded generator, is 100% redacted wherever it sits in
// ordinary text, with `[redacted:<kind>]` in its place; and runSearch applies it only when the
// binding asks, to content and title, before bounding. The false-positive side is in
// redact-false-positives.test.ts.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { redactItems, redactText } from '../../src/contract/redact-secrets.ts';
import { PRIVATE_KEY, PRIVATE_KEY_START, SECRET_PATTERNS } from '../../src/contract/secret-patterns.ts';
import { runSearch } from '../../src/search/run-search.ts';

/** How many planted secrets of each kind or variant (16 kinds, 21 generators → 420). */
const PER_KIND = 20;
const HEX = '0123456789abcdef';

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
  // Wrapped in `_` (a Markdown underline, a snake_case name): `_` must not protect it.
  'github-token#underscored': fc
    .tuple(fc.constantFrom('__', '_', 'MY_'), fc.constantFrom('ghp_', 'gho_', 'ghs_'), from(ALNUM, 36, 40), fc.constantFrom('__', '_', ''))
    .map(([before, p, r, after]) => `${before}${p}${r}${after}`),
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
  // An OpenPGP armored secret key, with its header line, blank line and checksum.
  'private-key#pgp': fc
    .tuple(fc.array(from(`${ALNUM}+/`, 64, 64), { minLength: 2, maxLength: 6 }), from(`${ALNUM}+/`, 4, 4))
    .map(([lines, crc]) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${lines.join('\n')}\n=${crc}\n-----END PGP PRIVATE KEY BLOCK-----`),
  // A key pasted into a string literal: `\n` escapes instead of line ends.
  'private-key#escaped': fc
    .tuple(fc.constantFrom('RSA ', 'EC ', ''), fc.array(from(`${ALNUM}+/`, 64, 64), { minLength: 2, maxLength: 6 }))
    .map(([type, lines]) => `key = "-----BEGIN ${type}PRIVATE KEY-----\\n${lines.join('\\n')}\\n-----END ${type}PRIVATE KEY-----\\n";`),
  assignment: fc
    .tuple(fc.constantFrom('password', 'db_password', 'api_key', 'API-KEY', 'client_secret', 'secret', 'apikey'), fc.constantFrom('=', ': ', ' = '), fc.constantFrom('', '"', "'"), password)
    .map(([name, op, quote, value]) => `${name}${op}${quote}${value}${quote}`),
  'assignment#token-names': fc
    .tuple(fc.constantFrom('refresh_token', 'session_token', 'GITHUB_TOKEN', 'token', 'pwd', 'DB_PWD', 'access_token'), fc.constantFrom('=', ': ', ' = '), fc.constantFrom('', '"', "'"), password)
    .map(([name, op, quote, value]) => `${name}${op}${quote}${value}${quote}`),
  'url-userinfo': fc
    .tuple(fc.constantFrom('https', 'postgres', 'redis', 'mongodb+srv'), from(ALNUM, 3, 12), password, fc.constantFrom('db.example.com', '10.0.0.5:5432'))
    .map(([scheme, user, pass, host]) => `${scheme}://${user}:${encodeURIComponent(pass)}@${host}/app`),
  // A password pasted unencoded, with `@`, `/` or `#` in it (one starting with digits and `/` reads as a port).
  'url-userinfo#unencoded': fc
    .tuple(
      fc.constantFrom('https', 'postgres', 'redis'),
      from(ALNUM, 3, 12),
      from('abcdefXYZ', 1, 1),
      from(ALNUM, 0, 8),
      fc.constantFrom('@', '/', '@@', '#'),
      password,
      fc.constantFrom('db.example.com', 'host'),
    )
    .map(([scheme, user, first, a, sep, b, host]) => `${scheme}://${user}:${first}${a}${sep}${b}@${host}/app`),
  'stripe-key': fc.tuple(fc.constantFrom('sk_live_', 'sk_test_', 'rk_live_'), from(ALNUM, 24, 99)).map(([p, r]) => p + r),
  'openai-key': fc.oneof(
    fc.tuple(from(ALNUM, 20, 24), from('0123456789', 1, 2), from(ALNUM, 22, 26)).map(([a, d, b]) => `sk-${a}${d}${b}`),
    fc.tuple(fc.constantFrom('sk-proj-', 'sk-ant-api03-', 'sk-svcacct-'), from(B64URL, 40, 120), from('0123456789', 1, 2), from(ALNUM, 4, 8)).map(([p, a, d, b]) => `${p}${a}${d}${b}`),
  ),
  'google-api-key': from(B64URL, 35, 35).map((r) => `AIza${r}`),
  'authorization-token': fc
    .tuple(fc.constantFrom('Authorization: Token ', 'authorization: token ', '"Authorization": "Token '), from(HEX, 30, 30), from('0123456789', 1, 1), from(HEX, 9, 9))
    .map(([p, a, d, b]) => `${p}${a}${d}${b}${p.startsWith('"') ? '"' : ''}`),
};

// What must not survive: the part of each planted string that is the credential itself.
function secretPart(generator: string, planted: string): string {
  switch (generator) {
    case 'aws-secret-access-key':
      return planted.replace(/^.*?[:=] ?"?/, '').replace(/"$/, '');
    case 'bearer':
      return planted.replace(/^.*Bearer /i, '');
    case 'basic':
      return planted.slice('Basic '.length);
    case 'private-key':
    case 'private-key#pgp':
    case 'private-key#escaped':
      // The last full line of key text: the whole body must go, not only the BEGIN line.
      return (planted.match(/[A-Za-z0-9+/]{64}/g) ?? []).at(-1) as string;
    case 'github-token#underscored':
      return planted.slice(planted.indexOf('gh')).replace(/_+$/, '');
    case 'authorization-token':
      return planted.replace(/^.*?token /i, '').replace(/"$/, '');
    case 'assignment':
    case 'assignment#token-names':
      return planted.replace(/^.*?(?:=|: )\s*["']?/, '').replace(/["']$/, '');
    case 'url-userinfo':
    case 'url-userinfo#unencoded':
      return planted.slice(planted.indexOf('://') + 3, planted.lastIndexOf('@'));
    default:
      return planted;
  }
}

const PROSE = fc.constantFrom('Deploy with the reviewed workflow.', 'Die Konfiguration liegt im Repository.', '部署前请检查。', 'See the runbook;', '');

describe('redactSecrets: planted secrets (seeded generator)', () => {
  const kinds = new Set(Object.keys(KINDS).map((generator) => generator.split('#')[0]));
  test(`every one of ${PER_KIND * Object.keys(KINDS).length} planted secrets of ${kinds.size} kinds (${Object.keys(KINDS).length} generators) is redacted with its kind`, () => {
    // A generator `kind#variant` plants a variant of `kind` (20 of each variant).
    const planted = Object.entries(KINDS).flatMap(([generator, arbitrary]) =>
      fc
        .sample(fc.tuple(PROSE, arbitrary, PROSE), { numRuns: PER_KIND, seed: 27 })
        .map(([before, secret, after]) => ({ generator, kind: generator.split('#')[0] as string, secret, text: `${before} ${secret} ${after}` })),
    );
    expect(planted.length).toBeGreaterThanOrEqual(400);
    const missed: string[] = [];
    for (const { generator, kind, secret, text } of planted) {
      const { text: redacted, redactions } = redactText(text);
      if (redacted.includes(secretPart(generator, secret)) || !redacted.includes(`[redacted:${kind}]`) || redactions < 1) missed.push(`${kind}: ${JSON.stringify(text)} → ${JSON.stringify(redacted)}`);
    }
    process.stderr.write(`redactSecrets planted set: ${planted.length - missed.length}/${planted.length} redacted\n`);
    expect(missed).toEqual([]);
  });

  test("the hostile tester's survivors go, and look-alikes stay", () => {
    const gone = (text: string): string => redactText(text).text;
    expect(gone('const k = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA+/x\\nQWERTY12+/\\n-----END RSA PRIVATE KEY-----\\n";')).toBe('const k = "[redacted:private-key]\\n";');
    expect(gone('https://admin:p@ssw0rd@host/x')).toBe('https://[redacted:url-userinfo]@host/x');
    expect(gone('https://admin:pa/ss1@host')).toBe('https://[redacted:url-userinfo]@host');
    // The last `@` before a path ends the password; a port followed by a path is no password.
    expect(gone('https://u:pw1@host/path/foo@bar')).toBe('https://[redacted:url-userinfo]@host/path/foo@bar');
    for (const kept of [
      'http://localhost:3000/@user',
      'https://example.com:8443/x?mail=a@b.example',
      'sk-learn-compatible-estimators-here',
      'the token: <your token here>',
      'Authorization: Token <token>',
    ]) {
      expect(gone(kept)).toBe(kept);
    }
  });

  test('an invisible code point inside a credential does not hide it (found by a hostile test: ghp_…U+200B… reached the model whole)', () => {
    const secrets = [`ghp_${'a1B2'.repeat(9)}`, 'AKIAABCDEFGHIJKLMNOP', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijk', `sk-proj-${'x9'.repeat(12)}`];
    // Zero-width space, soft hyphen, word joiner, BOM, a tag character, Mongolian vowel separator, CGJ, a variation selector.
    const invisibles = ['\u200b', '\u00ad', '\u2060', '\ufeff', '\u{E0041}', '\u180e', '\u034f', '\ufe00'];
    for (const secret of secrets) {
      for (const invisible of invisibles) {
        const split = `${secret.slice(0, 10)}${invisible}${secret.slice(10)}`;
        const { text, redactions } = redactText(`see ${split} here \u{1F468}\u200d\u{1F469}`);
        expect(redactions).toBe(1);
        expect(text).not.toContain(secret.slice(10));
        expect(text.startsWith('see [redacted:')).toBe(true);
      }
    }
    // Text with invisible code points and no credential is unchanged, joiners included.
    const ordinary = 'a\u200bb \u{1F468}\u200d\u{1F469} token\u00ad=short';
    expect(redactText(ordinary)).toEqual({ text: ordinary, redactions: 0 });
  });

  test('redactItems redacts content, title and id of the first five items, drops a uri holding a secret, and counts; other fields stay', () => {
    const key = 'AKIAABCDEFGHIJKLMNOP';
    const items = Array.from({ length: 6 }, (_, index) => ({ id: key, content: `k ${key}`, title: `t ${key}`, uri: `https://example.com/${key}`, score: index }));
    const { items: redacted, redactions } = redactItems(items);
    expect(redacted).toHaveLength(5);
    expect(redactions).toBe(20);
    expect(redacted[0]).toEqual({ id: '[redacted:aws-access-key-id]', content: 'k [redacted:aws-access-key-id]', title: 't [redacted:aws-access-key-id]', score: 0 });
    // A corpus id made from a heading (the administrator trial's case): lower-cased, still caught.
    const heading = redactItems([
      { id: 'heading.md#use-ghp_abcdefghijklmnopqrstuvwxyzabcdefghij-for-zebra:1', content: 'x', uri: 'heading.md#use-ghp_abcdefghijklmnopqrstuvwxyzabcdefghij-for-zebra' },
    ]);
    expect(heading.items[0]).toEqual({ id: 'heading.md#use-[redacted:github-token]-for-zebra:1', content: 'x' });
    expect(heading.redactions).toBe(2);
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

  // One 1 MiB input per pattern added for issue 27 §2 (and the bearer check): each built to make
  // a backtracking or slow-path engine rescan. They finish (the time limit is a liveness guard);
  // the printed times were tens of milliseconds in Bun, where the former private-key body took
  // seconds or silently found nothing and the former bearer check was quadratic.
  const MIB = 1_048_576;
  const fill = (unit: string, prefix = ''): string => prefix + unit.repeat(Math.ceil((MIB - prefix.length) / unit.length));
  const hostile: readonly (readonly [string, string, number])[] = [
    ['private-key: PGP header, a body of escaped backslashes', fill('\\A', '-----BEGIN PGP PRIVATE KEY BLOCK-----'), 1],
    ['private-key: a body of `\\n`, text and single dashes', fill('\\nAB-', '-----BEGIN RSA PRIVATE KEY-----'), 1],
    ['private-key: PGP headers without their dashes', fill('-----BEGIN PGP PRIVATE KEY BLOCK '), 0],
    ['github-token: `_ghp_` repeated', fill('_ghp_'), 0],
    ['github-token: `__ghp_` and one long run', fill('a', '__ghp_'), 0],
    ['assignment: `token=` repeated', fill('token='), 0],
    ['assignment: `pwd: "a1` repeated', fill('pwd: "a1'), 0],
    ['stripe-key: `sk_live_` repeated', fill('sk_live_'), 0],
    ['stripe-key: one long run', fill('a', 'sk_live_'), 0],
    ['openai-key: `sk-` repeated', fill('sk-'), 0],
    ['openai-key: `sk-` and `a-` repeated', fill('a-', 'sk-'), 0],
    ['google-api-key: `AIza` repeated', fill('AIza'), 0],
    ['google-api-key: one long run of `-`', fill('-', 'AIza'), 0],
    ['authorization-token: the header repeated', fill('authorization: token '), 0],
    ['authorization-token: one long lower-case credential', fill('a', 'Authorization: Token '), 0],
    ['bearer: one long lower-case credential', fill('a', 'Bearer '), 0],
    ['url-userinfo: `@b` repeated after `user:`', fill('@b', 'https://a:'), 0],
    ['url-userinfo: `://a:b/` repeated', fill('://a:b/'), 0],
    ['url-userinfo: `://a:b@c@d/` repeated', fill('://a:b@c@d/'), 0],
  ];
  test.each(hostile)(
    '1 MiB hostile input, %s: finishes',
    (label, text, expected) => {
      const started = performance.now();
      const { redactions } = redactText(text);
      process.stderr.write(`redactSecrets hostile ${label}: ${Math.round(performance.now() - started)} ms\n`);
      expect(redactions).toBe(expected);
    },
    600_000,
  );

  test('a 1 MiB hostile PEM-like field is scanned only as far as an envelope can show (REDACT_SCAN_UNITS), so redaction stays fast', () => {
    const hostile = `-----BEGIN PRIVATE KEY-----${'A'.repeat((1 << 20) - 200)}`;
    const { items, redactions } = redactItems([{ id: 'r', content: hostile }]);
    expect(redactions).toBe(1);
    expect(items[0]?.content).toBe('[redacted:private-key]');
  });
});

describe('redactText(): the literal pre-check skips only patterns that cannot match', () => {
  /** redactText without the pre-check: every pattern of the table scans the text. */
  function scanEveryPattern(text: string): { readonly text: string; readonly redactions: number } {
    let redactions = 0;
    let out = text;
    for (const { kind, pattern, accept } of SECRET_PATTERNS) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, (match: string) => {
        if (accept !== undefined && !accept(match)) return match;
        redactions++;
        return `[redacted:${kind}]`;
      });
    }
    return { text: out, redactions };
  }
  // Every kind's secrets, in upper, lower and swapped case, cut at random places and joined with
  // prose, so a match may straddle pieces and the pre-check sees every literal in every case.
  const flipCase = (text: string, mode: number): string =>
    mode === 0 ? text : mode === 1 ? text.toUpperCase() : mode === 2 ? text.toLowerCase() : [...text].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
  const piece = fc.oneof(
    fc.tuple(fc.oneof(...Object.values(KINDS)), fc.integer({ min: 0, max: 3 })).map(([secret, mode]) => flipCase(secret, mode)),
    fc.tuple(fc.oneof(...Object.values(KINDS)), fc.nat(), fc.nat()).map(([secret, a, b]) => secret.slice(Math.min(a, b) % (secret.length + 1), Math.max(a, b) % (secret.length + 1))),
    PROSE,
    fc.constantFrom(' ', '=', ': ', '"', '://', '@', '\u017f', '\u212a', '\u0130', 'K'),
  );

  test('gives the result of scanning every pattern', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        expect(redactText(text)).toEqual(scanEveryPattern(text));
      }),
      { numRuns: 2000 },
    );
  });

  test('PRIVATE_KEY starts with PRIVATE_KEY_START, case-sensitive, so the auto-recall scrubber may test for it first', () => {
    expect(PRIVATE_KEY.source.startsWith(PRIVATE_KEY_START)).toBe(true);
    expect(PRIVATE_KEY.flags).not.toContain('i');
  });

  test('names each literal in lower case', () => {
    for (const { kind, anyOf } of SECRET_PATTERNS) expect([kind, ...anyOf.map((part) => part.toLowerCase())]).toEqual([kind, ...anyOf]);
  });
});
