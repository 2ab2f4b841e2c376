// The write-confirmation Hook's decisions (hooks.md §3.2, rows 1–6 in order), output shapes
// (§3.4) and the in-process run: one stdout write, stdin limits, a failing stdout → 1.
import { describe, expect, test } from 'bun:test';
import { PassThrough, Writable } from 'node:stream';
import { MAX_HOOK_STDIN_BYTES } from '../../src/hooks/hook-io.ts';
import { decideWriteConfirmation, runWriteConfirmation, WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { recordingWritable } from '../support/recording-writable.ts';

const TOOL = 'mcp__external-context__context_remember';
const INVALID = 'External context memory write confirmation request is invalid.';
const PLAN = 'External context memory writes are not allowed in plan mode.';
const UNSUPPORTED = 'External context memory write permission mode is unsupported.';
const NO_PERSON = 'External context memory writes need a person to confirm them, and no person can confirm in this session.';
const ASK_PREFIX =
  'Save this exact content to the bound Mem0 repository memory? Nothing has been saved yet. If no person approves this, it stays unsaved: do not retry; tell the user the memory was not saved.\n';

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 's1',
    hook_event_name: 'PreToolUse',
    tool_name: TOOL,
    permission_mode: 'default',
    tool_input: { content: 'Remember: deploys freeze on Fridays.' },
    cwd: '/repo',
    ...overrides,
  };
}

function deny(reason: string): string {
  return `{"decision":"deny","reason":${JSON.stringify(reason)},"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":${JSON.stringify(reason)}}}`;
}

function askedContent(output: string): string {
  const parsed = JSON.parse(output) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(parsed.hookSpecificOutput.permissionDecision).toBe('ask');
  const reason = parsed.hookSpecificOutput.permissionDecisionReason;
  expect(reason.startsWith(ASK_PREFIX)).toBe(true);
  return JSON.parse(reason.slice(ASK_PREFIX.length)) as string;
}

describe('decideWriteConfirmation()', () => {
  test('the reasons are the exact spec texts', () => {
    const expected: Record<string, string> = { invalid: INVALID, plan: PLAN, unsupportedMode: UNSUPPORTED, noPerson: NO_PERSON, ask: ASK_PREFIX.trimEnd() };
    expect({ ...WRITE_CONFIRMATION_REASONS } as Record<string, string>).toEqual(expected);
  });

  test('row 1: stdin that is not an object is the invalid deny, with both deny fields set', () => {
    for (const value of [undefined, null, 'text', 3, [], [request()]]) {
      expect(decideWriteConfirmation(value)).toBe(deny(INVALID));
    }
  });

  test('row 2: a wrong event or a wrong tool passes with {}', () => {
    expect(decideWriteConfirmation(request({ hook_event_name: 'PostToolUse' }))).toBe('{}');
    expect(decideWriteConfirmation(request({ tool_name: 'mcp__external-context__context_search' }))).toBe('{}');
    expect(decideWriteConfirmation(request({ tool_name: 'mcp__other__context_remember' }))).toBe('{}');
    expect(decideWriteConfirmation(request({ hook_event_name: undefined }))).toBe('{}');
    expect(decideWriteConfirmation({})).toBe('{}');
    // Row 2 wins over row 3: a broken input for another tool still passes.
    expect(decideWriteConfirmation(request({ tool_name: 'Bash', tool_input: 7 }))).toBe('{}');
  });

  test('row 3: missing input, non-string, invisible, lone-surrogate or too long content is the invalid deny', () => {
    const bad = [
      request({ tool_input: undefined }),
      request({ tool_input: 'content' }),
      request({ tool_input: ['x'] }),
      request({ tool_input: null }),
      request({ tool_input: {} }),
      request({ tool_input: { content: 5 } }),
      request({ tool_input: { content: '   \n\t ' } }),
      request({ tool_input: { content: '\u0000\u200b\u202e\u{110BD}' } }),
      request({ tool_input: { content: 'ok\ud800' } }),
      request({ tool_input: { content: '\u{1F600}'.repeat(4001) } }),
      request({ permission_mode: undefined }),
      request({ permission_mode: 1 }),
    ];
    for (const value of bad) expect(decideWriteConfirmation(value)).toBe(deny(INVALID));
  });

  test('row 3 comes before row 4: plan mode with invalid content is the invalid deny', () => {
    expect(decideWriteConfirmation(request({ permission_mode: 'plan', tool_input: { content: ' ' } }))).toBe(deny(INVALID));
  });

  test('row 4: plan mode is denied with its own text', () => {
    expect(decideWriteConfirmation(request({ permission_mode: 'plan' }))).toBe(deny(PLAN));
  });

  test('row 5: an unknown permission mode is denied with its own text', () => {
    for (const mode of ['', 'bypassPermissions', 'DEFAULT', 'auto edit']) {
      expect(decideWriteConfirmation(request({ permission_mode: mode }))).toBe(deny(UNSUPPORTED));
    }
  });

  test('row 6: asks in default, auto, auto_edit, auto-edit and yolo with the exact output shape', () => {
    for (const mode of ['default', 'auto', 'auto_edit', 'auto-edit', 'yolo']) {
      const output = decideWriteConfirmation(request({ permission_mode: mode, tool_input: { content: 'plain' } }));
      expect(output).toBe(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":${JSON.stringify(`${ASK_PREFIX}"plain"`)}}}`);
    }
  });

  test('row 6: the text after the newline parses to the exact content; invisible characters appear only escaped', () => {
    const content = ' lead\u0001 C1\u0085 LS\u2028 PS\u2029 zw\u200b bidi\u202e\u2066 astral\u{110BD} emoji🙂 "q" \\ end ';
    const output = decideWriteConfirmation(request({ tool_input: { content } }));
    expect(askedContent(output)).toBe(content);
    const reason = (JSON.parse(output) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u.test(reason)).toBe(false);
    for (const escaped of ['\\u0001', '\\u0085', '\\u2028', '\\u2029', '\\u200b', '\\u202e', '\\u2066', '\\ud804\\udcbd']) {
      expect(reason).toContain(escaped);
    }
    expect(/[\u0080-\u009f\u2028\u2029\p{Cf}]/u.test(output)).toBe(false);
  });

  test('row 6: extra tool_input keys are ignored and exactly 4000 astral code points ask', () => {
    const content = '\u{1F600}'.repeat(4000);
    expect(askedContent(decideWriteConfirmation(request({ tool_input: { content, app_id: 'x', metadata: {} } })))).toBe(content);
  });

  test('--server-name ec matches mcp__ec__context_remember only', () => {
    expect(askedContent(decideWriteConfirmation(request({ tool_name: 'mcp__ec__context_remember' }), 'ec'))).toBe('Remember: deploys freeze on Fridays.');
    expect(decideWriteConfirmation(request({ tool_name: TOOL }), 'ec')).toBe('{}');
  });

  test('the legacy top-level fields of other Hooks never change the decision', () => {
    expect(decideWriteConfirmation(request({ decision: 'allow', prompt: 'x' }))).toContain('"permissionDecision":"ask"');
  });
});

function io(stdin: PassThrough, stdout: Writable) {
  return { stdin, stdout, env: {}, startedAtMs: Date.now() };
}

describe('runWriteConfirmation()', () => {
  test('writes exactly one answer without a trailing newline and returns 0', async () => {
    const stdin = new PassThrough();
    const { stream, writes } = recordingWritable();
    stdin.end(JSON.stringify(request()));
    expect(await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, io(stdin, stream))).toBe(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]?.endsWith('}')).toBe(true);
    expect(askedContent(writes[0] as string)).toBe('Remember: deploys freeze on Fridays.');
  });

  test('malformed JSON and more than 1 MiB of stdin are the invalid deny', async () => {
    for (const body of ['{"hook_event_name":', `{"x":"${'a'.repeat(MAX_HOOK_STDIN_BYTES)}"}`, '\u00ff\u00fe']) {
      const stdin = new PassThrough();
      const { stream, writes } = recordingWritable();
      stdin.end(body);
      expect(await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, io(stdin, stream))).toBe(0);
      expect(writes).toEqual([deny(INVALID)]);
    }
  });

  test('invalid UTF-8 on stdin is the invalid deny', async () => {
    const stdin = new PassThrough();
    const { stream, writes } = recordingWritable();
    stdin.end(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]));
    await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, io(stdin, stream));
    expect(writes).toEqual([deny(INVALID)]);
  });

  test('a bad command line or a bad server name is the invalid deny without reading stdin', async () => {
    for (const args of [
      { valid: false } as const,
      { valid: true, value: { serverName: 'a.b', host: 'qwen' } } as const,
      { valid: true, value: { serverName: 'x'.repeat(41), host: 'qwen' } } as const,
    ]) {
      const stdin = new PassThrough();
      const { stream, writes } = recordingWritable();
      expect(await runWriteConfirmation(args, io(stdin, stream))).toBe(0);
      expect(writes).toEqual([deny(INVALID)]);
      expect(stdin.readableFlowing).toBeNull();
    }
  });

  test('a failing stdout returns 1', async () => {
    const stdin = new PassThrough();
    stdin.end(JSON.stringify(request()));
    const failing = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('EPIPE'));
      },
    });
    expect(await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, io(stdin, failing))).toBe(1);
  });
});

describe('runWriteConfirmation() budget', () => {
  test('a stdin still open when the 6500 ms budget is spent counts as unreadable: the invalid deny', async () => {
    const stdin = new PassThrough();
    stdin.write('{"hook_event_name":"PreToolUse"');
    const { stream, writes } = recordingWritable();
    const spent = { stdin, stdout: stream, env: {}, startedAtMs: Date.now() - 6500 };
    expect(await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, spent)).toBe(0);
    expect(writes).toEqual([deny(INVALID)]);
    expect(stdin.destroyed).toBe(true);
  });
});
