// The Hooks for Claude Code, Gemini CLI and Codex (hooks.md §6): each host's real input shape,
// its answer shapes and quirks (Gemini's empty BeforeAgent re-fire gives {} and no search), the
// settings fragment with the timeout in the host's unit, and the same command lines as real
// processes (the compiled executable when built, else Bun on the source).
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { autoRecall, readAutoRecallInput } from '../../src/hooks/auto-recall.ts';
import { HOOK_HOST_FACTS, HOOK_HOSTS, type HookHost } from '../../src/hooks/hosts.ts';
import { hookSettingsFragment } from '../../src/hooks/settings.ts';
import { decideWriteConfirmation, WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

const TOKEN = CANARY.credential;
const ITEMS = [{ id: 'doc-1', content: 'Deploys need <two> approvals.', title: 'Policy', uri: 'https://kb.example/p', score: 0.9 }];
const CONTENT = 'Deploy with the reviewed workflow.';
const ASK = `${WRITE_CONFIRMATION_REASONS.ask}\n${JSON.stringify(CONTENT)}`;

let fake: GenericHttpFake;
let tmp: TempDir;
let root: string;
let configPath: string;
const env = { CONTEXT_TOKEN: TOKEN };

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: TOKEN, items: ITEMS });
  tmp = await makeTempDir('ec-hook-hosts-');
  root = join(tmp.path, 'repo');
  await mkdir(root, { recursive: true });
  const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'CONTEXT_TOKEN' };
  configPath = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root } }, { dir: tmp.path, name: 'v2.json' });
});
afterAll(async () => {
  await fake.close();
  await tmp.remove();
});
afterEach(() => fake.reset());

/** The input each host really sends for a user prompt (fields as observed in the pinned builds). */
function promptInput(host: HookHost, prompt: string): Record<string, unknown> {
  const base = { session_id: 's-1', transcript_path: '/tmp/t.jsonl', cwd: root, timestamp: '2026-12-01T00:00:00Z' };
  switch (host) {
    case 'qwen':
      return { ...base, hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt, submitted_prompt: prompt };
    case 'claude':
      return { ...base, hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt };
    case 'gemini':
      return { ...base, hook_event_name: 'BeforeAgent', prompt };
    case 'codex':
      return { ...base, hook_event_name: 'UserPromptSubmit', permission_mode: 'default', model: 'gpt-5', turn_id: 't-1', prompt };
  }
}

/** The input each host sends before context_remember runs. */
function toolInput(host: HookHost, mode: string | undefined, content: unknown = CONTENT): Record<string, unknown> {
  const base = { session_id: 's-1', cwd: root, tool_input: { content }, tool_name: HOOK_HOST_FACTS[host].rememberToolName('external-context') };
  if (host === 'gemini') return { ...base, hook_event_name: 'BeforeTool', mcp_context: { server_name: 'external-context', tool_name: 'context_remember' } };
  return { ...base, hook_event_name: 'PreToolUse', permission_mode: mode, tool_use_id: 'toolu_1' };
}

function recall(value: unknown, host: HookHost): Promise<string> {
  return autoRecall(value, { configFlag: configPath, env, host, signal: AbortSignal.timeout(20000) });
}

describe('auto-recall on each host', () => {
  for (const host of HOOK_HOSTS) {
    test(`${host}: one search for the user's prompt, context under hookEventName ${HOOK_HOST_FACTS[host].promptEvent}`, async () => {
      const answer = await recall(promptInput(host, 'deployment policy'), host);
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]?.json).toEqual({ query: 'deployment policy', limit: 5 });
      const parsed = JSON.parse(answer) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
      expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
      expect(parsed.hookSpecificOutput.hookEventName).toBe(HOOK_HOST_FACTS[host].promptEvent);
      expect(parsed.hookSpecificOutput.additionalContext).not.toMatch(/[<>]/);
      expect(JSON.parse(parsed.hookSpecificOutput.additionalContext).untrusted_external_context.items[0].id).toBe('doc-1');
      expectNoCanary(answer);
    });
  }

  test('fail-open on every host: a provider error gives {} after one request, a spent budget {} without one, a stalled provider is cut by the budget', async () => {
    for (const host of HOOK_HOSTS) {
      fake.reset();
      fake.override({ kind: 'reply', status: 500, json: { error: CANARY.body } }, { times: 1 });
      const failed = await recall(promptInput(host, 'deployment policy'), host);
      expect(failed).toBe('{}');
      expect(fake.requests).toHaveLength(1);
      expect(await autoRecall(promptInput(host, 'deployment policy'), { configFlag: configPath, env, host, signal: AbortSignal.abort() })).toBe('{}');
      expect(fake.requests).toHaveLength(1);
      fake.override({ kind: 'stall-before-headers' }, { times: 1 });
      const controller = new AbortController();
      const pending = autoRecall(promptInput(host, 'deployment policy'), { configFlag: configPath, env, host, signal: controller.signal });
      await fake.waitForRequests(2);
      controller.abort();
      expect(await pending).toBe('{}');
    }
  });

  test('gemini: the empty BeforeAgent re-fire after a tool call gives {} and no search', async () => {
    for (const prompt of ['', '   ', '\n']) expect(await recall(promptInput('gemini', prompt), 'gemini')).toBe('{}');
    expect(fake.requests).toHaveLength(0);
  });

  test('claude and codex: an empty or missing prompt gives {} and no search', async () => {
    for (const host of ['claude', 'codex'] as const) {
      expect(await recall(promptInput(host, ''), host)).toBe('{}');
      const { prompt: _prompt, ...missing } = promptInput(host, 'x');
      expect(await recall(missing, host)).toBe('{}');
    }
    expect(fake.requests).toHaveLength(0);
  });

  test("each host reads only its own event and field: another host's input gives {} before the configuration", () => {
    for (const host of HOOK_HOSTS) {
      for (const other of HOOK_HOSTS) {
        const read = readAutoRecallInput(promptInput(other, 'deployment policy'), host);
        const same = HOOK_HOST_FACTS[host].promptEvent === HOOK_HOST_FACTS[other].promptEvent && (host !== 'qwen' || other === 'qwen');
        if (same) expect(read).toEqual({ submittedPrompt: 'deployment policy', cwd: root });
        else expect(read).toBeUndefined();
      }
    }
  });

  test('qwen provenance stays strict: a Qwen continuation (prompt "", no submitted_prompt) gives {}', () => {
    expect(readAutoRecallInput({ hook_event_name: 'UserPromptSubmit', prompt: '', cwd: root }, 'qwen')).toBeUndefined();
    expect(readAutoRecallInput({ hook_event_name: 'UserPromptSubmit', prompt: 'typed', cwd: root }, 'qwen')).toBeUndefined();
  });
});

describe('write confirmation on each host', () => {
  const askShape = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: ASK } };
  const blockDeny = (reason: string) => ({ decision: 'block', reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } });

  test('claude: asks in default, acceptEdits, auto, bypassPermissions and dontAsk with the exact content', () => {
    for (const mode of ['default', 'acceptEdits', 'auto', 'bypassPermissions', 'dontAsk']) {
      expect(JSON.parse(decideWriteConfirmation(toolInput('claude', mode), 'external-context', 'claude'))).toEqual(askShape);
    }
  });

  test('claude and codex: denies use decision "block" (their only top-level deny) beside the hookSpecificOutput deny', () => {
    for (const host of ['claude', 'codex'] as const) {
      expect(JSON.parse(decideWriteConfirmation(toolInput(host, 'plan'), 'external-context', host))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.plan));
      expect(JSON.parse(decideWriteConfirmation(toolInput(host, 'yolo'), 'external-context', host))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.unsupportedMode));
      expect(JSON.parse(decideWriteConfirmation(toolInput(host, 'default', ' '), 'external-context', host))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.invalid));
      expect(JSON.parse(decideWriteConfirmation(undefined, 'external-context', host))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.invalid));
    }
  });

  const person = (): boolean => true;
  const nobody = (): boolean => false;

  test('codex: cannot ask (0.169 rejects permissionDecision "ask"), so it passes to its own approval in default and acceptEdits when a person reviews, and denies in the others', () => {
    expect(decideWriteConfirmation(toolInput('codex', 'default'), 'external-context', 'codex', person)).toBe('{}');
    expect(decideWriteConfirmation(toolInput('codex', 'acceptEdits'), 'external-context', 'codex', person)).toBe('{}');
    for (const mode of ['dontAsk', 'bypassPermissions']) {
      expect(JSON.parse(decideWriteConfirmation(toolInput('codex', mode), 'external-context', 'codex', person))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.unsupportedMode));
    }
  });

  test('codex and gemini: when the Hook cannot tell that a person confirms (the default), default, acceptEdits and every Gemini call are denied with the no-person reason', () => {
    for (const mode of ['default', 'acceptEdits']) {
      expect(JSON.parse(decideWriteConfirmation(toolInput('codex', mode), 'external-context', 'codex', nobody))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.noPerson));
      expect(JSON.parse(decideWriteConfirmation(toolInput('codex', mode), 'external-context', 'codex'))).toEqual(blockDeny(WRITE_CONFIRMATION_REASONS.noPerson));
    }
    expect(JSON.parse(decideWriteConfirmation(toolInput('gemini', undefined), 'external-context', 'gemini', nobody))).toEqual({ decision: 'deny', reason: WRITE_CONFIRMATION_REASONS.noPerson });
    expect(JSON.parse(decideWriteConfirmation(toolInput('gemini', undefined), 'external-context', 'gemini'))).toEqual({ decision: 'deny', reason: WRITE_CONFIRMATION_REASONS.noPerson });
    // Qwen and Claude tell by permission_mode: the check is never asked.
    const asked: string[] = [];
    decideWriteConfirmation(toolInput('claude', 'default'), 'external-context', 'claude', () => (asked.push('claude'), false));
    decideWriteConfirmation(toolInput('qwen', 'default'), 'external-context', 'qwen', () => (asked.push('qwen'), false));
    expect(asked).toEqual([]);
  });

  test('gemini: BeforeTool for mcp_external-context_context_remember asks with the exact content in an interactive session (no permission mode in its input)', () => {
    const answer = JSON.parse(decideWriteConfirmation(toolInput('gemini', undefined), 'external-context', 'gemini', person));
    expect(answer).toEqual({ decision: 'ask', reason: ASK, systemMessage: ASK });
    expect(JSON.parse(decideWriteConfirmation(toolInput('gemini', undefined, '   '), 'external-context', 'gemini', person))).toEqual({ decision: 'deny', reason: WRITE_CONFIRMATION_REASONS.invalid });
    expect(JSON.parse(decideWriteConfirmation('nope', 'external-context', 'gemini', person))).toEqual({ decision: 'deny', reason: WRITE_CONFIRMATION_REASONS.invalid });
  });

  test("each host passes another host's tool name and event, and other tools", () => {
    for (const host of HOOK_HOSTS) {
      expect(decideWriteConfirmation({ ...toolInput(host, 'default'), tool_name: 'mcp__other__context_remember' }, 'external-context', host)).toBe('{}');
    }
    expect(decideWriteConfirmation(toolInput('qwen', 'default'), 'external-context', 'gemini')).toBe('{}');
    expect(decideWriteConfirmation(toolInput('gemini', undefined), 'external-context', 'claude')).toBe('{}');
    expect(decideWriteConfirmation({ ...toolInput('gemini', undefined), tool_name: 'mcp_ec_context_remember' }, 'ec', 'gemini', person)).not.toBe('{}');
  });
});

describe('hook settings per host', () => {
  const launcher = { kind: 'executable', path: '/opt/external-context/bin/external-context' } as const;
  const fragment = (host: HookHost, kind: 'auto-recall' | 'write', shell: 'posix' | 'powershell' = 'posix') =>
    JSON.parse(hookSettingsFragment({ kind, shell, host, config: kind === 'auto-recall' ? '/etc/external-context/auto-recall.json' : undefined }, launcher)) as {
      hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
    };

  test('the timeout is 8 s in each host own unit: Claude Code and Codex seconds, Gemini CLI milliseconds, Qwen 8000', () => {
    const timeouts = Object.fromEntries(HOOK_HOSTS.map((host) => [host, Object.values(fragment(host, 'auto-recall').hooks)[0]?.[0]?.hooks[0]?.['timeout']]));
    expect(timeouts).toEqual({ qwen: 8000, claude: 8, gemini: 8000, codex: 8 });
  });

  test('claude auto-recall and write fragments', () => {
    expect(fragment('claude', 'auto-recall')).toEqual({
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: "exec '/opt/external-context/bin/external-context' hook auto-recall --config '/etc/external-context/auto-recall.json' --host claude",
                timeout: 8,
                statusMessage: 'Retrieving external context',
              },
            ],
          },
        ],
      },
    });
    const write = fragment('claude', 'write', 'powershell');
    expect(write.hooks['PreToolUse']?.[0]?.matcher).toBe('^mcp__external-context__context_remember$');
    expect(write.hooks['PreToolUse']?.[0]?.hooks[0]).toMatchObject({
      command: "& '/opt/external-context/bin/external-context' hook write-confirmation --host claude",
      shell: 'powershell',
      timeout: 8,
    });
  });

  test('gemini fragments use BeforeAgent and BeforeTool with name, description and milliseconds', () => {
    expect(fragment('gemini', 'auto-recall').hooks['BeforeAgent']).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'command',
            command: "exec '/opt/external-context/bin/external-context' hook auto-recall --config '/etc/external-context/auto-recall.json' --host gemini",
            name: 'external-context-auto-recall',
            timeout: 8000,
            description: 'Retrieving external context',
          },
        ],
      },
    ]);
    expect(fragment('gemini', 'write').hooks['BeforeTool']?.[0]?.matcher).toBe('^mcp_external-context_context_remember$');
  });

  test('codex fragments are Claude-shaped hooks.json entries in seconds', () => {
    expect(Object.keys(fragment('codex', 'auto-recall').hooks)).toEqual(['UserPromptSubmit']);
    // Codex turns `-` in the server key into `_` in the tool name its Hooks see.
    expect(fragment('codex', 'write').hooks['PreToolUse']?.[0]).toMatchObject({ matcher: '^mcp__external_context__context_remember$', hooks: [{ timeout: 8 }] });
  });

  test('qwen fragments are unchanged by the host table (no --host in the command)', () => {
    expect(fragment('qwen', 'write').hooks['PreToolUse']?.[0]).toEqual({
      matcher: 'mcp__external-context__context_remember',
      hooks: [
        {
          type: 'command',
          command: "exec '/opt/external-context/bin/external-context' hook write-confirmation",
          timeout: 8000,
          name: 'external-context-memory-write-confirmation',
          statusMessage: 'Confirming external memory write',
        },
      ],
    });
  });
});

describe('--host on the command line (a real process)', () => {
  // The shipped executable; a missing one fails the file, naming npm run build.
  const command = { file: requireBuilt(exePath()), args: [] as string[] };
  const run = (args: string[], stdin: string) => runProcess(command.file, [...command.args, ...args], { stdin, env: { CONTEXT_TOKEN: TOKEN } });

  test('auto-recall --host gemini: the empty re-fire gives {}, a real prompt one search; --host nope gives {}', async () => {
    const empty = await run(['hook', 'auto-recall', '--config', configPath, '--host', 'gemini'], JSON.stringify(promptInput('gemini', '')));
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([0, '{}', '']);
    const real = await run(['hook', 'auto-recall', '--config', configPath, '--host', 'gemini'], JSON.stringify(promptInput('gemini', 'deployment policy')));
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout).hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(fake.requests).toHaveLength(1);
    const unknown = await run(['hook', 'auto-recall', '--config', configPath, '--host', 'nope'], JSON.stringify(promptInput('claude', 'deployment policy')));
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([0, '{}', '']);
    expect(fake.requests).toHaveLength(1);
  });

  // The Codex deny shape and the Gemini re-fire run below; a Claude prompt's one search runs here.
  test('auto-recall --host claude: a real prompt gives the UserPromptSubmit context from one search', async () => {
    const claude = await run(['hook', 'auto-recall', '--config', configPath, '--host', 'claude'], JSON.stringify(promptInput('claude', 'deployment policy')));
    expect([claude.code, claude.stderr]).toEqual([0, '']);
    expect(JSON.parse(claude.stdout).hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(fake.requests).toHaveLength(1);
  });

  test('write-confirmation --host claude with a bad command line denies in the Claude shape', async () => {
    const result = await run(['hook', 'write-confirmation', '--host', 'claude', '--nope'], JSON.stringify(toolInput('claude', 'default')));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'block', reason: WRITE_CONFIRMATION_REASONS.invalid });
    const asked = await run(['hook', 'write-confirmation', '--host', 'claude'], JSON.stringify(toolInput('claude', 'default')));
    expect(JSON.parse(asked.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });

  test('hook settings --host codex prints seconds; an unknown --host is a usage error (exit 2)', async () => {
    const ok = await run(['hook', 'settings', 'write', '--host', 'codex', '--executable', '/opt/ec'], '');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).hooks.PreToolUse[0].hooks[0].timeout).toBe(8);
    const bad = await run(['hook', 'settings', 'write', '--host', 'cursor'], '');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--host must be qwen, claude, gemini or codex');
  });
});

describe('--host on the command line: the Codex deny shape and the Gemini re-fire without a search (a real process)', () => {
  // On the executable only: the host's answer is the same code on every runtime, and the bundles'
  // Hook stdin, stdout and exit code are test/cli/hook.test.ts's (hook-io). A missing executable
  // fails the file, naming npm run build.
  const runtimes = [{ label: 'executable', file: requireBuilt(exePath()), args: [] as string[] }];
  for (const runtime of runtimes) {
    test(`${runtime.label}: Gemini's empty re-fire {} without a search; Codex deny shape`, async () => {
      const run = (args: string[], stdin: string) => runProcess(runtime.file, [...runtime.args, ...args], { stdin, env: { CONTEXT_TOKEN: TOKEN } });
      const empty = await run(['hook', 'auto-recall', '--config', configPath, '--host', 'gemini'], JSON.stringify(promptInput('gemini', '')));
      expect([empty.code, empty.stdout, empty.stderr]).toEqual([0, '{}', '']);
      expect(fake.requests).toHaveLength(0);
      const codex = await run(['hook', 'write-confirmation', '--host', 'codex'], JSON.stringify(toolInput('codex', 'plan')));
      expect(JSON.parse(codex.stdout)).toMatchObject({ decision: 'block', reason: WRITE_CONFIRMATION_REASONS.plan });
    });
  }
});
