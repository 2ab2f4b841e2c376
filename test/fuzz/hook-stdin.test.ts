// Hook stdin fuzzing (issue 11; hooks.md §1–§3): random JSON and random bytes into both Hooks,
// in-process through their real stdin/stdout runs, then a bounded sample through the built
// executable (both Hooks) and the bundle under Node.js and Deno (write-confirmation: both Hooks
// read stdin through the one readHookStdin of src/hooks/hook-io.ts, the runtimes' part, and
// write-confirmation fetches nothing). Auto-recall answers `{}` (or, for a valid prompt inside the root,
// the escaped envelope) with exit 0; write-confirmation passes, denies with an exact reason or
// asks with the reversible display form; neither ever crashes or writes to stderr.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runAutoRecall } from '../../src/hooks/auto-recall.ts';
import { runWriteConfirmation } from '../../src/hooks/write-confirmation.ts';
import { launchers as launcherRows } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { runProcess } from '../support/run-process.ts';
import { recordingWritable } from '../support/recording-writable.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { anyJson, anyString, awkwardString, hugeString } from './arbitraries.ts';

/** Fuzz run counts (reported in the closing note). */
export const HOOK_FUZZ_RUNS = { autoRecallInProcess: 400, writeConfirmationInProcess: 1000, processes: 30 } as const;

const TOOL_NAME = 'mcp__external-context__context_remember';
const REASONS = {
  invalid: 'External context memory write confirmation request is invalid.',
  plan: 'External context memory writes are not allowed in plan mode.',
  unsupportedMode: 'External context memory write permission mode is unsupported.',
  ask: 'Save this exact content to the bound Mem0 repository memory? Nothing has been saved yet. If no person approves this, it stays unsaved: do not retry; tell the user the memory was not saved.',
} as const;
const RAW_INVISIBLE = /[\u007f-\u009f\u2028\u2029\p{Cf}]/u;

let fake: GenericHttpFake;
let root: string;
let configPath: string;
const ENV = { CONTEXT_TOKEN: CANARY.credential };

beforeAll(async () => {
  fake = await startGenericHttpFake({
    token: CANARY.credential,
    items: [
      { id: 'doc-1', content: `Deploys need <two> approvals. ${'\u{1F642}'.repeat(300)}`, title: 'Policy <b>', uri: 'https://kb.example/p', score: 0.9 },
      { id: 'doc-2', content: 'x'.repeat(5000) },
    ],
  });
  const dir = await makeTempDir('ec-fuzz-hooks-');
  root = path.join(dir.path, 'repo');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  configPath = await writeConfigFile(
    { version: 2, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'CONTEXT_TOKEN' }, autoRecall: { repositoryRoot: root, timeoutMs: 5000 } },
    { dir: dir.path },
  );
});
afterAll(async () => {
  await fake.close();
  await removeTempDirs();
});

/** What a Hook run wrote. */
interface HookRun {
  readonly code: number;
  readonly writes: readonly string[];
}

/** Runs a Hook in-process with `input` on stdin and a recording stdout. */
async function runInProcess(kind: 'auto-recall' | 'write-confirmation', input: Uint8Array): Promise<HookRun> {
  const stdin = new PassThrough();
  const { stream: stdout, writes } = recordingWritable();
  const io = { stdin, stdout, env: ENV, startedAtMs: Date.now() };
  stdin.end(input);
  const code =
    kind === 'auto-recall'
      ? await runAutoRecall({ valid: true, value: { config: configPath, host: 'qwen' } }, io)
      : await runWriteConfirmation({ valid: true, value: { serverName: 'external-context', host: 'qwen' } }, io);
  return { code, writes };
}

/** Auto-recall's answer: `{}` or exactly the UserPromptSubmit context object with a bounded envelope. */
function expectAutoRecallAnswer(stdout: string): 'empty' | 'context' {
  if (stdout === '{}') return 'empty';
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
  expect(Object.keys(parsed.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext']);
  expect(parsed.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
  const text = parsed.hookSpecificOutput.additionalContext;
  expect(text.length).toBeLessThanOrEqual(4000);
  expect(/[<>]/.test(stdout)).toBe(false);
  expect(Object.keys(JSON.parse(text) as object)).toEqual(['untrusted_external_context']);
  expectNoCanary(stdout);
  return 'context';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An independent reading of write.md §2.1: a string of ≤ 4000 code points, no lone surrogate, something visible. */
function validContent(value: unknown): boolean {
  if (typeof value !== 'string' || [...value].length > 4000) return false;
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) return false;
  return [...value].some((char) => !/^[\p{White_Space}\p{Cc}\p{Cf}]$/u.test(char));
}

/** The decision hooks.md §3.2 gives for a parsed input, rows 1–6 in order. */
function expectedDecision(input: unknown): 'pass' | typeof REASONS.invalid | typeof REASONS.plan | typeof REASONS.unsupportedMode | 'ask' {
  if (!isRecord(input)) return REASONS.invalid;
  if (input['hook_event_name'] !== 'PreToolUse' || input['tool_name'] !== TOOL_NAME) return 'pass';
  const mode = input['permission_mode'];
  const toolInput = input['tool_input'];
  if (typeof mode !== 'string' || !isRecord(toolInput) || !validContent(toolInput['content'])) return REASONS.invalid;
  if (mode === 'plan') return REASONS.plan;
  return ['default', 'auto', 'auto_edit', 'auto-edit', 'yolo'].includes(mode) ? 'ask' : REASONS.unsupportedMode;
}

/** Write-confirmation's answer for a parsed input, against an independent reading of §3.2–§3.4. */
function expectWriteConfirmationAnswer(stdout: string, input: unknown): 'pass' | 'deny' | 'ask' {
  const parsed = JSON.parse(stdout) as Record<string, unknown>;
  const expected = expectedDecision(input);
  const actual = stdout === '{}' ? 'pass' : (parsed['hookSpecificOutput'] as Record<string, unknown>)['permissionDecision'] === 'ask' ? 'ask' : parsed['reason'];
  expect(actual).toBe(expected);
  if (stdout === '{}') {
    const record = input as Record<string, unknown>;
    expect(typeof input === 'object' && input !== null && !Array.isArray(input)).toBe(true);
    expect(record['hook_event_name'] === 'PreToolUse' && record['tool_name'] === TOOL_NAME).toBe(false);
    return 'pass';
  }
  const specific = parsed['hookSpecificOutput'] as Record<string, unknown>;
  expect(specific['hookEventName']).toBe('PreToolUse');
  const reason = specific['permissionDecisionReason'] as string;
  expect(RAW_INVISIBLE.test(reason)).toBe(false);
  if (specific['permissionDecision'] === 'deny') {
    expect(Object.keys(parsed)).toEqual(['decision', 'reason', 'hookSpecificOutput']);
    expect(parsed['decision']).toBe('deny');
    expect(parsed['reason']).toBe(reason);
    expect([REASONS.invalid, REASONS.plan, REASONS.unsupportedMode]).toContain(reason as typeof REASONS.invalid);
    return 'deny';
  }
  expect(specific['permissionDecision']).toBe('ask');
  expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
  const [prompt, display] = [reason.slice(0, reason.indexOf('\n')), reason.slice(reason.indexOf('\n') + 1)];
  expect(prompt).toBe(REASONS.ask);
  const record = input as { tool_input: { content: string }; permission_mode: string };
  expect(JSON.parse(display)).toBe(record.tool_input.content);
  expect(['default', 'auto', 'auto_edit', 'auto-edit', 'yolo']).toContain(record.permission_mode);
  return 'ask';
}

const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value) ?? '');

/** Auto-recall stdin: plausible events with fuzzed fields, any JSON, or random bytes. */
function autoRecallInput(): fc.Arbitrary<{ bytes: Uint8Array; value: unknown }> {
  const event = fc.record(
    {
      hook_event_name: fc.oneof(fc.constantFrom('UserPromptSubmit', 'PreToolUse', 'userpromptsubmit'), anyJson(1)),
      submitted_prompt: fc.oneof(
        { weight: 3, arbitrary: anyString(80) },
        { weight: 1, arbitrary: hugeString(6000) },
        { weight: 1, arbitrary: fc.constantFrom('deployment policy', `${CANARY.credential} deployment`, '```\ncode only\n```', 'Authorization: Bearer x') },
        { weight: 1, arbitrary: anyJson(1) },
      ),
      cwd: fc.oneof(fc.constantFrom(root, path.join(root, 'src'), path.join(root, 'missing'), '/', 'relative', `${root}/../`), anyString(10), anyJson(1)),
      prompt: anyString(20),
      session_id: anyString(10),
    },
    { requiredKeys: [] },
  );
  // Valid events with only the prompt fuzzed, so the search path runs often.
  const valid = fc
    .record({ prompt: fc.oneof(anyString(80), fc.constantFrom('deployment policy', `policy ${CANARY.credential}`)), cwd: fc.constantFrom(root, path.join(root, 'src')) })
    .map(({ prompt, cwd }) => ({ hook_event_name: 'UserPromptSubmit', submitted_prompt: prompt, cwd }));
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => ({ bytes: encode(value), value })) },
    { weight: 5, arbitrary: event.map((value) => ({ bytes: encode(value), value })) },
    { weight: 2, arbitrary: anyJson(3).map((value) => ({ bytes: encode(value), value })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ bytes, value: undefined })) },
    { weight: 1, arbitrary: event.map((value) => ({ bytes: new Uint8Array([...encode(value), 0xc3, 0x28]), value: undefined })) },
  );
}

/** Write-confirmation stdin: plausible PreToolUse calls with fuzzed fields, any JSON, or bytes. */
function writeConfirmationInput(): fc.Arbitrary<{ bytes: Uint8Array; value: unknown; json: boolean }> {
  const call = fc.record(
    {
      hook_event_name: fc.oneof({ weight: 4, arbitrary: fc.constant('PreToolUse') }, { weight: 1, arbitrary: anyJson(1) }),
      tool_name: fc.oneof({ weight: 4, arbitrary: fc.constant(TOOL_NAME) }, { weight: 1, arbitrary: fc.constantFrom('mcp__other__context_remember', 'context_remember') }),
      permission_mode: fc.oneof(fc.constantFrom('default', 'auto', 'auto_edit', 'auto-edit', 'yolo', 'plan', 'bypass', 'DEFAULT'), anyJson(1)),
      tool_input: fc.oneof(
        { weight: 4, arbitrary: fc.record({ content: fc.oneof(anyString(60), awkwardString(80), hugeString(4100), anyJson(1)), extra: anyJson(1) }, { requiredKeys: [] }) },
        { weight: 1, arbitrary: anyJson(2) },
      ),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 6, arbitrary: call.map((value) => ({ bytes: encode(value), value, json: true })) },
    { weight: 2, arbitrary: anyJson(3).map((value) => ({ bytes: encode(value), value, json: true })) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ bytes, value: undefined, json: false })) },
  );
}

/** The parsed stdin value as the Hook sees it (strict UTF-8 JSON), or undefined. */
function parsedStdin(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

describe('Hook stdin fuzzing in-process', () => {
  test(`auto-recall: {} or the bounded context, one stdout write, exit 0 (${HOOK_FUZZ_RUNS.autoRecallInProcess} runs)`, async () => {
    const seen = { empty: 0, context: 0 };
    await fc.assert(
      fc.asyncProperty(autoRecallInput(), async ({ bytes }) => {
        const run = await runInProcess('auto-recall', bytes);
        expect(run.code).toBe(0);
        expect(run.writes).toHaveLength(1);
        seen[expectAutoRecallAnswer(run.writes[0] as string)] += 1;
      }),
      { numRuns: HOOK_FUZZ_RUNS.autoRecallInProcess },
    );
    expect(seen.context * seen.empty).toBeGreaterThan(0);
  });

  test(`write-confirmation: pass, an exact deny or a reversible ask, one stdout write, exit 0 (${HOOK_FUZZ_RUNS.writeConfirmationInProcess} runs)`, async () => {
    const seen = { pass: 0, deny: 0, ask: 0 };
    await fc.assert(
      fc.asyncProperty(writeConfirmationInput(), async ({ bytes }) => {
        const run = await runInProcess('write-confirmation', bytes);
        expect(run.code).toBe(0);
        expect(run.writes).toHaveLength(1);
        const stdin = parsedStdin(bytes);
        const stdout = run.writes[0] as string;
        if (!stdin.ok) {
          expect(JSON.parse(stdout)).toMatchObject({ decision: 'deny', reason: REASONS.invalid });
          seen.deny += 1;
          return;
        }
        seen[expectWriteConfirmationAnswer(stdout, stdin.value)] += 1;
      }),
      { numRuns: HOOK_FUZZ_RUNS.writeConfirmationInProcess },
    );
    expect(seen.pass * seen.deny * seen.ask).toBeGreaterThan(0);
  });
});

/**
 * Runs a Hook process. `chunked` writes stdin in pieces of 1…97 bytes with short pauses, so a
 * Hook reading file descriptor 0 sees partial reads and empty non-blocking reads.
 */
function runHook(command: string, args: readonly string[], env: Record<string, string>, bytes: Uint8Array, chunked: boolean, cwd?: string) {
  if (!chunked) return runProcess(command, args, { env, stdin: bytes, ...(cwd === undefined ? {} : { cwd }) });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, [...args], { env, cwd, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
    void (async () => {
      for (let offset = 0, size = 1; offset < bytes.length; offset += size, size = (size * 7 + 3) % 97 || 1) {
        if (child.stdin.destroyed) return;
        child.stdin.write(bytes.subarray(offset, offset + size));
        await Bun.sleep(offset % 3);
      }
      child.stdin.end();
    })();
  });
}

const STDIN_CHUNKS = proves('hook-stdin-chunks', ['executable', 'node-bundle', 'deno-bundle']);

describe(`Hook stdin fuzzing through processes (bounded sample) ${STDIN_CHUNKS('executable')} ${STDIN_CHUNKS('node-bundle')} ${STDIN_CHUNKS('deno-bundle')}`, () => {
  const launchers = (): { label: string; command: string; args: readonly string[] }[] => launcherRows();
  // 30 spawns in all: 15 auto-recall inputs on the executable, 5 write-confirmation inputs on
  // each launcher. What auto-recall makes of its input is the same code on every runtime (and
  // runs 400 times in-process above); reading stdin is shared with write-confirmation. The
  // executable keeps the 10 auto-recall inputs the bundles ran before they moved to
  // write-confirmation, so every sampled input still runs as a process.
  const PER_LAUNCHER = HOOK_FUZZ_RUNS.processes / 6;

  test(`auto-recall and write-confirmation processes, stdin whole or trickled: exit 0, empty stderr, a valid answer (${HOOK_FUZZ_RUNS.processes} spawns)`, async () => {
    const recallInputs = fc.sample(autoRecallInput(), { numRuns: PER_LAUNCHER * 3, seed: 11 });
    const confirmInputs = fc.sample(writeConfirmationInput(), { numRuns: PER_LAUNCHER * 3, seed: 12 });
    const jobs: (() => Promise<void>)[] = [];
    launchers().forEach((launcher, index) => {
      const recallSlice = index === 0 ? recallInputs : [];
      for (const [position, { bytes }] of recallSlice.entries()) {
        jobs.push(async () => {
          const args = [...launcher.args, 'hook', 'auto-recall', '--config', configPath];
          // Whole or trickled as when each launcher ran five of them.
          const result = await runHook(launcher.command, args, cleanEnv(ENV), bytes, (position % PER_LAUNCHER) % 2 === 0, root);
          expect({ launcher: launcher.label, code: result.code, stderr: result.stderr }).toEqual({ launcher: launcher.label, code: 0, stderr: '' });
          expectAutoRecallAnswer(result.stdout);
        });
      }
      for (const [position, { bytes }] of confirmInputs.slice(index * PER_LAUNCHER, (index + 1) * PER_LAUNCHER).entries()) {
        jobs.push(async () => {
          const result = await runHook(launcher.command, [...launcher.args, 'hook', 'write-confirmation'], cleanEnv(), bytes, position % 2 === 0);
          expect({ launcher: launcher.label, code: result.code, stderr: result.stderr }).toEqual({ launcher: launcher.label, code: 0, stderr: '' });
          const stdin = parsedStdin(bytes);
          if (stdin.ok) expectWriteConfirmationAnswer(result.stdout, stdin.value);
          else expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'deny', reason: REASONS.invalid });
        });
      }
    });
    expect(jobs).toHaveLength(HOOK_FUZZ_RUNS.processes);
    // Two at a time: the machine has two cores.
    for (let index = 0; index < jobs.length; index += 2) await Promise.all(jobs.slice(index, index + 2).map((job) => job()));
  });
});
