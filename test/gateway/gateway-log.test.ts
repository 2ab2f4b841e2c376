import { expect, test } from 'bun:test';
import { emitLog } from '../../src/gateway/gateway-log.ts';

test('emitLog() delivers events and swallows a throwing logger', () => {
  const seen: unknown[] = [];
  emitLog((event) => seen.push(event), { event: 'frontend_mcp.connected', server: 's', tools: 1 });
  expect(seen).toEqual([{ event: 'frontend_mcp.connected', server: 's', tools: 1 }]);
  expect(() =>
    emitLog(
      () => {
        throw new Error('x');
      },
      { event: 'frontend_mcp.connected', server: 's', tools: 1 },
    ),
  ).not.toThrow();
  expect(() => emitLog(undefined, { event: 'frontend_mcp.connected', server: 's', tools: 1 })).not.toThrow();
});
