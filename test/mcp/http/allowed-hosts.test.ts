// allowedHosts() and isAllowedHost(): the Host allow-list of remote.md §1.5 step 1.
import { describe, expect, test } from 'bun:test';
import { allowedHosts, isAllowedHost } from '../../../src/mcp/http/allowed-hosts.ts';

describe('allowedHosts()', () => {
  test('a loopback listen host allows all three loopback names with the bound port', () => {
    expect([...allowedHosts('127.0.0.1', 4100, undefined)].sort()).toEqual(['127.0.0.1:4100', '[::1]:4100', 'localhost:4100']);
    expect([...allowedHosts('[::1]', 4100, undefined)].sort()).toEqual(['127.0.0.1:4100', '[::1]:4100', 'localhost:4100']);
  });

  test('another listen host allows only itself, plus the --resource host as URL.host reports it', () => {
    expect([...allowedHosts('192.0.2.10', 443, 'https://Context.Example.com/mcp')].sort()).toEqual(['192.0.2.10:443', 'context.example.com']);
    expect([...allowedHosts('0.0.0.0', 8788, 'https://context.example.com:8443/mcp')].sort()).toEqual(['0.0.0.0:8788', 'context.example.com:8443']);
    expect([...allowedHosts('0.0.0.0', 8788, 'http://localhost:80/mcp')].sort()).toEqual(['0.0.0.0:8788', 'localhost']);
  });
});

describe('isAllowedHost()', () => {
  const allowed = allowedHosts('127.0.0.1', 4100, 'https://context.example.com/mcp');

  test('compares ASCII case-insensitively and exactly otherwise', () => {
    expect(isAllowedHost(allowed, 'LocalHost:4100')).toBe(true);
    expect(isAllowedHost(allowed, 'CONTEXT.example.com')).toBe(true);
    expect(isAllowedHost(allowed, 'localhost')).toBe(false);
    expect(isAllowedHost(allowed, 'localhost:4100 ')).toBe(false);
    expect(isAllowedHost(allowed, 'context.example.com:443')).toBe(false);
    expect(isAllowedHost(allowed, null)).toBe(false);
  });

  test('a non-ASCII letter that lowercases to an allowed host is refused', () => {
    // U+212A KELVIN SIGN lowercases to "k" with toLowerCase(); only ASCII folding applies.
    const kelvin = allowedHosts('127.0.0.1', 1, 'https://k.example/mcp');
    expect(isAllowedHost(kelvin, '\u212A.example')).toBe(false);
    expect(isAllowedHost(kelvin, 'K.example')).toBe(true);
  });
});
