// Guards of server-recovery.ts; the refresh and reconnect paths themselves run against real
// servers in frontend-mcp-gateway.test.ts and approval-book.test.ts.
import { expect, test } from 'bun:test';
import { recoverLostSession, type RecoveryContext, toolsChangedHandler } from '../../../src/gateway/discovery/server-recovery.ts';
import { ServerSlot } from '../../../src/gateway/discovery/server-slot.ts';
import { readOnlyPolicy, recordingLogger, server } from '../gateway-fixtures.ts';

function context(closed = false): { context: RecoveryContext; events: ReturnType<typeof recordingLogger>['events'] } {
  const { events, logger } = recordingLogger();
  return {
    events,
    context: {
      fetch: () => Promise.reject(new Error('no network in this test')),
      logger,
      isClosed: () => closed,
      nameAlone: () => [],
    },
  };
}

test('toolsChangedHandler() logs ignored without refreshOnListChanged and is deaf after a failure', () => {
  const { context: ctx, events } = context();
  const slot = new ServerSlot(server('docs', 'https://e.com/', { search: readOnlyPolicy() }), ctx.logger, () => {});
  const handler = toolsChangedHandler(slot, ctx);
  handler();
  expect(events).toEqual([{ event: 'frontend_mcp.tools_changed', server: 'docs', outcome: 'ignored' }]);
  slot.failClosed('Frontend MCP discovery failed.');
  handler();
  expect(events.filter((event) => event.event === 'frontend_mcp.tools_changed')).toHaveLength(1);
});

test('toolsChangedHandler() queues a refresh while the server is not ready yet', () => {
  const { context: ctx } = context();
  const slot = new ServerSlot(server('docs', 'https://e.com/', {}, { refreshOnListChanged: true }), ctx.logger, () => {});
  slot.status = 'connecting';
  toolsChangedHandler(slot, ctx)();
  expect(slot.refreshQueued).toBe(true);
});

test('recoverLostSession() ignores a stale generation and a closed gateway', () => {
  const { context: ctx, events } = context();
  const slot = new ServerSlot(server('docs', 'https://e.com/', {}), ctx.logger, () => {});
  slot.status = 'ready';
  recoverLostSession(slot, 5, ctx);
  const closed = context(true);
  recoverLostSession(slot, 0, closed.context);
  expect([slot.status, events, closed.events]).toEqual(['ready', [], []]);
});
