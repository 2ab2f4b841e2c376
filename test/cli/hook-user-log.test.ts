// The per-user Hook log (hooks.md §7.1) and check's hook-log item (config.md §11) as real
// processes: without --log, a wrong token, an unset credential and a configuration typo each
// leave one line in $XDG_STATE_HOME/external-context/hook.log (or ~/.local/state/...), mode
// 0600 in a 0700 folder, bounded with one .1 rotation, moved or turned off by
// EXTERNAL_CONTEXT_HOOK_LOG; check shows the last outcomes and warns with the newest failure's
// hint. No credential, query, prompt or content in the log or in check's output. The Node.js
// bundle writes the file like the executable; the Deno bundle's shipped command grants no write,
// so it writes nothing without --log (the runtime difference).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { binPath, bundlePath, exePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

// Hang guard for a file that spawns many processes (not a timing assertion).
setDefaultTimeout(LIVENESS_MS);

const ITEMS = [{ id: 'kb-1', content: `Answer ${CANARY.body}`, title: 'Answer' }];
const PROMPT = `${CANARY.query} token=${CANARY.credential}`;
const MAX_BYTES = 64 * 1024;

let fake: GenericHttpFake;
let tmp: TempDir;
let root: string;
let v2: string;
let typo: string;
let counter = 0;

beforeAll(async () => {
  fake = await startGenericHttpFake({ token: CANARY.credential, items: ITEMS });
  tmp = await makeTempDir('ec-hook-user-log-');
  root = path.join(tmp.path, 'repo');
  mkdirSync(root);
  const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: CANARY.envName };
  v2 = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: 5000 } }, { dir: tmp.path, name: 'v2.json' });
  typo = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMS: 5000 } }, { dir: tmp.path, name: 'typo.json' });
});

afterAll(async () => {
  await fake.close();
  await tmp.remove();
});

const recallInput = (): string => JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: PROMPT, prompt: CANARY.body, cwd: root });

/** A fresh state folder and the environment that points the per-user log into it. */
function stateEnv(extra: Record<string, string | undefined> = {}): { readonly state: string; readonly log: string; readonly env: Record<string, string> } {
  const state = path.join(tmp.path, `state-${++counter}`);
  const env = cleanEnv({ EXTERNAL_CONTEXT_HOOK_LOG: undefined, XDG_STATE_HOME: state, [CANARY.envName]: CANARY.credential, DENO_NO_UPDATE_CHECK: '1', ...extra });
  return { state, log: path.join(state, 'external-context', 'hook.log'), env };
}

const exe = (): string => requireBuilt(exePath());

async function recall(env: Record<string, string>, config = v2): Promise<void> {
  const result = await runProcess(exe(), ['hook', 'auto-recall', '--config', config], { cwd: root, env, stdin: recallInput() });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
}

/** The log's lines without time and duration, after the canary and temporary-path sweep. */
function readLog(log: string): Record<string, unknown>[] {
  const text = readFileSync(log, 'utf8');
  expectNoCanary(text);
  expect(text).not.toContain(tmp.path);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const { time: _time, durationMs: _duration, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
}

interface Item {
  readonly id: string;
  readonly status: string;
  readonly message: string;
  readonly hint?: string;
}

async function hookLogItem(env: Record<string, string>): Promise<Item | undefined> {
  const result = await runProcess(exe(), ['check', '--config', v2, '--json'], { env });
  expectNoCanary(result.stdout, { allow: ['envName'] });
  expectNoCanary(result.stderr, { allow: ['envName'] });
  return (JSON.parse(result.stdout) as { items: Item[] }).items.find((entry) => entry.id === 'hook-log');
}

describe('per-user Hook log without --log (executable)', () => {
  test('a wrong token, an unset credential and a configuration typo each leave their class; check warns with the newest hint', async () => {
    const { state, log, env } = stateEnv();
    expect(await hookLogItem(env)).toEqual({
      id: 'hook-log',
      status: 'ok',
      message: `No Hook run logged yet in ${log}.`,
      hint: 'Submit a prompt in the coding agent, then run check again. A Hook on Deno logs only with --log.',
    });
    await recall(env);
    await recall({ ...env, [CANARY.envName]: 'wrong-token-value' });
    await recall(stateEnvWithout(env, CANARY.envName));
    await recall(env, typo);
    expect(readLog(log)).toEqual([
      { hook: 'auto-recall', outcome: 'injected', items: 1 },
      { hook: 'auto-recall', outcome: 'failed', class: 'http-status 401' },
      { hook: 'auto-recall', outcome: 'failed', class: 'credential' },
      { hook: 'auto-recall', outcome: 'failed', class: 'configuration' },
    ]);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
    expect(existsSync(state)).toBe(true);

    const found = await hookLogItem(env);
    expect(found?.status).toBe('warn');
    expect(found?.message).toMatch(
      /^Last 4 Hook outcomes in .+ \(newest last\): \S+Z auto-recall injected 1 item; \S+Z auto-recall failed http-status 401; \S+Z auto-recall failed credential; \S+Z auto-recall failed configuration\.$/,
    );
    expect(found?.hint).toContain('configuration item');

    await recall({ ...env, [CANARY.envName]: 'wrong-token-value' });
    expect((await hookLogItem(env))?.hint).toContain('HTTP 401');
    await recall(stateEnvWithout(env, CANARY.envName));
    expect((await hookLogItem(env))?.hint).toContain('environment of the coding agent');
    // Six runs: only the last five are shown; an injected newest run is ok.
    await recall(env);
    const last = await hookLogItem(env);
    expect(last?.status).toBe('ok');
    expect(last?.message).toStartWith('Last 5 Hook outcomes');
    expect(last?.hint).toBeUndefined();
  });

  test('without XDG_STATE_HOME the log is ~/.local/state/external-context/hook.log; write-confirmation logs there too', async () => {
    const home = path.join(tmp.path, `home-${++counter}`);
    mkdirSync(home);
    const env = cleanEnv({ EXTERNAL_CONTEXT_HOOK_LOG: undefined, XDG_STATE_HOME: undefined, HOME: home });
    const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'mcp__external-context__context_remember', permission_mode: 'default', tool_input: { content: CANARY.content } });
    const result = await runProcess(exe(), ['hook', 'write-confirmation'], { cwd: root, env, stdin });
    expect(result.code).toBe(0);
    expect(readLog(path.join(home, '.local', 'state', 'external-context', 'hook.log'))).toEqual([{ hook: 'write-confirmation', outcome: 'ask' }]);
  });

  test('EXTERNAL_CONTEXT_HOOK_LOG moves the log to an absolute file, or turns it (and the check item) off', async () => {
    const moved = stateEnv();
    const file = path.join(moved.state, 'elsewhere.log');
    mkdirSync(moved.state);
    await recall({ ...moved.env, EXTERNAL_CONTEXT_HOOK_LOG: file });
    expect(readLog(file)).toEqual([{ hook: 'auto-recall', outcome: 'injected', items: 1 }]);
    expect(existsSync(moved.log)).toBe(false);
    expect((await hookLogItem({ ...moved.env, EXTERNAL_CONTEXT_HOOK_LOG: file }))?.message).toContain(file);

    const off = stateEnv({ EXTERNAL_CONTEXT_HOOK_LOG: 'off' });
    await recall(off.env);
    expect(existsSync(off.state)).toBe(false);
    expect(await hookLogItem(off.env)).toBeUndefined();
    // No absolute XDG_STATE_HOME or HOME: the Hooks write no per-user log, and check has no item.
    const homeless = cleanEnv({ EXTERNAL_CONTEXT_HOOK_LOG: undefined, XDG_STATE_HOME: 'relative/state', HOME: undefined, [CANARY.envName]: CANARY.credential });
    await recall(homeless);
    expect(existsSync(path.join(root, 'relative'))).toBe(false);
    expect(await hookLogItem(homeless)).toBeUndefined();
    // A directory where the file should be: the Hook answers as ever, check warns.
    const blocked = stateEnv();
    mkdirSync(blocked.log, { recursive: true });
    await recall(blocked.env);
    expect(await hookLogItem(blocked.env)).toEqual({
      id: 'hook-log',
      status: 'warn',
      message: `The Hook log ${blocked.log} is not a readable regular file.`,
      hint: 'Remove it (the next Hook run creates it with mode 0600), or point EXTERNAL_CONTEXT_HOOK_LOG elsewhere.',
    });
  });

  test('a log folder another user could write (or a symlink in its place) is not written', async () => {
    const open = stateEnv();
    mkdirSync(path.dirname(open.log), { recursive: true });
    chmodSync(path.dirname(open.log), 0o777);
    await recall(open.env);
    expect(existsSync(open.log)).toBe(false);
    const linked = stateEnv();
    const target = path.join(tmp.path, `target-${++counter}`);
    mkdirSync(target, { mode: 0o700 });
    mkdirSync(linked.state);
    symlinkSync(target, path.dirname(linked.log));
    await recall(linked.env);
    expect(readdirSync(target)).toEqual([]);
  });

  test('an explicit --log replaces the per-user log', async () => {
    const { state, env } = stateEnv();
    mkdirSync(state);
    const file = path.join(state, 'explicit.log');
    const result = await runProcess(exe(), ['hook', 'auto-recall', '--config', v2, '--log', file], { cwd: root, env, stdin: recallInput() });
    expect(result.code).toBe(0);
    expect(readLog(file)).toHaveLength(1);
    expect(existsSync(path.join(state, 'external-context'))).toBe(false);
  });

  test('a file at 64 KiB is rotated to hook.log.1 (replacing the older one) before the next line', async () => {
    const { log, env } = stateEnv();
    mkdirSync(path.dirname(log), { recursive: true, mode: 0o700 });
    const filler = `${JSON.stringify({ time: '2026-12-01T09:30:12.345Z', hook: 'auto-recall', outcome: 'skipped', reason: 'no-items', durationMs: 1 })}\n`;
    const full = filler.repeat(Math.ceil(MAX_BYTES / filler.length));
    writeFileSync(log, full, { mode: 0o600 });
    writeFileSync(`${log}.1`, 'older generation\n', { mode: 0o600 });
    await recall(env);
    expect(readFileSync(`${log}.1`, 'utf8')).toBe(full);
    expect(readLog(log)).toEqual([{ hook: 'auto-recall', outcome: 'injected', items: 1 }]);
    // Below the bound, nothing rotates.
    await recall(env);
    expect(readLog(log)).toHaveLength(2);
    expect(readFileSync(`${log}.1`, 'utf8')).toBe(full);
  });

  test('check shows only validated fields: a line carrying a canary elsewhere, or an unknown shape, is never echoed', async () => {
    const { log, env } = stateEnv();
    mkdirSync(path.dirname(log), { recursive: true, mode: 0o700 });
    const lines = [
      { time: '2026-12-01T09:30:12.345Z', hook: 'auto-recall', outcome: 'injected', items: 2, durationMs: 3, extra: CANARY.query },
      { time: '2026-12-01T09:30:13.345Z', hook: 'auto-recall', outcome: 'failed', class: CANARY.credential, durationMs: 3 },
      { time: CANARY.content, hook: 'auto-recall', outcome: 'failed', class: 'credential', durationMs: 3 },
      { time: '2026-12-01T09:30:14.345Z', hook: 'auto-recall', outcome: 'failed', class: 'http-status 503', durationMs: 3 },
    ];
    writeFileSync(log, `${lines.map((line) => JSON.stringify(line)).join('\n')}\nnot json ${CANARY.body}\n`, { mode: 0o600 });
    const found = await hookLogItem(env);
    expect(found?.status).toBe('warn');
    expect(found?.message).toEndWith('(newest last): 2026-12-01T09:30:12.345Z auto-recall injected 2 items; 2026-12-01T09:30:14.345Z auto-recall failed http-status 503.');
    expect(found?.hint).toContain('HTTP 503');
  });
});

function stateEnvWithout(env: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _removed, ...rest } = env;
  return rest;
}

// The per-user log's mode 0600 runs on the executable above; the Node.js bundle's file writes are
// test/cli/hook-log.test.ts's (log-append), its one Node.js bundle row.
const WITHOUT_WRITE = proves('log-without-write-permission', ['deno-bundle']);

describe(`per-user Hook log on the Deno bundle ${WITHOUT_WRITE('deno-bundle')}`, () => {
  test('deno bundle: the shipped command (no --allow-write) answers the same and writes no per-user log', async () => {
    const { state, env } = stateEnv();
    const args = ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', requireBuilt(bundlePath()), 'hook', 'auto-recall', '--config', v2];
    const result = await runProcess(binPath('deno'), args, { cwd: root, env, stdin: recallInput() });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain('additionalContext');
    expect(existsSync(state)).toBe(false);
  });
});
