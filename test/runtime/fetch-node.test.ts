// networkDebugEnabled() (config.md §12, "Runtime switches that weaken or print requests"): which
// NODE_DEBUG values make the Node.js route refuse every request. The parsing is plain string
// work, tested here for every form; test/cli/hook.test.ts runs one value through the Node.js
// bundle to show that nothing is sent and nothing reaches stderr.
import { describe, expect, test } from 'bun:test';
import { networkDebugEnabled } from '../../src/runtime/fetch-node.ts';

describe('networkDebugEnabled', () => {
  test('a network section named directly, alone or in a comma- or space-separated list, in any case', () => {
    for (const value of ['http', 'http2', 'https', 'net', 'tls', 'fetch', 'undici', 'dns', 'http,net,fetch', 'module, undici', 'worker net', 'HTTP', 'Undici']) {
      expect({ value, enabled: networkDebugEnabled(value) }).toEqual({ value, enabled: true });
    }
  });

  test("Node's * wildcard reaches a network section", () => {
    for (const value of ['*', 'http*', 'un*', '*ls', 'module,*']) {
      expect({ value, enabled: networkDebugEnabled(value) }).toEqual({ value, enabled: true });
    }
  });

  test('empty or only other sections: requests are sent', () => {
    for (const value of ['', ' , ', 'module', 'worker,esm', 'httpx', 'nett', 'mod*']) {
      expect({ value, enabled: networkDebugEnabled(value) }).toEqual({ value, enabled: false });
    }
  });

  test('regular-expression characters in a section are literal', () => {
    for (const value of ['htt.', 'ne+', '(http)', 'h[t]tp', 'http?']) {
      expect({ value, enabled: networkDebugEnabled(value) }).toEqual({ value, enabled: false });
    }
  });
});
