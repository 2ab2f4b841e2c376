import { expect, test } from 'bun:test';
import { FrontendMcpError } from '../../../src/gateway/frontend-mcp-error.ts';
import { finalizeTool } from '../../../src/gateway/gateway-tool.ts';
import { failureMessage, ServerSlot } from '../../../src/gateway/discovery/server-slot.ts';
import { readOnlyPolicy, recordingLogger, server } from '../gateway-fixtures.ts';

const TOOL = finalizeTool(
  {
    serverKey: 'docs',
    remoteName: 'search',
    description: 'Search.',
    parameters: { type: 'object' },
    policy: { mode: 'inline', readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 32768, maxCallsPerTurn: 2 },
  },
  'mcp__docs__search',
);

test('ServerSlot starts pending or disabled and reports health per §11', () => {
  const { logger } = recordingLogger();
  expect(new ServerSlot(server('docs', 'https://e.com/', {}), logger, () => {}).health()).toEqual({ key: 'docs', enabled: true, status: 'pending', tools: 0 });
  expect(new ServerSlot({ ...server('off', 'https://e.com/', {}), enabled: false }, logger, () => {}).health()).toEqual({
    key: 'off',
    enabled: false,
    status: 'disabled',
    tools: 0,
  });
});

test('ServerSlot.markReady() and failClosed() log, notify and move the generation on failure only', async () => {
  const { events, logger } = recordingLogger();
  let changes = 0;
  const slot = new ServerSlot(server('docs', 'https://e.com/', { search: readOnlyPolicy() }), logger, () => changes++);
  let closed = false;
  const connection = { client: undefined as never, listChanged: false, isClosed: () => closed, close: async () => void (closed = true) };
  slot.markReady(connection, [TOOL]);
  expect([slot.health(), slot.generation, changes]).toEqual([{ key: 'docs', enabled: true, status: 'ready', tools: 1 }, 0, 1]);
  slot.failClosed('Frontend MCP session expired: docs');
  expect(slot.health()).toEqual({ key: 'docs', enabled: true, status: 'error', tools: 0, error: 'Frontend MCP session expired: docs' });
  expect([slot.generation, changes, closed, slot.connection]).toEqual([1, 2, true, undefined]);
  expect(events).toEqual([
    { event: 'frontend_mcp.connected', server: 'docs', tools: 1 },
    { event: 'frontend_mcp.connection_failed', server: 'docs', error: 'Frontend MCP session expired: docs' },
  ]);
});

test('failureMessage() passes our messages and replaces any other text', () => {
  expect(failureMessage(new FrontendMcpError('frontend_mcp_tool_unavailable', 'Frontend MCP discovery timed out: docs'))).toBe('Frontend MCP discovery timed out: docs');
  expect(failureMessage(new Error('upstream said canary'))).toBe('Frontend MCP discovery failed.');
});
