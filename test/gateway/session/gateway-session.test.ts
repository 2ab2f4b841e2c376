// GatewaySession: turns, per-turn limits, repeat suppression and cancellation (frontend-mcp.md §8),
// against a real loopback MCP server.
import { afterEach, expect, test } from 'bun:test';
import { FrontendMcpGateway } from '../../../src/gateway/frontend-mcp-gateway.ts';
import { CallIdMemory, type GatewaySession } from '../../../src/gateway/session/gateway-session.ts';
import { config, eventually, fakeClock, readOnlyPolicy, server } from '../gateway-fixtures.ts';
import { startMcpServer, type TestServer, textResult, waitForAbort } from '../mcp-test-server.ts';

let running: TestServer | undefined;
let gateway: FrontendMcpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await running?.close();
  gateway = undefined;
  running = undefined;
});

const LOOP_LIMIT = {
  status: 'failed',
  error: true,
  error_code: 'tool_loop_limit',
  user_message: 'Tool calls in this turn reached the safety limit; no further calls will run.',
  retryable: true,
} as const;

async function setup(
  tools: Parameters<typeof server>[2],
  options: { now?: () => number; onCall?: Parameters<typeof startMcpServer>[0]['onCall'] } = {},
): Promise<{ session: GatewaySession; mcp: TestServer }> {
  const mcp = startMcpServer({
    tools: Object.keys(tools).map((name) => ({ name })),
    onCall: options.onCall ?? ((name, args) => textResult(`${name} ${JSON.stringify(args)}`)),
  });
  running = mcp;
  gateway = new FrontendMcpGateway(config(server('docs', mcp.url, tools)), options.now === undefined ? {} : { now: options.now });
  await gateway.discover();
  return { session: gateway.createSession(), mcp };
}

let callCounter = 0;
const call = (session: GatewaySession, name: string, args: unknown, turnId = 't1', signal?: AbortSignal) =>
  session.handleToolCall({ callId: `c${++callCounter}`, name, args, turnId, ...(signal === undefined ? {} : { signal }) });

test('handleToolCall() runs a read-only tool in the current turn and returns its envelope', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy() });
  session.beginTurn({ turnId: 't1', userText: 'find it' });
  const outcome = await call(session, 'mcp__docs__search', { q: 'x' });
  expect(outcome.createResponse).toBe(true);
  expect(outcome.output).toMatchObject({ status: 'ok', text: 'search {"q":"x"}' });
  expect(mcp.calls).toHaveLength(1);
});

test('with maxCallsPerTurn 1 a second call gets tool_loop_limit and an exact repeat (keys reordered) gets duplicate', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy({ maxCallsPerTurn: 1 }) });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  await call(session, 'mcp__docs__search', { a: 1, b: { c: 2, d: 3 } });
  expect(await call(session, 'mcp__docs__search', { a: 2 })).toEqual({ output: LOOP_LIMIT, createResponse: true });
  expect(await call(session, 'mcp__docs__search', { b: { d: 3, c: 2 }, a: 1 })).toEqual({
    output: { status: 'duplicate', message: 'This operation was already handled in this turn and will not run again.' } as const,
    createResponse: false,
  });
  expect(mcp.calls).toHaveLength(1);
});

test('a new turn resets the budget', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy({ maxCallsPerTurn: 1 }) });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  await call(session, 'mcp__docs__search', {});
  session.beginTurn({ turnId: 't2', userText: 'again' });
  expect((await call(session, 'mcp__docs__search', {}, 't2')).output).toMatchObject({ status: 'ok' });
  expect(mcp.calls).toHaveLength(2);
});

test('a stale turn gets superseded and is not run; so does any call before the first turn', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy() });
  const superseded = { output: { status: 'superseded', message: 'The user has started a new turn; this call was not run.' }, createResponse: false } as const;
  expect(await call(session, 'mcp__docs__search', {}, 't0')).toEqual(superseded);
  session.beginTurn({ turnId: 't1', userText: 'a' });
  session.beginTurn({ turnId: 't2', userText: 'b' });
  expect(await call(session, 'mcp__docs__search', {}, 't1')).toEqual(superseded);
  expect(mcp.calls).toHaveLength(0);
});

test('a replayed callId is ignored', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy() });
  session.beginTurn({ turnId: 't1', userText: 'a' });
  await session.handleToolCall({ callId: 'same', name: 'mcp__docs__search', args: {}, turnId: 't1' });
  expect(await session.handleToolCall({ callId: 'same', name: 'mcp__docs__search', args: { x: 1 }, turnId: 't1' })).toEqual({ output: null, createResponse: false });
  expect(mcp.calls).toHaveLength(1);
});

test('12 counted calls across all tools is the turn limit', async () => {
  const tools = Object.fromEntries(['a', 'b', 'c', 'd'].map((name) => [name, readOnlyPolicy({ maxCallsPerTurn: 4 })]));
  const { session, mcp } = await setup(tools);
  session.beginTurn({ turnId: 't1', userText: 'go' });
  for (const name of ['a', 'b', 'c']) for (let index = 0; index < 4; index++) await call(session, `mcp__docs__${name}`, { index });
  expect((await call(session, 'mcp__docs__d', {})).output).toEqual(LOOP_LIMIT);
  expect(mcp.calls).toHaveLength(12);
});

test("calls more than 30000 ms after the turn's first counted call get tool_loop_limit (fake clock)", async () => {
  const clock = fakeClock();
  const { session } = await setup({ search: readOnlyPolicy({ maxCallsPerTurn: 4 }) }, { now: clock.now });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  await call(session, 'mcp__docs__search', { n: 1 });
  clock.advance(30000);
  expect((await call(session, 'mcp__docs__search', { n: 2 })).output).toMatchObject({ status: 'ok' });
  clock.advance(1);
  expect((await call(session, 'mcp__docs__search', { n: 3 })).output).toEqual(LOOP_LIMIT);
});

test('unknown names get unsupported_tool and non-object arguments never run', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy() });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  expect((await call(session, 'host_tool', {})).output).toMatchObject({ error_code: 'unsupported_tool', user_message: 'This tool is not available.', retryable: false });
  expect((await call(session, 'mcp__docs__search', ['x'])).output).toMatchObject({ error_code: 'tool_unavailable' });
  expect(mcp.calls).toHaveLength(0);
});

test('a writable tool without approval in a hand-built policy is never executed (tool_unavailable)', async () => {
  const { session, mcp } = await setup({ write: readOnlyPolicy({ readOnly: false, approval: 'none' }) });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  expect((await call(session, 'mcp__docs__write', {})).output).toMatchObject({ error_code: 'tool_unavailable', user_message: 'This capability is not enabled.' });
  expect(mcp.calls).toHaveLength(0);
});

test('abortTurn() during a slow call aborts it and the server receives notifications/cancelled', async () => {
  const { session, mcp } = await setup({ slow: readOnlyPolicy() }, { onCall: (_name, _args, context) => waitForAbort(context.signal) });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  const pending = call(session, 'mcp__docs__slow', {});
  await eventually(() => mcp.calls.length === 1, 'the MCP server received one call');
  session.abortTurn();
  expect((await pending).output).toEqual({
    status: 'failed',
    error: true,
    error_code: 'external_tool_unavailable',
    user_message: 'The external tool is temporarily unavailable.',
    retryable: true,
  } as const);
  await eventually(() => mcp.received.some((message) => message['method'] === 'notifications/cancelled'), 'the MCP server received notifications/cancelled');
  // The turn goes on: a later call of the same turn runs with a fresh signal.
  expect((await call(session, 'mcp__docs__slow', { again: true }, 't1', AbortSignal.timeout(100))).output).toMatchObject({ error_code: 'external_tool_unavailable' });
});

test("beginTurn() aborts the previous turn's in-flight calls, and the caller signal aborts too", async () => {
  const { session, mcp } = await setup({ slow: readOnlyPolicy() }, { onCall: (_name, _args, context) => waitForAbort(context.signal) });
  session.beginTurn({ turnId: 't1', userText: 'go' });
  const pending = call(session, 'mcp__docs__slow', {});
  await eventually(() => mcp.calls.length === 1, 'the MCP server received one call');
  session.beginTurn({ turnId: 't2', userText: 'stop that' });
  expect((await pending).output).toMatchObject({ error_code: 'external_tool_unavailable' });
  const controller = new AbortController();
  const second = call(session, 'mcp__docs__slow', {}, 't2', controller.signal);
  await eventually(() => mcp.calls.length === 2, 'the MCP server received two calls');
  controller.abort();
  expect((await second).output).toMatchObject({ error_code: 'external_tool_unavailable' });
});

test('beginTurn() and handleToolCall() require string ids; a closed session runs nothing', async () => {
  const { session, mcp } = await setup({ search: readOnlyPolicy() });
  expect(() => session.beginTurn({ turnId: undefined as unknown as string, userText: 'x' })).toThrow(TypeError);
  await expect(session.handleToolCall({ callId: 1 as unknown as string, name: 'x', args: {}, turnId: 't' })).rejects.toThrow(TypeError);
  session.beginTurn({ turnId: 't1', userText: 'go' });
  session.close();
  expect((await call(session, 'mcp__docs__search', {})).output).toMatchObject({ status: 'superseded' });
  expect(mcp.calls).toHaveLength(0);
});

test('CallIdMemory.seen() reports repeats among the last 500 ids and forgets older ones', () => {
  const memory = new CallIdMemory();
  expect(memory.seen('c0')).toBe(false);
  expect(memory.seen('c0')).toBe(true);
  for (let index = 1; index <= 500; index++) memory.seen(`c${index}`);
  expect(memory.seen('c0')).toBe(false);
  expect(memory.seen('c500')).toBe(true);
});
