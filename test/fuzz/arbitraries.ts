// Shared fast-check arbitraries for the fuzz suites: awkward Unicode, canary-bearing strings,
// URLs of every shape, and JSON values of any type (issue 11, "Property-based fuzzing").
import fc from 'fast-check';
import { CANARY } from '../support/canaries.ts';

/** Characters that break naive code: brackets, quotes, controls, astral, lone surrogates, Cf. */
export const AWKWARD_UNITS: readonly string[] = [
  'a',
  'Z',
  '0',
  ' ',
  '\t',
  '\n',
  '\r',
  '<',
  '>',
  '&',
  '"',
  "'",
  '\\',
  '/',
  '?',
  '#',
  '%',
  '@',
  ':',
  '.',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2029',
  '\ufeff',
  '部',
  'é',
  '\u{1F642}',
  '\uD83D',
  '\uDE42',
  '\u{E0041}',
  '\u{110BD}',
];

/** A string over {@link AWKWARD_UNITS} (lone surrogates included). */
export function awkwardString(maxLength = 40): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...AWKWARD_UNITS), maxLength });
}

/** Any string: awkward units, arbitrary code points, or a canary with awkward padding. */
export function anyString(maxLength = 40): fc.Arbitrary<string> {
  return fc.oneof(
    awkwardString(maxLength),
    fc.string({ unit: 'binary', maxLength }),
    fc.tuple(awkwardString(4), fc.constantFrom(...Object.values(CANARY)), awkwardString(4)).map(([a, canary, b]) => `${a}${canary}${b}`),
  );
}

/** A very long string (up to `max` UTF-16 units) built from a repeated awkward seed. */
export function hugeString(max = 70_000): fc.Arbitrary<string> {
  return fc.tuple(awkwardString(8), fc.integer({ min: 1, max })).map(([seed, length]) => (seed === '' ? 'x' : seed).repeat(length).slice(0, length));
}

const HOSTS = [
  'localhost',
  'LOCALHOST',
  'localhost.',
  '127.0.0.1',
  '127.0.0.2',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0.0.0.0',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::]',
  'context.test',
  'search.example',
  'xn--bcher-kva.example',
  'bücher.example',
  '192.0.2.1',
  '10.0.0.1',
  'a..b',
  'ex ample.com',
  '',
  '%6c%6f%63%61%6c%68%6f%73%74',
  'local\thost',
  `${CANARY.path}.example`,
];
const SCHEMES = ['http', 'https', 'HTTP', 'HtTpS', 'ftp', 'file', 'ws', 'wss', 'javascript', 'data', 'blob', 'mailto', ''];
const SEPARATORS = ['://', ':', ':/', ':\\\\', '://\\', ':///'];
const TAILS = ['', '/', '//', '/path', '/?', '/#', '?', '#', '?q=1', '#frag', `/${CANARY.path}`, '/%2e%2e/', '/..', ' ', '\n'];

/** URLs of every shape: schemes, user info, hosts, ports, paths, queries and fragments. */
export function anyUrl(): fc.Arbitrary<string> {
  const composed = fc
    .record({
      scheme: fc.constantFrom(...SCHEMES),
      separator: fc.constantFrom(...SEPARATORS),
      userinfo: fc.constantFrom('', 'user@', 'user:pass@', `u:${CANARY.credential}@`, ':@', '@'),
      host: fc.constantFrom(...HOSTS),
      port: fc.constantFrom('', ':', ':0', ':80', ':443', ':8080', ':65535', ':65536', ':-1', ':x'),
      tail: fc.constantFrom(...TAILS),
    })
    .map(({ scheme, separator, userinfo, host, port, tail }) => `${scheme}${separator}${userinfo}${host}${port}${tail}`);
  return fc.oneof(
    { weight: 4, arbitrary: composed },
    { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ['http', 'https'] }) },
    { weight: 1, arbitrary: anyString(30) },
  );
}

/** A JSON value of any type (deep objects, arrays, awkward strings, numbers at the edges). */
export function anyJson(maxDepth = 4): fc.Arbitrary<unknown> {
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth },
      fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53, 4096, 65536, 30000, 30001, 5000, 5001),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      anyString(20),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(anyString(10), fc.constantFrom('__proto__', 'constructor', 'toString', 'version', 'provider', 'type')), tie('value'), {
        maxKeys: 4,
      }),
    ),
  })).value;
}
