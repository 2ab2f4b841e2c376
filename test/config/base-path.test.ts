// checkBasePath() and joinRequestUrl(): the nine rules in order, exact reasons, the join rule.
import { describe, expect, test } from 'bun:test';
import { checkBasePath, joinRequestUrl } from '../../src/config/base-path.ts';
import { ConfigError } from '../../src/config/config-error.ts';
import { thrownBy } from '../support/thrown-error.ts';

const FIELD = 'provider.endpoint.basePath';

function reasonOf(value: string): string {
  const error = thrownBy(ConfigError, () => checkBasePath(value, FIELD));
  expect(error.fieldPath).toBe(FIELD);
  return error.message;
}

const message = (reason: string): string => `External context Mem0 endpoint basePath is invalid: ${reason}. Field: provider.endpoint.basePath.`;

describe('checkBasePath()', () => {
  test.each([
    ['mem0', 'it must start with "/"'],
    ['/a//b', 'it must not contain an empty segment ("//")'],
    ['/a?b', 'it must not contain a query ("?")'],
    ['/a#b', 'it must not contain a fragment ("#")'],
    ['/a\\b', 'it must not contain a backslash'],
    ['/a%2Fb', 'it must not contain percent-encoded material ("%")'],
    ['/a b', 'it must not contain whitespace'],
    ['/a\u00a0b', 'it must not contain whitespace'],
    ['/a\u0001b', 'it must not contain control characters'],
    ['/a\u007fb', 'it must not contain control characters'],
    ['/a/./b', 'it must not contain a "." or ".." segment'],
    ['/a/..', 'it must not contain a "." or ".." segment'],
  ])('%j fails with its rule', (value, reason) => {
    expect(reasonOf(value)).toBe(message(reason));
  });

  test('rules apply in order: the first failing rule wins', () => {
    expect(reasonOf('a//?#\\% ')).toBe(message('it must start with "/"'));
    expect(reasonOf('//?')).toBe(message('it must not contain an empty segment ("//")'));
    expect(reasonOf('/?#')).toBe(message('it must not contain a query ("?")'));
    // A tab is whitespace and a control character: whitespace (rule 7) comes first.
    expect(reasonOf('/a\tb')).toBe(message('it must not contain whitespace'));
  });

  test('without a field path the message has no suffix (probe)', () => {
    expect(() => checkBasePath('x')).toThrow(new ConfigError('External context Mem0 endpoint basePath is invalid: it must start with "/".'));
  });

  test.each([
    ['', ''],
    ['/', ''],
    ['/mem0', '/mem0'],
    ['/proxy/', '/proxy'],
    ['/a.b/..c/', '/a.b/..c'],
    ['/mémoire', '/mémoire'],
  ])('%j is accepted as prefix %j', (value, prefix) => {
    expect(checkBasePath(value, FIELD)).toBe(prefix);
  });
});

describe('joinRequestUrl()', () => {
  test('one trailing slash is removed before the preset path', () => {
    expect(joinRequestUrl('https://m.example', checkBasePath('/proxy/'), '/v2/memories/search')).toBe('https://m.example/proxy/v2/memories/search');
    expect(joinRequestUrl('http://127.0.0.1:8888', checkBasePath('/'), '/search')).toBe('http://127.0.0.1:8888/search');
  });

  test('non-ASCII characters are percent-encoded by the URL serializer', () => {
    expect(joinRequestUrl('https://m.example', checkBasePath('/mémoire'), '/search')).toBe('https://m.example/m%C3%A9moire/search');
  });
});
