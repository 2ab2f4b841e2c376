// currentProxyRuntime(): the runtime facts the proxy decision needs, read in runtime/ (docs/design/config.md §12).
import { describe, expect, test } from 'bun:test';
import { currentProxyRuntime } from '../../src/runtime/proxy-runtime.ts';

describe('currentProxyRuntime()', () => {
  test('reports the executing runtime', () => {
    expect(currentProxyRuntime().name).toBe('bun');
    expect(Array.isArray(currentProxyRuntime().execArgv)).toBe(true);
  });
});
