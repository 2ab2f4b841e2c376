import { describe, expect, test } from 'bun:test';
import { DEFAULT_LISTEN, parseListenAddress } from '../../../src/corpus/serve/listen-address.ts';

describe('parseListenAddress()', () => {
  test('parses host:port, [IPv6]:port and the loopback default', () => {
    expect(parseListenAddress(DEFAULT_LISTEN)).toEqual({ hostname: '127.0.0.1', port: 8787 });
    expect(parseListenAddress('localhost:0')).toEqual({ hostname: 'localhost', port: 0 });
    expect(parseListenAddress('[::1]:65535')).toEqual({ hostname: '::1', port: 65_535 });
    expect(parseListenAddress('[fe80::1%eth0]:80')).toEqual({ hostname: 'fe80::1%eth0', port: 80 });
  });

  test('rejects a missing port, a port above 65535, bare IPv6 and other forms', () => {
    for (const value of ['127.0.0.1', '127.0.0.1:', ':8787', '127.0.0.1:65536', '::1:80', '[::1]', '[127.0.0.1]:80', 'http://x:1', 'a b:1', '-x:1', '127.0.0.1:123456']) {
      expect(parseListenAddress(value)).toBeUndefined();
    }
  });
});
