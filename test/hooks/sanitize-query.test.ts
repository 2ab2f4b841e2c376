// The auto-recall query sanitizer (hooks.md §2.3, tests of §2.7): steps 1–9 in order, each
// removal one space, 512 code-point cap, linear-time patterns.
import { describe, expect, test } from 'bun:test';
import { removeFencedBlocks, removeSecretAssignments, sanitizeQuery } from '../../src/hooks/sanitize-query.ts';

const CREDENTIAL = 'canary-credential-Zq81';

function clean(prompt: string, credential = CREDENTIAL): string {
  return sanitizeQuery(prompt, credential);
}

describe('sanitizeQuery()', () => {
  test('keeps an ordinary question, folding whitespace and trimming', () => {
    expect(clean('  What is the\n\tdeployment   policy?  ')).toBe('What is the deployment policy?');
  });

  test('step 1: removes the configured credential, alone and embedded in other text', () => {
    expect(clean(CREDENTIAL)).toBe('');
    expect(clean(`use x${CREDENTIAL}y now`)).toBe('use x y now');
    expect(clean(`a ${CREDENTIAL} b ${CREDENTIAL}`)).toBe('a b');
  });

  test('step 1 runs before the 4096 cut: a credential straddling the cut leaves nothing behind', () => {
    const credential = 'STRADDLE-secret-value-0123';
    const prompt = `${'q '.repeat(2046)}x${credential} tail`; // the credential starts at code point 4093
    const query = sanitizeQuery(prompt, credential);
    for (let length = 3; length <= credential.length; length++) {
      expect(query).not.toContain(credential.slice(0, length));
    }
  });

  test('a Mem0 preset credential (Token scheme value) is scrubbed from the query', () => {
    const mem0Key = 'm0-ApiKey.with/odd+chars=';
    expect(clean(`search ${mem0Key} for release notes`, mem0Key)).toBe('search for release notes');
  });

  test('step 2: only the first 4096 code points are considered', () => {
    const prompt = `${'🙂'.repeat(4096)} AFTER`;
    expect(clean(prompt)).not.toContain('AFTER');
  });

  test('step 2a: an invisible code point inside a token does not hide it from the later steps (hostile test)', () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    for (const invisible of ['\u200b', '\u00ad', '\u2060', '\ufeff', '\u{E0041}', '\u200c\u200d']) {
      const split = `${token.slice(0, 14)}${invisible}${token.slice(14)}`;
      expect(sanitizeQuery(`why does ${split} fail`, 'unrelated-credential')).toBe('why does fail');
      expect(sanitizeQuery(`header: Bearer ${split}`, 'unrelated-credential')).toBe('header:');
    }
    // Joiners between non-ASCII letters (Persian, emoji) stay.
    expect(sanitizeQuery('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u{1F468}\u200d\u{1F469}', 'x')).toBe('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u{1F468}\u200d\u{1F469}');
    // A long invisible run between token characters is one linear pass.
    const started = performance.now();
    expect(sanitizeQuery(`a${'\u200b'.repeat(4000)} b`, 'x')).toBe(`a${'\u200b'.repeat(4000)} b`.slice(0, 512));
    // A liveness guard, not a speed claim.
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  test('step 3: removes fenced code (backticks and tildes), and an unclosed fence removes the rest', () => {
    expect(clean('before ```js\nconst key = 1;\n``` after')).toBe('before after');
    expect(clean('a ~~~\nsecret\n~~~ b ```c``` d')).toBe('a b d');
    expect(clean('keep ```never closed\nsecret stuff')).toBe('keep');
    expect(clean('x ```a ~~~ b``` y ~~~ z')).toBe('x y');
  });

  test('step 3: removes an unfenced pasted private key (base64 lines cut by `+` and `/` into runs under 32)', () => {
    const lines = ['MIIEowIBAAKCAQEAx+abc/def+ghiJKL/mno+pqrSTU/vwx+yz0123/456+789AB', 'Cd+efgh/ijkl+mnop/qrst+uvwx/yzAB+CDEF/GHIJ+KLMN/OPQR+STUV/WXYZ+ab'];
    const prompt = `why does this fail -----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY----- on login`;
    const query = clean(prompt);
    expect(query).toBe('why does this fail on login');
    // And when the prompt was cut inside the block (no END line), the key text still goes.
    expect(clean(`see -----BEGIN PRIVATE KEY-----\n${lines[0]}`)).toBe('see');
  });

  test('step 3: a code-only prompt gives no query', () => {
    expect(clean('```\nconsole.log(1)\n```')).toBe('');
    expect(clean('~~~\nrm -rf\n~~~\n\n')).toBe('');
  });

  test('step 4: removes Authorization headers (any case, `:` or `=`) to the end of the line', () => {
    expect(clean('call it with\nAuthorization: Basic dXNlcjpwYXNz more\nthen list')).toBe('call it with then list');
    expect(clean('AUTHORIZATION\t=\tsomething here\nnext')).toBe('next');
    expect(clean('proxy-authorization:abc def')).toBe('proxy-');
  });

  test('step 5: removes secret assignments with labels, spacing and quoting variants', () => {
    expect(clean('API_KEY=sk-live-123 deploy')).toBe('deploy');
    expect(clean('set password = hunter2; then run')).toBe('set ; then run');
    expect(clean('my_token: "a b c" rest')).toBe('rest');
    expect(clean("client.secret='x y' rest")).toBe('rest');
    expect(clean('x-api-key:abc,next')).toBe(',next');
    expect(clean('apikey=')).toBe('');
  });

  test('step 5: in inline JSON only the secret pair is removed and "region": "cn" stays', () => {
    expect(clean('{"api_key": "x", "region": "cn"}')).toBe('{ , "region": "cn"}');
  });

  test('step 5: prose uses of "token" are untouched', () => {
    expect(clean('the token bucket refills; a secret garden and password policy')).toBe('the token bucket refills; a secret garden and password policy');
  });

  test('step 6: removes Bearer tokens (any case)', () => {
    expect(clean('send bearer abc.DEF_ghi~+/= to it')).toBe('send to it');
    expect(clean('BEARER\t\tx1')).toBe('');
  });

  test('step 7: removes JWT-shaped text', () => {
    const jwt = 'eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSM';
    expect(clean(`the token was ${jwt} yesterday`)).toBe('the token was yesterday');
    expect(clean('short.dotted.words stay')).toBe('short.dotted.words stay');
  });

  test('step 8: removes runs of 32+ id characters but keeps shorter ones', () => {
    expect(clean(`commit ${'a1'.repeat(20)} broke it`)).toBe('commit broke it');
    expect(clean(`id ${'b'.repeat(31)} kept`)).toBe(`id ${'b'.repeat(31)} kept`);
  });

  test('step 9: caps the query at 512 code points', () => {
    const query = clean('word '.repeat(400));
    expect([...query].length).toBe(512);
    expect([...clean('🙂 '.repeat(600))].length).toBe(512);
  });

  test('a 50000-character prompt of repeated "a-" finishes in under 2 s (liveness bound)', () => {
    // Liveness bound of hooks.md §2.3: a wide hang guard for super-linear patterns.
    const started = performance.now();
    const prompts = ['a-'.repeat(25000), 'token'.repeat(10000), 'a.'.repeat(25000), '"a'.repeat(25000), 'x='.repeat(25000), 'token="'.repeat(7000)];
    for (const prompt of prompts) {
      sanitizeQuery(prompt, CREDENTIAL);
      removeSecretAssignments(prompt);
      removeFencedBlocks(prompt);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('removeSecretAssignments()', () => {
  test('matches from an opening quote and keeps text between removals', () => {
    expect(removeSecretAssignments(`a "token"= "v" b 'secret':'w' c`)).toBe('a   b   c');
  });

  test('leaves a keyword name without `:` or `=` alone', () => {
    expect(removeSecretAssignments('tokenizer token_count secrets')).toBe('tokenizer token_count secrets');
  });
});
