// The opt-in Hook log (hooks.md §7) as a real process: `hook auto-recall --log` and
// `hook write-confirmation --log` against the strict Generic fake. One JSON line per run with
// the outcome and its reason or class, mode 0600, never a prompt, query, result, path or
// credential; an unwritable log changes neither the answer nor the exit code. Every outcome,
// reason and class runs once, on the shipped executable (the code a source run executes); the
// Node.js and Deno bundles (Deno with write access to the log) run what their runtimes do
// differently: opening, appending to and refusing log files (unwritable paths, FIFOs, symlinks,
// stdout), a relative --log, and a smoke of each Hook's line. Both Hooks write their answer and
// then append through the one writer, appendHookLog (src/hooks/hook-log.ts), so the bundles
// test the file handling with write-confirmation, which fetches nothing (a Node.js start that
// fetches costs 3-5 times one that does not); the auto-recall variants run on the executable.
// Where a runtime row runs as a process, the executable's other outcomes, reasons and flag cases
// run through the dispatcher's run() in this process: the same code without a spawn per case
// (issue 26 §3). What only a process shows (fd 1 as the log, a FIFO, a file size limit) stays.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { binPath, bundlePath, exePath, requireBuilt } from '../support/paths.ts';
import { type RuntimeId } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';
import { run as dispatch } from '../../src/cli/dispatch.ts';

// Hang guard for a file that spawns many processes (not a timing assertion).
setDefaultTimeout(LIVENESS_MS);

interface Launcher {
  readonly label: string;
  readonly id: RuntimeId;
  readonly command: string;
  /** Leading arguments; `logPath` lets Deno grant write access to exactly that file. */
  readonly args: (logPath: string) => readonly string[];
  /** Whether the launcher runs every outcome (the shipped executable) or the smoke (the bundles). */
  readonly full: boolean;
}

const LOG_APPEND = proves('log-append', ['executable', 'node-bundle', 'deno-bundle']);

function launchers(): Launcher[] {
  const bundle = requireBuilt(bundlePath());
  return [
    { label: 'executable', id: 'executable', command: requireBuilt(exePath()), args: () => [], full: true },
    { label: 'node bundle', id: 'node-bundle', command: 'node', args: () => [bundle], full: false },
    {
      label: 'deno bundle',
      id: 'deno-bundle',
      command: binPath('deno'),
      args: (logPath) => ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', `--allow-write=${logPath}`, bundle],
      full: false,
    },
  ];
}

const ITEMS = [{ id: 'kb-1', content: `Answer ${CANARY.body}`, title: 'Answer' }];
const PROMPT = `${CANARY.query} token=${CANARY.credential}`;

let fake: GenericHttpFake;
let tmp: TempDir;
let root: string;
let v2: string;
let v1: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY.credential, items: ITEMS });
  tmp = await makeTempDir('ec-hook-log-');
  root = path.join(tmp.path, 'repo');
  await mkdir(root);
  const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: CANARY.envName };
  v2 = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: 5000 } }, { dir: tmp.path, name: 'v2.json' });
  v1 = await writeConfigFile({ version: 1, provider }, { dir: tmp.path, name: 'v1.json' });
});

afterAll(async () => {
  await fake.close();
  await tmp.remove();
});

beforeEach(() => {
  fake.reset();
  fake.setItems(ITEMS);
});

/** A `context_remember` write request in default mode: write-confirmation answers ask. */
const REMEMBER = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'mcp__external-context__context_remember',
  permission_mode: 'default',
  tool_input: { content: CANARY.content },
});

const recallInput = (overrides: Record<string, unknown> = {}): string =>
  JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: PROMPT, prompt: CANARY.body, cwd: root, ...overrides });

/** A copy of a configuration in a folder every user can write (mode 0777, no sticky bit). */
function untrustedCopy(config: string): string {
  const folder = path.join(tmp.path, 'open-folder');
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  const copy = path.join(folder, 'config.json');
  writeFileSync(copy, readFileSync(config));
  return copy;
}

const env = (): Record<string, string> => cleanEnv({ [CANARY.envName]: CANARY.credential, DENO_NO_UPDATE_CHECK: '1' });

/** Parses the log: one JSON object per line, each with the fixed keys. */
function readLog(logPath: string): Record<string, unknown>[] {
  const text = readFileSync(logPath, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  expectNoCanary(text);
  expect(text).not.toContain(tmp.path);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(typeof record['time']).toBe('string');
      expect(new Date(record['time'] as string).toISOString()).toBe(record['time'] as string);
      expect(Number.isInteger(record['durationMs'])).toBe(true);
      expect(record['durationMs'] as number).toBeGreaterThanOrEqual(0);
      const { time: _time, durationMs: _duration, ...rest } = record;
      return rest;
    });
}

/** A command through run() in this process, with a process row's working directory, environment and stdin. */
function inProcess(args: readonly string[], options: { env: Record<string, string>; stdin?: string }): Promise<CapturedRun> {
  return runInMemory(dispatch, args, { cwd: tmp.path, env: options.env, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
}

let counter = 0;
const freshLog = (): string => path.join(tmp.path, `hook-${++counter}.log`);

for (const launcher of launchers()) {
  describe(`hook --log (${launcher.label}) ${LOG_APPEND(launcher.id)}`, () => {
    const smoke = launcher.full ? '' : ' (smoke: the injected line)';
    test(`auto-recall logs injected, each skip reason and each failure class, one line per run${smoke}`, async () => {
      const log = freshLog();
      const missing = path.join(tmp.path, 'missing.json');
      // Each run: its arguments and stdin, a change to the fake before it, its log line, and
      // whether the bundles' smoke runs it too.
      const runs: { args: readonly string[]; stdin: string; before?: () => void; env?: Record<string, string>; line: Record<string, unknown>; smoke?: true }[] = [
        { args: ['--config', v2, '--log', log], stdin: recallInput(), line: { hook: 'auto-recall', outcome: 'injected', items: 1 }, smoke: true },
        { args: ['--log', log, '--config', v2], stdin: recallInput({ submitted_prompt: undefined, prompt: '' }), line: { hook: 'auto-recall', outcome: 'skipped', reason: 'no-submitted-prompt' } },
        { args: ['--config', v1, '--log', log], stdin: recallInput(), line: { hook: 'auto-recall', outcome: 'skipped', reason: 'v1-config' } },
        { args: ['--config', v2, '--log', log], stdin: recallInput({ cwd: tmp.path }), line: { hook: 'auto-recall', outcome: 'skipped', reason: 'cwd-outside-root' } },
        {
          args: ['--config', v2, '--log', log],
          stdin: recallInput({ submitted_prompt: '```\nconst x = 1;\n```' }),
          line: { hook: 'auto-recall', outcome: 'skipped', reason: 'empty-after-sanitizing' },
        },
        { args: ['--config', v2, '--log', log], stdin: recallInput(), before: () => fake.setItems([]), line: { hook: 'auto-recall', outcome: 'skipped', reason: 'no-items' } },
        {
          args: ['--config', v2, '--log', log],
          stdin: recallInput(),
          before: () => fake.override({ kind: 'reply', status: 500, json: { error: CANARY.body } }),
          line: { hook: 'auto-recall', outcome: 'failed', class: 'http-status 500' },
        },
        { args: ['--config', missing, '--log', log], stdin: recallInput(), line: { hook: 'auto-recall', outcome: 'failed', class: 'configuration' } },
        // A configuration other users can change picks no corpus (issue 25 §4.3).
        ...(process.platform === 'win32'
          ? []
          : [{ args: ['--config', untrustedCopy(v2), '--log', log], stdin: recallInput(), line: { hook: 'auto-recall', outcome: 'failed', class: 'untrusted-configuration' } }]),
        // An unset credential is fixed in the environment, not the file: its own class (issue 25 §4.1).
        { args: ['--config', v2, '--log', log], stdin: recallInput(), env: cleanEnv({ DENO_NO_UPDATE_CHECK: '1' }), line: { hook: 'auto-recall', outcome: 'failed', class: 'credential' } },
        { args: ['--config', v2, '--log', log], stdin: '{"hook_event_name":', line: { hook: 'auto-recall', outcome: 'failed', class: 'invalid-input' } },
        { args: ['--config', 'relative.json', '--log', log], stdin: recallInput(), line: { hook: 'auto-recall', outcome: 'failed', class: 'invalid-arguments' } },
      ];
      const selected = launcher.full ? runs : runs.filter((entry) => entry.smoke === true);
      const answers: string[] = [];
      for (const { args, stdin, before, env: runEnv, smoke: asProcess } of selected) {
        before?.();
        // The smoke line runs as a process on every runtime; the executable's other lines in-process.
        const result = asProcess
          ? await runProcess(launcher.command, [...launcher.args(log), 'hook', 'auto-recall', ...args], { cwd: tmp.path, env: runEnv ?? env(), stdin })
          : await inProcess(['hook', 'auto-recall', ...args], { env: runEnv ?? env(), stdin });
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
        answers.push(result.stdout);
      }
      expect(answers[0]).toStartWith('{"hookSpecificOutput":');
      expect(answers.slice(1)).toEqual(Array(selected.length - 1).fill('{}'));
      expect(readLog(log)).toEqual(selected.map((entry) => entry.line));
      if (process.platform !== 'win32') expect(statSync(log).mode & 0o777).toBe(0o600);
    });

    test(`write-confirmation logs ask, pass and each deny reason, never the content${launcher.full ? '' : ' (smoke: ask and a deny reason)'}`, async () => {
      const log = freshLog();
      const request = (mode: unknown, tool = 'mcp__external-context__context_remember'): string =>
        JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: tool, permission_mode: mode, tool_input: { content: CANARY.content } });
      if (!launcher.full) {
        for (const stdin of [request('default'), request('plan')]) {
          const result = await runProcess(launcher.command, [...launcher.args(log), 'hook', 'write-confirmation', '--log', log], { cwd: tmp.path, env: env(), stdin });
          expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
        }
        expect(readLog(log)).toEqual([
          { hook: 'write-confirmation', outcome: 'ask' },
          { hook: 'write-confirmation', outcome: 'deny', reason: 'plan-mode' },
        ]);
        return;
      }
      // The ask line as a process (the bundles' smoke); the other lines in-process.
      const inputs = [request('default'), request('default', 'other_tool'), request('plan'), request(CANARY.body), 'not json'];
      for (const [index, stdin] of inputs.entries()) {
        const result =
          index === 0
            ? await runProcess(launcher.command, [...launcher.args(log), 'hook', 'write-confirmation', '--log', log], { cwd: tmp.path, env: env(), stdin })
            : await inProcess(['hook', 'write-confirmation', '--log', log], { env: env(), stdin });
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      }
      const bad = await inProcess(['hook', 'write-confirmation', '--server-name', 'a.b', '--log', log], { env: env(), stdin: request('default') });
      expect(JSON.parse(bad.stdout)).toMatchObject({ decision: 'deny' });
      expect(readLog(log)).toEqual([
        { hook: 'write-confirmation', outcome: 'ask' },
        { hook: 'write-confirmation', outcome: 'pass' },
        { hook: 'write-confirmation', outcome: 'deny', reason: 'plan-mode' },
        { hook: 'write-confirmation', outcome: 'deny', reason: 'unsupported-mode' },
        { hook: 'write-confirmation', outcome: 'deny', reason: 'invalid-request' },
        { hook: 'write-confirmation', outcome: 'deny', reason: 'invalid-request' },
      ]);
    });

    // The bundles run write-confirmation: the same appendHookLog after the answer, no fetch.
    test(`a log that cannot be written changes neither the answer nor the exit code${launcher.full ? '' : ' (write-confirmation)'}`, async () => {
      const unwritable = [path.join(tmp.path, 'no-such-dir', 'hook.log'), tmp.path];
      for (const [index, log] of unwritable.entries()) {
        // The executable: the missing folder as a process, the directory in-process.
        const answered = launcher.full
          ? index === 0
            ? await runProcess(launcher.command, [...launcher.args(log), 'hook', 'auto-recall', '--config', v2, '--log', log], { cwd: tmp.path, env: env(), stdin: recallInput() })
            : await inProcess(['hook', 'auto-recall', '--config', v2, '--log', log], { env: env(), stdin: recallInput() })
          : await runProcess(launcher.command, [...launcher.args(log), 'hook', 'write-confirmation', '--log', log], { cwd: tmp.path, env: env(), stdin: REMEMBER });
        expect({ code: answered.code, stderr: answered.stderr }).toEqual({ code: 0, stderr: '' });
        if (launcher.full) expect(answered.stdout).toStartWith('{"hookSpecificOutput":');
        else expect(JSON.parse(answered.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
      }
      expect(existsSync(path.join(tmp.path, 'no-such-dir'))).toBe(false);
    });

    // F1/F2 of the break report: a FIFO without a reader used to block the open forever (the
    // Hook hung and ignored SIGTERM); a symlink to the Hook's own stdout put the log line after
    // the answer. The hang guard is wide: a liveness bound, not a timing assertion. The bundles
    // run write-confirmation only (the shared appendHookLog; --host and auto-recall change the
    // answer, not the writer).
    test.skipIf(process.platform === 'win32')(
      `a log that is not a regular file (FIFO, stdout, a symlink) is never written and never blocks${launcher.full ? '' : ' (write-confirmation)'}`,
      async () => {
        const dir = path.join(tmp.path, `special-${++counter}`);
        await mkdir(dir);
        const fifo = path.join(dir, 'fifo');
        execFileSync('mkfifo', [fifo]);
        const toStdout = path.join(dir, 'stdout.log');
        await symlink('/proc/self/fd/1', toStdout);
        const victim = path.join(dir, 'victim.txt');
        await writeFile(victim, 'unchanged\n');
        const toVictim = path.join(dir, 'victim.log');
        await symlink(victim, toVictim);
        const runs = [
          { args: ['hook', 'write-confirmation'], stdin: REMEMBER },
          { args: ['hook', 'write-confirmation', '--host', 'claude'], stdin: REMEMBER },
          { args: ['hook', 'auto-recall', '--config', v2], stdin: recallInput() },
        ];
        for (const { args, stdin } of launcher.full ? runs : runs.slice(0, 1)) {
          const baseline = await runProcess(launcher.command, [...launcher.args(victim), ...args], { cwd: tmp.path, env: env(), stdin });
          expect({ code: baseline.code, stderr: baseline.stderr }).toEqual({ code: 0, stderr: '' });
          for (const log of [fifo, toStdout, '/dev/stdout', toVictim]) {
            const result = await runProcess(launcher.command, [...launcher.args(log), ...args, '--log', log], { cwd: tmp.path, env: env(), stdin, timeoutMs: LIVENESS_MS });
            expect({ log, timedOut: result.timedOut, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
              log,
              timedOut: false,
              code: 0,
              stdout: baseline.stdout,
              stderr: '',
            });
          }
        }
        expect(readFileSync(victim, 'utf8')).toBe('unchanged\n');
        expect(statSync(fifo).isFIFO()).toBe(true);
      },
    );

    // extractLogFlag is the same code everywhere; the bundles run the relative value (node:path).
    test(`a relative, repeated or missing --log value is a bad command line: the handled answer, no log${launcher.full ? '' : ' (smoke: relative)'}`, async () => {
      const log = freshLog();
      const bad = [['--log', 'relative.log'], ['--log', log, '--log', log], ['--log']];
      // The relative value as a process on every runtime; the executable's other values in-process.
      for (const [index, args] of (launcher.full ? bad : bad.slice(0, 1)).entries()) {
        const result =
          index === 0
            ? await runProcess(launcher.command, [...launcher.args(log), 'hook', 'auto-recall', '--config', v2, ...args], { cwd: tmp.path, env: env(), stdin: recallInput() })
            : await inProcess(['hook', 'auto-recall', '--config', v2, ...args], { env: env(), stdin: recallInput() });
        expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: '{}', stderr: '' });
      }
      expect(existsSync(log)).toBe(false);
      expect(existsSync(path.join(tmp.path, 'relative.log'))).toBe(false);
      await rm(log, { force: true });
    });
  });
}

describe.skipIf(process.platform !== 'linux')('hook --log on a file that cannot grow (executable)', () => {
  test("a short write is taken back: no partial line is left to corrupt the next run's line", async () => {
    const log = path.join(tmp.path, 'full.log');
    // 500 bytes of earlier lines; under `ulimit -f 1` (one 512-byte block in sh) the next line
    // can only be written in part, as on a full file system (EFBIG instead of ENOSPC; SIGXFSZ
    // is ignored so the write fails instead of ending the Hook).
    const earlier = `${'x'.repeat(499)}\n`;
    await writeFile(log, earlier, { mode: 0o600 });
    const limited = await runProcess('/bin/sh', ['-c', 'trap "" XFSZ; ulimit -f 1; exec "$0" hook write-confirmation --log "$1"', requireBuilt(exePath()), log], {
      cwd: tmp.path,
      env: env(),
      stdin: REMEMBER,
    });
    expect({ code: limited.code, stderr: limited.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(limited.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    expect(readFileSync(log, 'utf8')).toBe(earlier);
    // The next run, with room, appends a whole line after the earlier ones.
    const next = await runProcess(requireBuilt(exePath()), ['hook', 'write-confirmation', '--log', log], { cwd: tmp.path, env: env(), stdin: REMEMBER });
    expect(next.code).toBe(0);
    const lines = readFileSync(log, 'utf8').split('\n');
    expect(lines[0]).toBe('x'.repeat(499));
    expect(JSON.parse(lines[1] as string)).toMatchObject({ hook: 'write-confirmation', outcome: 'ask' });
  });
});

// The --host variants of the same writer, in-process: the log file handling has its process rows above.
describe('hook --log with --host (in-process)', () => {
  test('Gemini CLI: BeforeAgent with a prompt is injected, an empty re-fired prompt is skipped', async () => {
    const log = freshLog();
    const run = (prompt: string) =>
      inProcess(['hook', 'auto-recall', '--host', 'gemini', '--config', v2, '--log', log], { env: env(), stdin: JSON.stringify({ hook_event_name: 'BeforeAgent', prompt, cwd: root }) });
    expect((await run('deployment policy')).stdout).toStartWith('{"hookSpecificOutput":');
    expect((await run('')).stdout).toBe('{}');
    expect(readLog(log)).toEqual([
      { hook: 'auto-recall', outcome: 'injected', items: 1 },
      { hook: 'auto-recall', outcome: 'skipped', reason: 'no-submitted-prompt' },
    ]);
  });

  // This machine has no /etc/codex/requirements.toml, so the Hook cannot tell that a person will
  // review a Codex write: default mode is a deny too. The pass, with the shipped requirements in
  // place, runs in test/e2e/codex-managed.tier.ts.
  test('Codex without requirements pinning a person: default mode is logged as a no-person deny, plan mode as plan-mode', async () => {
    const log = freshLog();
    const request = (mode: string): string =>
      JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'mcp__external_context__context_remember', permission_mode: mode, tool_input: { content: CANARY.content } });
    for (const mode of ['default', 'plan']) {
      const result = await inProcess(['hook', 'write-confirmation', '--host', 'codex', '--log', log], { env: env(), stdin: request(mode) });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    }
    expect(readLog(log)).toEqual([
      { hook: 'write-confirmation', outcome: 'deny', reason: 'no-person' },
      { hook: 'write-confirmation', outcome: 'deny', reason: 'plan-mode' },
    ]);
  });
});

// Flag handling of hook settings, in-process: its exit code 2 as a process is in test/cli/hook.test.ts.
describe('hook settings --log (in-process)', () => {
  const settings = (args: readonly string[]) => inProcess(['hook', 'settings', ...args], { env: cleanEnv() });

  test('adds --log to either command, quoted for the shell', async () => {
    const recall = await settings(['auto-recall', '--executable', '/opt/ec/external-context', '--log', "/var/log/it's.log"]);
    expect(recall.code).toBe(0);
    const command = (JSON.parse(recall.stdout) as { hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] } }).hooks.UserPromptSubmit[0]!.hooks[0]!.command;
    expect(command).toBe("exec '/opt/ec/external-context' hook auto-recall --log '/var/log/it'\\''s.log'");
    const write = await settings(['write', '--shell', 'powershell', '--executable', 'C:\\ec\\ec.exe', '--log', 'C:\\logs\\w.log']);
    expect(write.stdout).toContain("& 'C:\\\\ec\\\\ec.exe' hook write-confirmation --log 'C:\\\\logs\\\\w.log'");
  });

  test('a relative --log is a usage error', async () => {
    const result = await settings(['auto-recall', '--log', 'hook.log']);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toBe('[external-context] Option --log needs an absolute path for the posix shell. Run "external-context hook settings --help".\n');
  });
});
