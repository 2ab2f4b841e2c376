// context_remember (write.md): definition and annotations, registration rules, the content
// contract, extra arguments stripped, exactly one request per call under every fault, the
// exact result texts, operator lines, cancellation and timeout → unknown.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Writable } from 'node:stream';
import type { Binding } from '../../src/config/binding.ts';
import { CONTEXT_REMEMBER_DEFINITION, createContextRememberTool, REMEMBER_RESULT_TEXTS, rememberOperatorLine, rememberResultOf } from '../../src/mcp/context-remember.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { createTools } from '../../src/mcp/tools.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import type { BoundProvider } from '../../src/providers/types.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import type { FakeOverride } from '../fakes/overrides.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { eventually } from '../support/eventually.ts';
import { genericBinding, mem0Binding } from '../support/provider-bindings.ts';
import { recordingWritable } from '../support/recording-writable.ts';

const FAILED_TEXT = '{"status":"failed","message":"The provider rejected the memory. Do not retry without changing the content or configuration."}';
const UNKNOWN_TEXT = '{"status":"unknown","message":"The provider may have accepted the memory. Do not retry automatically."}';
const THROWN_TEXT = 'External context memory write failed.';
const CONTENT = ' Exact  text with emoji 🙂\nand a second line\t ';

/** A stderr that records what the tool writes. */
function recordingStderr(): { stream: Writable; lines: () => string[] } {
  const { stream, text } = recordingWritable();
  return {
    stream,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line !== ''),
  };
}

function providerFor(binding: Binding): BoundProvider {
  return createProvider(binding, { env: {} });
}

let platform: FakeServer;
let server: Mem0ServerFake;
let platformProvider: BoundProvider;
let serverProvider: BoundProvider;

beforeAll(async () => {
  // A loopback stand-in for the Platform's add route; each test scripts the reply with an override.
  platform = await startFakeServer({ handler: () => ({ status: 200, json: { status: 'SUCCEEDED' } }) });
  server = await startMem0ServerFake({ apiKey: CANARY.credential });
  platformProvider = providerFor(mem0Binding('mem0-platform-v3', platform.origin, { appId: 'repository-memory' }, { credential: CANARY.credential }));
  serverProvider = providerFor(mem0Binding('mem0-server-rest-2026-08', server.origin, { userId: 'u1' }, { credential: CANARY.credential }));
});

afterAll(async () => {
  await platform.close();
  await server.close();
});

beforeEach(() => {
  platform.reset();
  server.reset();
});

function tool(provider: BoundProvider, timeoutMs = 5000) {
  const stderr = recordingStderr();
  const remember = provider.remember;
  if (remember === undefined) throw new Error('the binding has no writer');
  return { tool: createContextRememberTool(remember.bind(provider), timeoutMs, stderr.stream), stderr };
}

const NOT_CANCELLED = new AbortController().signal;

describe('CONTEXT_REMEMBER_DEFINITION', () => {
  test('name, title, description and annotations are exact; no outputSchema', () => {
    expect(CONTEXT_REMEMBER_DEFINITION.name).toBe('context_remember');
    expect(CONTEXT_REMEMBER_DEFINITION.title).toBe('Remember external context');
    expect(CONTEXT_REMEMBER_DEFINITION.description).toBe(
      'Store the exact supplied text in the administrator-bound Mem0 repository memory. This non-idempotent operation may create a duplicate; use it only after the user approves the exact content.',
    );
    expect(CONTEXT_REMEMBER_DEFINITION.description).toHaveLength(189);
    expect(CONTEXT_REMEMBER_DEFINITION.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(Object.keys(CONTEXT_REMEMBER_DEFINITION.annotations)).toEqual(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
    expect('outputSchema' in CONTEXT_REMEMBER_DEFINITION).toBe(false);
  });

  test('the input schema is the contract file without $schema, $id and title, with no selector-like property', () => {
    expect(CONTEXT_REMEMBER_DEFINITION.inputSchema).toEqual({
      type: 'object',
      properties: { content: { type: 'string', minLength: 1, maxLength: 4000 } },
      required: ['content'],
    });
    expect('additionalProperties' in CONTEXT_REMEMBER_DEFINITION.inputSchema).toBe(false);
  });
});

describe('createTools() registration', () => {
  test('a version 1 write binding with a writer registers context_search then context_remember', () => {
    const binding = mem0Binding('mem0-server-rest-2026-08', server.origin, { userId: 'u1' });
    const names = createTools(binding, providerFor(binding), recordingStderr().stream).map((t) => t.definition.name);
    expect(names).toEqual(['context_search', 'context_remember']);
  });

  test('no write block, or no writer, registers context_search only', () => {
    const readOnly = mem0Binding('mem0-server-rest-2026-08', server.origin, { userId: 'u1' }, { writeEnabled: false });
    expect(createTools(readOnly, providerFor(readOnly), recordingStderr().stream).map((t) => t.definition.name)).toEqual(['context_search']);
    const generic = genericBinding('http://127.0.0.1:9');
    expect(createTools(generic, providerFor(generic), recordingStderr().stream).map((t) => t.definition.name)).toEqual(['context_search']);
  });

  test('tools/list over MCP shows both tools with the exact context_remember entry', async () => {
    const binding = mem0Binding('mem0-server-rest-2026-08', server.origin, { userId: 'u1' });
    const mcp = createMcpServer(createTools(binding, providerFor(binding), recordingStderr().stream));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '0.0.0' });
    await mcp.connect(serverSide);
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['context_search', 'context_remember']);
      expect(tools[1]).toEqual({
        name: 'context_remember',
        title: 'Remember external context',
        description: CONTEXT_REMEMBER_DEFINITION.description,
        inputSchema: CONTEXT_REMEMBER_DEFINITION.inputSchema,
        annotations: CONTEXT_REMEMBER_DEFINITION.annotations,
      } as never);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});

describe('context_remember input', () => {
  test('invalid content is rejected with the exact message and no request', async () => {
    const { tool: remember } = tool(serverProvider);
    const cases: [unknown, string][] = [
      [undefined, 'Memory content must be a string.'],
      [{}, 'Memory content must be a string.'],
      [{ content: 5 }, 'Memory content must be a string.'],
      [{ content: null }, 'Memory content must be a string.'],
      [[CONTENT], 'Memory content must be a string.'],
      [{ content: '\u{1F600}'.repeat(4001) }, 'Memory content must contain at most 4000 Unicode characters.'],
      [{ content: '' }, 'Memory content must contain valid visible text.'],
      [{ content: ' \n\t\u3000' }, 'Memory content must contain valid visible text.'],
      [{ content: '\u0000\u200b\u202e\u{110BD}' }, 'Memory content must contain valid visible text.'],
      [{ content: 'ok\ud800' }, 'Memory content must contain valid visible text.'],
    ];
    for (const [args, message] of cases) {
      expect(await remember.call(args, NOT_CANCELLED)).toEqual({ content: [{ type: 'text', text: message }], isError: true });
    }
    const inherited = Object.create({ content: 'from the prototype' }) as object;
    expect(await remember.call(inherited, NOT_CANCELLED)).toEqual({
      content: [{ type: 'text', text: 'Memory content must be a string.' }],
      isError: true,
    });
    expect(server.requests).toHaveLength(0);
  });

  test('exactly 4000 astral code points are sent', async () => {
    const { tool: remember } = tool(serverProvider);
    const content = '\u{1F600}'.repeat(4000);
    const result = await remember.call({ content }, NOT_CANCELLED);
    expect(result.isError).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  test('the exact content (spaces, emoji, newline) is forwarded unmodified and extra arguments are stripped', async () => {
    const { tool: remember } = tool(serverProvider);
    await remember.call({ content: CONTENT }, NOT_CANCELLED);
    await remember.call({ content: CONTENT, app_id: 'evil-app', user_id: 'evil-user', tenant: 'evil-tenant', filters: { user_id: 'evil' }, metadata: { a: 1 } }, NOT_CANCELLED);
    expect(server.requests).toHaveLength(2);
    const [plain, withExtras] = server.requests;
    expect(withExtras!.text).toBe(plain!.text);
    expect(JSON.parse(plain!.text)).toEqual({ messages: [{ role: 'user', content: CONTENT }], infer: false, user_id: 'u1' });
    expect(withExtras!.text).not.toContain('evil');
  });
});

describe('context_remember results', () => {
  test('stored with an id: the exact JSON text, not an error; `<` and `>` in the id are escaped', async () => {
    const { tool: remember, stderr } = tool(platformProvider);
    platform.override({ kind: 'reply', status: 200, json: { status: 'SUCCEEDED', event_id: 'ev-<1>' } });
    expect(await remember.call({ content: CONTENT }, NOT_CANCELLED)).toEqual({
      content: [{ type: 'text', text: '{"status":"stored","providerOperationId":"ev-\\u003c1\\u003e"}' }],
    });
    expect(stderr.lines()).toEqual([]);
  });

  test('stored without an id', async () => {
    const { tool: remember } = tool(platformProvider);
    platform.override({ kind: 'reply', status: 200, json: { status: 'SUCCEEDED' } });
    expect(await remember.call({ content: CONTENT }, NOT_CANCELLED)).toEqual({ content: [{ type: 'text', text: '{"status":"stored"}' }] });
  });

  test('stored with the id of the stock server (results-id, echo)', async () => {
    const { tool: remember } = tool(serverProvider);
    const result = await remember.call({ content: CONTENT }, NOT_CANCELLED);
    const id = server.memories.at(-1)?.id;
    expect(result).toEqual({ content: [{ type: 'text', text: `{"status":"stored","providerOperationId":${JSON.stringify(id)}}` }] });
  });

  test('accepted returns its JSON text and is not an error', async () => {
    const { tool: remember } = tool(platformProvider);
    platform.override({ kind: 'reply', status: 200, json: { status: 'PENDING', event_id: 'event-1' } });
    expect(await remember.call({ content: CONTENT }, NOT_CANCELLED)).toEqual({
      content: [{ type: 'text', text: '{"status":"accepted","providerOperationId":"event-1"}' }],
    });
  });

  test('failed: isError with the exact text and one operator line with the status only', async () => {
    const { tool: remember, stderr } = tool(platformProvider);
    platform.override({ kind: 'reply', status: 422, json: { detail: CANARY.body } });
    const result = await remember.call({ content: CANARY.content }, NOT_CANCELLED);
    expect(result).toEqual({ content: [{ type: 'text', text: FAILED_TEXT }], isError: true });
    expect(result.content[0]!.text).toContain('The provider rejected the memory.');
    expect(result.content[0]!.text).toContain('Do not retry without changing the content or configuration.');
    expect(stderr.lines()).toEqual(['external-context: context_remember failed: http-status 422']);
  });

  test('unknown: isError with the exact text and one operator line', async () => {
    const { tool: remember, stderr } = tool(platformProvider);
    platform.override({ kind: 'reply', status: 200, json: { status: 'SUCCEEDED', results: [] } });
    const result = await remember.call({ content: CONTENT }, NOT_CANCELLED);
    expect(result).toEqual({ content: [{ type: 'text', text: UNKNOWN_TEXT }], isError: true });
    expect(result.content[0]!.text).toContain('Do not retry automatically.');
    expect(stderr.lines()).toEqual(['external-context: context_remember unknown: response-not-recognized']);
  });

  test('a writer that throws: the fixed text and the fixed operator line, never the error message', async () => {
    const stderr = recordingStderr();
    const throwing = createContextRememberTool(
      async () => {
        throw new Error(CANARY.body);
      },
      5000,
      stderr.stream,
    );
    const result = await throwing.call({ content: CONTENT }, NOT_CANCELLED);
    expect(result).toEqual({ content: [{ type: 'text', text: THROWN_TEXT }], isError: true });
    expect(stderr.lines()).toEqual(['external-context: context_remember failed: External context memory write failed.']);
  });

  test('exactly one request under every fault, classified as the spec says, with no canary in any output', async () => {
    const faults: [FakeOverride, string, string][] = [
      [{ kind: 'reply', status: 400, json: { error: CANARY.body } }, FAILED_TEXT, 'failed: http-status 400'],
      [{ kind: 'reply', status: 401, json: {} }, FAILED_TEXT, 'failed: http-status 401'],
      [{ kind: 'reply', status: 404, json: {} }, FAILED_TEXT, 'failed: http-status 404'],
      [{ kind: 'reply', status: 413, json: {} }, FAILED_TEXT, 'failed: http-status 413'],
      [{ kind: 'reply', status: 409, json: {} }, UNKNOWN_TEXT, 'unknown: http-status 409'],
      [{ kind: 'reply', status: 429, json: {} }, UNKNOWN_TEXT, 'unknown: http-status 429'],
      [{ kind: 'reply', status: 500, body: CANARY.body }, UNKNOWN_TEXT, 'unknown: http-status 500'],
      [{ kind: 'reply', status: 503, json: {} }, UNKNOWN_TEXT, 'unknown: http-status 503'],
      [{ kind: 'redirect', status: 307 }, UNKNOWN_TEXT, 'unknown: redirect 307'],
      [{ kind: 'reply', status: 200, json: { status: 'FAILED' } }, FAILED_TEXT, 'failed: provider-reported-failed'],
      [{ kind: 'reply', status: 200, body: `not json ${CANARY.body}` }, UNKNOWN_TEXT, 'unknown: invalid-json'],
      [{ kind: 'invalid-utf8' }, UNKNOWN_TEXT, 'unknown: invalid-utf8'],
      [{ kind: 'reset-before-headers' }, UNKNOWN_TEXT, 'unknown: connection-reset'],
      [{ kind: 'reset-mid-body' }, UNKNOWN_TEXT, 'unknown: connection-reset'],
    ];
    for (const [fault, text, line] of faults) {
      platform.reset();
      const { tool: remember, stderr } = tool(platformProvider);
      platform.override(fault);
      const result = await remember.call({ content: CANARY.content }, NOT_CANCELLED);
      expect(result).toEqual({ content: [{ type: 'text', text }], isError: true });
      expect(stderr.lines()).toEqual([`external-context: context_remember ${line}`]);
      expect(platform.requests).toHaveLength(1);
      expectNoCanary(`${JSON.stringify(result)}\n${stderr.lines().join('\n')}`);
    }
  });

  test('the timeout aborts the request and yields the unknown text, after one request', async () => {
    const { tool: remember, stderr } = tool(platformProvider, 50);
    platform.override({ kind: 'stall-before-headers' });
    const result = await remember.call({ content: CONTENT }, NOT_CANCELLED);
    expect(result).toEqual({ content: [{ type: 'text', text: UNKNOWN_TEXT }], isError: true });
    expect(platform.requests).toHaveLength(1);
    await platform.requests[0]!.response.settled;
    expect(platform.requests[0]!.response.clientClosed).toBe(true);
    expect(stderr.lines()).toEqual(['external-context: context_remember unknown: timeout']);
  });

  test('client cancellation over MCP aborts the one in-flight request and is classified unknown', async () => {
    const binding = mem0Binding('mem0-platform-v3', platform.origin, { appId: 'repository-memory' });
    const stderr = recordingStderr();
    const mcp = createMcpServer(createTools(binding, providerFor(binding), stderr.stream));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'test', version: '0.0.0' });
    await mcp.connect(serverSide);
    await client.connect(clientSide);
    try {
      platform.override({ kind: 'stall-before-headers' });
      const controller = new AbortController();
      const call = client.callTool({ name: 'context_remember', arguments: { content: CONTENT } }, undefined, { signal: controller.signal });
      await platform.waitForRequests(1);
      controller.abort();
      await expect(call).rejects.toThrow();
      await platform.requests[0]!.response.settled;
      expect(platform.requests[0]!.response.clientClosed).toBe(true);
      await eventually(() => stderr.lines().length > 0, 'the operator line on stderr');
      expect(stderr.lines()).toEqual(['external-context: context_remember unknown: cancelled']);
      expect(platform.requests).toHaveLength(1);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});

describe('rememberResultOf()', () => {
  test('maps each outcome to its exact text', () => {
    expect(rememberResultOf({ status: 'stored' })).toEqual({ content: [{ type: 'text', text: '{"status":"stored"}' }] });
    expect(rememberResultOf({ status: 'stored', providerOperationId: 'a"b' })).toEqual({
      content: [{ type: 'text', text: '{"status":"stored","providerOperationId":"a\\"b"}' }],
    });
    expect(rememberResultOf({ status: 'accepted', providerOperationId: '<x>' })).toEqual({
      content: [{ type: 'text', text: '{"status":"accepted","providerOperationId":"\\u003cx\\u003e"}' }],
    });
    expect(rememberResultOf({ status: 'failed', cause: 'http-status 400' })).toEqual({ content: [{ type: 'text', text: FAILED_TEXT }], isError: true });
    expect(rememberResultOf({ status: 'unknown', cause: 'http-status 500' })).toEqual({ content: [{ type: 'text', text: UNKNOWN_TEXT }], isError: true });
    expect(REMEMBER_RESULT_TEXTS).toEqual({ failed: FAILED_TEXT, unknown: UNKNOWN_TEXT, thrown: THROWN_TEXT });
  });
});

describe('rememberOperatorLine()', () => {
  test('carries only a status or a fixed phrase; any other cause is replaced', () => {
    expect(rememberOperatorLine('failed', 'http-status 403')).toBe('external-context: context_remember failed: http-status 403');
    expect(rememberOperatorLine('unknown', 'timeout')).toBe('external-context: context_remember unknown: timeout');
    expect(rememberOperatorLine('unknown', 'timeout 500')).toBe('external-context: context_remember unknown: External context memory write failed.');
    expect(rememberOperatorLine('failed', 'HTTP 403')).toBe('external-context: context_remember failed: External context memory write failed.');
    expect(rememberOperatorLine('unknown', 'response-not-recognized')).toBe('external-context: context_remember unknown: response-not-recognized');
    expect(rememberOperatorLine('unknown', CANARY.body)).toBe('external-context: context_remember unknown: External context memory write failed.');
  });
});
