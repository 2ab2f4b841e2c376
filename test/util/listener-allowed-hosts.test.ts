// listenerAllowedHosts() (docs/design/providers.md §8.2 row 0b, remote.md §1.12): the `/mcp` rule
// without a resource, for corpus serve and the metrics listeners, whatever form the IPv6 host has.
import { describe, expect, test } from 'bun:test';
import { isAllowedHost, listenerAllowedHosts } from '../../src/util/allowed-hosts.ts';

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
});
