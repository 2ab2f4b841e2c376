// context_search argument validation (profile-v1.md §3.1, rows in order) and normalization
// (§3.2). Messages are compared verbatim and never contain the query.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { JS_WHITESPACE_RUN, normalizeQuery, parseSearchArguments, type QueryResult } from '../../src/contract/query.ts';
import { MESSAGES } from './vectors.ts';

const SMILE = '\u{1F642}';
const CANARY = 'canary-query-7f3a9c';

function failure(message: string): QueryResult {
  return { ok: false, message };
}

describe('parseSearchArguments() validation rows', () => {
  test('row 1: absent arguments count as {} and report a missing string query', () => {
    expect(parseSearchArguments(undefined)).toEqual(failure(MESSAGES.notString));
    expect(parseSearchArguments({})).toEqual(failure(MESSAGES.notString));
  });

  test('row 2: any property other than query is rejected, whatever it is called', () => {
    for (const key of ['repository', 'limit', 'filters', 'tenant', 'user_id', 'namespace', 'endpoint', 'token', 'corpus', '__proto__', 'Query', '']) {
      const args = JSON.parse(`{"query":"policy",${JSON.stringify(key)}:"other"}`) as unknown;
      expect(parseSearchArguments(args)).toEqual(failure(MESSAGES.onlyQuery));
    }
  });

  test('row 2 runs before row 3: an extra property wins over a missing or non-string query', () => {
    expect(parseSearchArguments({ repository: 'other' })).toEqual(failure(MESSAGES.onlyQuery));
    expect(parseSearchArguments({ query: 42, limit: 10 })).toEqual(failure(MESSAGES.onlyQuery));
  });

  test('row 3: query must be present and a string', () => {
    for (const query of [42, null, true, ['policy'], { text: 'policy' }]) {
      expect(parseSearchArguments({ query })).toEqual(failure(MESSAGES.notString));
    }
  });

  test('row 3: an inherited query property does not count', () => {
    expect(parseSearchArguments(Object.create({ query: 'policy' }))).toEqual(failure(MESSAGES.notString));
  });

  test('row 3 also answers non-object arguments that bypass the SDK', () => {
    for (const args of [null, 42, [], 'policy']) expect(parseSearchArguments(args)).toEqual(failure(MESSAGES.notString));
  });

  test('row 4: an empty or all-whitespace query is empty', () => {
    for (const query of ['', ' ', ' \t\n', '\u3000\uFEFF\u00A0\u2028']) {
      expect(parseSearchArguments({ query })).toEqual(failure(MESSAGES.empty));
    }
  });

  test('row 4 runs before row 5: 3000 spaces are empty, not too long', () => {
    expect(parseSearchArguments({ query: ' '.repeat(3000) })).toEqual(failure(MESSAGES.empty));
  });

  test('row 5: 2000 code points are accepted and 2001 rejected, astral characters counting once', () => {
    expect(parseSearchArguments({ query: SMILE.repeat(2000) })).toEqual({ ok: true, query: SMILE.repeat(2000) });
    expect(parseSearchArguments({ query: SMILE.repeat(2001) })).toEqual(failure(MESSAGES.tooManyCodePoints));
    expect(parseSearchArguments({ query: 'q'.repeat(2000) })).toEqual({ ok: true, query: 'q'.repeat(2000) });
    expect(parseSearchArguments({ query: 'q'.repeat(2001) })).toEqual(failure(MESSAGES.tooManyCodePoints));
  });

  test('row 5 counts the raw query, before whitespace folding', () => {
    expect(parseSearchArguments({ query: ` ${SMILE.repeat(2000)}` })).toEqual(failure(MESSAGES.tooManyCodePoints));
    expect(parseSearchArguments({ query: `a${' '.repeat(1999)}` })).toEqual({ ok: true, query: 'a' });
  });

  test('messages never contain the query', () => {
    const queries = [{ query: CANARY, x: 1 }, { query: ` ${CANARY.repeat(200)}` }];
    for (const args of queries) {
      const result = parseSearchArguments(args);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toContain(CANARY);
    }
  });
});

describe('parseSearchArguments() normalization', () => {
  test('folds whitespace runs and trims: "  deployment\\n\\tpolicy  " becomes "deployment policy"', () => {
    expect(parseSearchArguments({ query: '  deployment\n\tpolicy  ' })).toEqual({ ok: true, query: 'deployment policy' });
  });

  test('folds every JS whitespace character, including U+3000, U+FEFF, U+2028 and U+00A0', () => {
    expect(parseSearchArguments({ query: '\uFEFF部署\u3000\u3000策略\u2028\u00A0🙂\u205F' })).toEqual({ ok: true, query: '部署 策略 🙂' });
  });

  test('keeps characters that are not JS whitespace, such as U+200B and U+0085', () => {
    expect(parseSearchArguments({ query: 'a\u200Bb\u0085c' })).toEqual({ ok: true, query: 'a\u200Bb\u0085c' });
  });
});

describe('normalizeQuery()', () => {
  test('returns the empty message when nothing but whitespace remains', () => {
    expect(normalizeQuery(' \t ')).toEqual(failure(MESSAGES.empty));
  });

  test('defensively rejects a folded query over 2000 code points as too long', () => {
    expect(normalizeQuery(SMILE.repeat(2001))).toEqual(failure(MESSAGES.tooLong));
    expect(normalizeQuery(`  ${SMILE.repeat(2000)}  `)).toEqual({ ok: true, query: SMILE.repeat(2000) });
  });
});

describe('parseSearchArguments() normalization properties (fast-check)', () => {
  test('the normalized query is the words of the raw query joined by single spaces', () => {
    const unit = fc.constantFrom('a', 'Z', '部', SMILE, '\uD83D', ' ', '\t', '\n', '\u3000', '\uFEFF', '\u00A0', '\u2028', '\u200B', '<');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (raw) => {
        const words = raw.split(/\s+/).filter((word) => word !== '');
        const result = parseSearchArguments({ query: raw });
        if (words.length === 0) {
          expect(result).toEqual(failure(MESSAGES.empty));
        } else {
          expect(result).toEqual({ ok: true, query: words.join(' ') });
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('JS_WHITESPACE_RUN', () => {
  // profile-v1.md "Terms": JS whitespace is exactly what `\s` matches.
  const WHITESPACE = [
    '\u0009',
    '\u000A',
    '\u000B',
    '\u000C',
    '\u000D',
    '\u0020',
    '\u00A0',
    '\u1680',
    '\u2000',
    '\u2001',
    '\u2002',
    '\u2003',
    '\u2004',
    '\u2005',
    '\u2006',
    '\u2007',
    '\u2008',
    '\u2009',
    '\u200A',
    '\u2028',
    '\u2029',
    '\u202F',
    '\u205F',
    '\u3000',
    '\uFEFF',
  ];

  test('matches every character the profile lists as JS whitespace', () => {
    for (const ch of WHITESPACE) expect(`a${ch}b`.replace(JS_WHITESPACE_RUN, ' ')).toBe('a b');
  });

  test('does not match zero-width space, NEL or the Mongolian vowel separator', () => {
    for (const ch of ['\u200B', '\u0085', '\u180E']) expect(`a${ch}b`.replace(JS_WHITESPACE_RUN, ' ')).toBe(`a${ch}b`);
  });
});
