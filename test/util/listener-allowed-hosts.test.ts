// listenerAllowedHosts() (docs/design/providers.md §8.2 row 0b, remote.md §1.12): the `/mcp` rule
// without a resource, for corpus serve and the metrics listeners, whatever form the IPv6 host has.
import { describe, expect, test } from 'bun:test';
import { isAllowedHost, listenerAllowedHosts, parseAllowedHost } from '../../src/util/allowed-hosts.ts';

describe('listenerAllowedHosts()', () => {
  test('a loopback host allows the three loopback names with the bound port, and nothing else', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]']) {
      const allowed = listenerAllowedHosts(host, 9464);
      expect([...allowed].sort()).toEqual(['127.0.0.1:9464', '[::1]:9464', 'localhost:9464']);
      for (const foreign of ['evil.example:9464', '127.0.0.1:9465', '127.0.0.1', 'localhost.:9464']) expect(isAllowedHost(allowed, foreign)).toBe(false);
      expect(isAllowedHost(allowed, 'LocalHost:9464')).toBe(true);
    }
  });

  test('another address allows only itself with the bound port', () => {
    expect([...listenerAllowedHosts('10.0.0.11', 8787)]).toEqual(['10.0.0.11:8787']);
    expect([...listenerAllowedHosts('fd00::1', 8787)]).toEqual(['[fd00::1]:8787']);
    expect([...listenerAllowedHosts('[fd00::1]', 8787)]).toEqual(['[fd00::1]:8787']);
  });

  test('--allowed-host values: name:port exactly, a bare name with any port or none', () => {
    const allowed = listenerAllowedHosts('0.0.0.0', 8787, ['corpus.internal:8787', 'corpus', '[fd00::1]']);
    const verdicts = Object.fromEntries(
      [
        'corpus.internal:8787',
        'CORPUS.INTERNAL:8787',
        'corpus.internal',
        'corpus.internal:9464',
        'corpus',
        'corpus:1',
        'Corpus:9464',
        '[fd00::1]',
        '[fd00::1]:8787',
        'corpus.evil.example',
        'evil-corpus:8787',
        'corpus:*',
        '*',
        '0.0.0.0:8787',
        '0.0.0.0:8788',
      ].map((host) => [host, isAllowedHost(allowed, host)]),
    );
    expect(verdicts).toEqual({
      'corpus.internal:8787': true,
      'CORPUS.INTERNAL:8787': true,
      'corpus.internal': false,
      'corpus.internal:9464': false,
      corpus: true,
      'corpus:1': true,
      'Corpus:9464': true,
      '[fd00::1]': true,
      '[fd00::1]:8787': true,
      'corpus.evil.example': false,
      'evil-corpus:8787': false,
      'corpus:*': false,
      '*': false,
      '0.0.0.0:8787': true,
      '0.0.0.0:8788': false,
    });
    expect(isAllowedHost(allowed, null)).toBe(false);
  });

  test('parseAllowedHost() normalizes good values and names the problem of bad ones', () => {
    expect(['Corpus', 'corpus.internal:08787', 'my_service', '10.0.0.7:80', '[FD00:0::1]:9464', ' corpus '].map(parseAllowedHost)).toEqual([
      { value: 'corpus' },
      { value: 'corpus.internal:8787' },
      { value: 'my_service' },
      { value: '10.0.0.7:80' },
      { value: '[fd00::1]:9464' },
      { value: 'corpus' },
    ]);
    const problems = [
      '',
      '  ',
      'http://corpus',
      'corpus/',
      'user@corpus',
      'corpus?x',
      '*',
      '*.example.com',
      'corpus:0',
      'corpus:65536',
      'corpus:',
      'a..b',
      '-a',
      'a-',
      '::1',
      '[zz::1]',
      `${'a'.repeat(64)}.example`,
      'a:1:2',
      'é.example',
    ];
    expect(problems.map((value) => ('problem' in parseAllowedHost(value) ? (parseAllowedHost(value) as { problem: string }).problem : 'accepted'))).toEqual([
      'empty',
      'empty',
      'url',
      'url',
      'url',
      'url',
      'wildcard',
      'wildcard',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
  });
});
