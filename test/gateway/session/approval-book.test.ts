// The approval state machine (frontend-mcp.md §9) through GatewaySession, against a real loopback
// MCP server: every transition, its output, its log event, and the executions the server saw.
import { afterEach, expect, test } from 'bun:test';
import { canonicalSha256 } from '../../../src/gateway/canonical-json.ts';
import { FrontendMcpGateway } from '../../../src/gateway/frontend-mcp-gateway.ts';
import type { GatewayLogEvent } from '../../../src/gateway/gateway-log.ts';
import type { GatewaySession } from '../../../src/gateway/session/gateway-session.ts';
import { config, eventually, fakeClock, readOnlyPolicy, recordingLogger, server, writablePolicy } from '../gateway-fixtures.ts';
import { jsonRpcError, startMcpServer, type TestServer, textResult } from '../mcp-test-server.ts';
import { frozenClone } from '../../../src/gateway/session/approval-book.ts';

const CANARY_ARG = 'canary-argument-value-51c9';
const ARGS = { title: CANARY_ARG, labels: ['bug'], priority: 2 };
const RESPOND = 'respond_frontend_tool_permission';

let running: TestServer | undefined;
let gateway: FrontendMcpGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await running?.close();
  gateway = undefined;
  running = undefined;
});

interface Setup {
  session: GatewaySession;
  mcp: TestServer;
  events: GatewayLogEvent[];
  clock: ReturnType<typeof fakeClock>;
  gateway: FrontendMcpGateway;
}

async function setup(options: { onCall?: Parameters<typeof startMcpServer>[0]['onCall']; refresh?: boolean } = {}): Promise<Setup> {
  const mcp = startMcpServer({
    tools: [{ name: 'create_issue' }, { name: 'create_label' }, { name: 'search' }, { name: 'mutate' }],
    listChanged: true,
    onCall: options.onCall ?? ((name) => textResult(`${name} done`)),
  });
  running = mcp;
  const { events, logger } = recordingLogger();
  const clock = fakeClock();
  gateway = new FrontendMcpGateway(
    config(
      server(
        'tracker',
        mcp.url,
        {
          create_issue: writablePolicy({ maxCallsPerTurn: 4, description: 'Create an issue in the configured tracker.' }),
          create_label: writablePolicy({ maxCallsPerTurn: 4 }),
          search: readOnlyPolicy(),
          mutate: readOnlyPolicy(),
        },
        { refreshOnListChanged: options.refresh === true },
      ),
    ),
    { logger, now: clock.now },
  );
  await gateway.discover();
  return { session: gateway.createSession(), mcp, events, clock, gateway };
}

let counter = 0;
const callIn = (session: GatewaySession, turnId: string, name: string, args: unknown) => session.handleToolCall({ callId: `call-${++counter}`, name, args, turnId });

async function request(session: GatewaySession, turnId: string, args: unknown = ARGS): Promise<string> {
  const { output } = await callIn(session, turnId, 'mcp__tracker__create_issue', args);
  expect(output).toMatchObject({ status: 'confirmation_required' });
  return (output as { authorization_id: string }).authorization_id;
}

const answer = (session: GatewaySession, turnId: string, id: string, decision: 'allow' | 'reject') => callIn(session, turnId, RESPOND, { authorization_id: id, decision });

const actions = (events: GatewayLogEvent[]) => events.flatMap((event) => (event.event === 'frontend_mcp.approval' ? [event.action] : []));
const failureCode = (output: unknown) => (output as { error_code?: string }).error_code;

test('a writable call in turn 1 returns confirmation_required and runs nothing', async () => {
  const { session, mcp, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const outcome = await callIn(session, 't1', 'mcp__tracker__create_issue', ARGS);
  expect(outcome.createResponse).toBe(true);
  const output = outcome.output as Record<string, unknown>;
  expect(output).toEqual({
    status: 'confirmation_required',
    authorization_id: expect.stringMatching(/^frontend_auth_[0-9a-f-]{36}$/),
    operation: 'Create an issue in the configured tracker.',
    arguments_summary: `{"labels":["bug"],"priority":2,"title":"${CANARY_ARG}"}`,
    expires_in_seconds: 120,
    message:
      "This operation changes an external system and needs the user's explicit consent first. Briefly describe the operation and its arguments, ask whether to allow it, and do not claim it has run. After the user answers in a new turn, call respond_frontend_tool_permission with the decision they expressed. Never read the authorization id aloud.",
  });
  expect(mcp.calls).toHaveLength(0);
  expect(events).toContainEqual({
    event: 'frontend_mcp.approval',
    action: 'requested',
    authorization_id: output['authorization_id'] as string,
    server: 'tracker',
    tool: 'create_issue',
    args_sha256: canonicalSha256(ARGS),
  });
});

test('an allow in the same turn is refused and the request is gone', async () => {
  const { session, mcp, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  expect((await answer(session, 't1', id, 'allow')).output).toMatchObject({
    error_code: 'external_authorization_same_turn',
    user_message: "Approval must come from the user's answer in a later turn. The request was cancelled; request the operation again and ask the user.",
  });
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  expect(failureCode((await answer(session, 't2', id, 'allow')).output)).toBe('external_authorization_not_pending');
  expect(mcp.calls).toHaveLength(0);
  expect(actions(events)).toEqual(['requested', 'refused_same_turn']);
});

test('an allow in a later turn with user text runs the original arguments once; a replay is not pending', async () => {
  const { session, mcp, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const args = { ...ARGS, labels: [...ARGS.labels] };
  const id = await request(session, 't1', args);
  args.title = 'tampered';
  args.labels.push('tampered');
  session.beginTurn({ turnId: 't2', userText: 'yes, do it' });
  const allowed = await answer(session, 't2', id, 'allow');
  expect(allowed).toEqual({ output: expect.objectContaining({ status: 'ok', text: 'create_issue done' }), createResponse: true });
  expect(mcp.calls).toEqual([{ name: 'create_issue', args: ARGS }]);
  session.beginTurn({ turnId: 't3', userText: 'do it again' });
  expect((await answer(session, 't3', id, 'allow')).output).toMatchObject({
    error_code: 'external_authorization_not_pending',
    user_message: 'No external tool request is waiting for a decision.',
  });
  expect(mcp.calls).toHaveLength(1);
  expect(actions(events)).toEqual(['requested', 'allowed', 'executed']);
});

test('an answer carrying anything but the id and the decision is refused; the stored arguments still run', async () => {
  const { session, mcp } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  for (const bad of [{ authorization_id: id, decision: 'allow', arguments: { title: 'evil' } }, { authorization_id: id, decision: 'always' }, { authorization_id: id }, 'allow']) {
    expect(failureCode((await callIn(session, 't2', RESPOND, bad)).output)).toBe('external_authorization_not_pending');
  }
  await answer(session, 't2', id, 'allow');
  expect(mcp.calls).toEqual([{ name: 'create_issue', args: ARGS }]);
});

test('reject returns rejected and runs nothing', async () => {
  const { session, mcp, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: 'no' });
  expect((await answer(session, 't2', id, 'reject')).output).toEqual({
    status: 'rejected',
    message: 'The user rejected this external tool operation. Nothing was run; confirm this briefly and do not call another tool for it.',
  });
  expect(mcp.calls).toHaveLength(0);
  expect(actions(events)).toEqual(['requested', 'rejected']);
});

test('two concurrent allow answers produce one execution and one not_pending', async () => {
  const { session, mcp } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  const outcomes = await Promise.all([answer(session, 't2', id, 'allow'), answer(session, 't2', id, 'allow')]);
  expect(outcomes.map((outcome) => (outcome.output as { status: string }).status).sort()).toEqual(['failed', 'ok']);
  expect(mcp.calls).toHaveLength(1);
});

test('an allow without a recorded user answer keeps the request pending', async () => {
  const { session, mcp, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: '   ' });
  expect((await answer(session, 't2', id, 'allow')).output).toMatchObject({
    error_code: 'external_authorization_no_user_answer',
    user_message: "No user answer was recorded in this turn; wait for the user's answer.",
  });
  session.beginTurn({ turnId: 't3', userText: 'yes' });
  expect((await answer(session, 't3', id, 'allow')).output).toMatchObject({ status: 'ok' });
  expect(mcp.calls).toHaveLength(1);
  expect(actions(events)).toEqual(['requested', 'refused_no_answer', 'allowed', 'executed']);
});

test('an expired request answers expired (fake clock), in the same turn and after a new turn', async () => {
  const { session, mcp, events, clock } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const first = await request(session, 't1');
  clock.advance(120000);
  expect((await answer(session, 't1', first, 'allow')).output).toMatchObject({
    error_code: 'external_authorization_expired',
    user_message: 'The confirmation request expired. Nothing was run; request the operation again if the user still wants it.',
  });
  session.beginTurn({ turnId: 't2', userText: 'file it again' });
  const second = await request(session, 't2', { title: 'second' });
  clock.advance(120001);
  session.beginTurn({ turnId: 't3', userText: 'yes' });
  expect(failureCode((await answer(session, 't3', second, 'allow')).output)).toBe('external_authorization_expired');
  expect(failureCode((await answer(session, 't3', second, 'allow')).output)).toBe('external_authorization_not_pending');
  expect(mcp.calls).toHaveLength(0);
  expect(actions(events)).toEqual(['requested', 'expired', 'requested', 'expired']);
});

test('an allow after the tool definition changed is invalidated', async () => {
  const {
    session,
    mcp,
    events,
    gateway: current,
  } = await setup({
    refresh: true,
    onCall: async (name, _args, context) => {
      if (name === 'mutate') {
        running?.setTools([{ name: 'create_issue', inputSchema: { type: 'object', properties: { extra: {} } } }, { name: 'create_label' }, { name: 'search' }, { name: 'mutate' }]);
        await context.notify('notifications/tools/list_changed');
      }
      return textResult('ok');
    },
  });
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  const digest = current.toolRecords()[0]?.digest;
  await callIn(session, 't1', 'mcp__tracker__mutate', {});
  await eventually(() => current.toolRecords()[0]?.digest !== digest, 'the tool digest changed');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  expect((await answer(session, 't2', id, 'allow')).output).toMatchObject({
    error_code: 'external_authorization_invalidated',
    user_message: 'The tool changed or became unavailable after the request; nothing was run.',
  });
  expect(mcp.calls.map((entry) => entry.name)).toEqual(['mutate']);
  expect(actions(events)).toEqual(['requested', 'invalidated']);
});

test('an allow after the server reconnected (session lost) is invalidated', async () => {
  const { session, mcp, gateway: current } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  mcp.dropSessions();
  await callIn(session, 't1', 'mcp__tracker__search', {});
  await eventually(() => current.health().servers[0]?.status === 'ready', 'the server is ready');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  expect(failureCode((await answer(session, 't2', id, 'allow')).output)).toBe('external_authorization_invalidated');
  expect(mcp.calls).toHaveLength(0);
});

test("a new session never sees another session's request, and closing a session cancels it", async () => {
  const { session, mcp, events, gateway: current } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.close();
  const reconnected = current.createSession();
  reconnected.beginTurn({ turnId: 't2', userText: 'yes' });
  expect(failureCode((await answer(reconnected, 't2', id, 'allow')).output)).toBe('external_authorization_not_pending');
  expect(mcp.calls).toHaveLength(0);
  expect(actions(events)).toEqual(['requested', 'cancelled']);
});

test('at most 8 requests wait per session', async () => {
  const { session } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'many' });
  for (let index = 0; index < 4; index++) await request(session, 't1', { index });
  for (let index = 0; index < 4; index++) await callIn(session, 't1', 'mcp__tracker__create_label', { index });
  session.beginTurn({ turnId: 't2', userText: 'one more' });
  expect((await callIn(session, 't2', 'mcp__tracker__create_issue', { index: 9 })).output).toMatchObject({
    error_code: 'external_authorization_limit',
    retryable: true,
  });
});

test('a failure after allow is reported with the writable wording and never re-run', async () => {
  const { session, mcp, events } = await setup({ onCall: () => jsonRpcError('tracker down') });
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  expect((await answer(session, 't2', id, 'allow')).output).toMatchObject({ status: 'error', retryable: false, untrusted_error_text: 'tracker down' });
  expect(failureCode((await answer(session, 't2', id, 'allow')).output)).toBe('external_authorization_not_pending');
  expect(mcp.calls).toHaveLength(1);
  expect(actions(events)).toEqual(['requested', 'allowed', 'failed']);
});

test('a transport failure after allow answers external_tool_unavailable, not retryable', async () => {
  const { session, mcp, events } = await setup({ onCall: () => new Promise(() => {}) });
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const id = await request(session, 't1');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  const pending = answer(session, 't2', id, 'allow');
  await eventually(() => mcp.calls.length === 1, 'the MCP server received one call');
  await mcp.kill();
  expect((await pending).output).toEqual({
    status: 'failed',
    error: true,
    error_code: 'external_tool_unavailable',
    user_message: 'The external operation did not complete; it may or may not have taken effect. Do not retry automatically.',
    retryable: false,
  } as const);
  expect(actions(events)).toEqual(['requested', 'allowed', 'failed']);
});

test('every approval event carries id, server, tool and the argument digest, never argument values', async () => {
  const { session, events } = await setup();
  session.beginTurn({ turnId: 't1', userText: 'file a bug' });
  const rejected = await request(session, 't1');
  const allowed = await request(session, 't1', { ...ARGS, priority: 3 });
  await answer(session, 't1', await request(session, 't1', { ...ARGS, priority: 4 }), 'allow');
  session.beginTurn({ turnId: 't2', userText: 'yes' });
  await answer(session, 't2', rejected, 'reject');
  await answer(session, 't2', allowed, 'allow');
  await request(session, 't2', { ...ARGS, priority: 5 });
  session.close();
  expect(actions(events)).toEqual(['requested', 'requested', 'requested', 'refused_same_turn', 'rejected', 'allowed', 'executed', 'requested', 'cancelled']);
  for (const event of events) {
    if (event.event !== 'frontend_mcp.approval') continue;
    expect(Object.keys(event)).toEqual(['event', 'action', 'authorization_id', 'server', 'tool', 'args_sha256']);
    expect(event.args_sha256).toMatch(/^[0-9a-f]{64}$/);
  }
  expect(JSON.stringify(events)).not.toContain(CANARY_ARG);
});

test('frozenClone() returns a deep copy in which nothing can change', () => {
  const original = { title: 't', labels: ['a'], nested: { n: 1 } };
  const frozen = frozenClone(original);
  original.labels.push('b');
  expect(frozen).toEqual({ title: 't', labels: ['a'], nested: { n: 1 } });
  expect(Object.isFrozen(frozen) && Object.isFrozen(frozen.labels) && Object.isFrozen(frozen.nested)).toBe(true);
  expect(() => {
    'use strict';
    (frozen.nested as { n: number }).n = 2;
  }).toThrow();
});
