// Canary leak sweep (issue 11; spec README "Conventions", providers.md §1.6, hooks.md §1,
// frontend-mcp.md §11, remote.md §2.2): every surface — stdio server, both Hooks, check, probe,
// gateway, serve --http and conformance — runs through its error paths with canary values as
// the credential, the credential variable's name, the query, the memory content and every
// upstream body (which also echoes the others back, as a misbehaving service would). No canary
// may appear in any stdout, stderr, log line or tool result where the spec forbids it.
// One-shot commands (check, the Hooks, probe, gateway) run each surface's first error path as a
// real process and every path through the dispatcher's run() in this process: the executable's
// own code, without a spawn per path (issue 26 §3); the process rows prove what main.ts adds.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { run } from '../../src/cli/dispatch.ts';
import { denoLauncher, nodeLauncher } from '../bundle/bundle-runtimes.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import type { FakeOverride } from '../fakes/overrides.ts';
import { startMcpServer, type TestServer } from '../gateway/mcp-test-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { CANARY, type CanaryName, findCanaries } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';

// Hang guard for a file that spawns many processes (not a timing assertion).
setDefaultTimeout(LIVENESS_MS);

/** An upstream body that carries every canary, as a service echoing the request would. */
const ECHO = `${CANARY.body} request={"query":"${CANARY.query}","content":"${CANARY.content}"} auth=Bearer ${CANARY.credential} env=${CANARY.envName} path=/${CANARY.path}`;
/** Provider timeout of the sweep configurations, in ms (stall paths end quickly). */
const TIMEOUT_MS = 400;
/**
 * Provider timeout where an outcome depends on the answer arriving (a 400 is a `failed` write,
 * a timeout an `unknown` one): a generous bound a loaded machine never reaches.
 */
const PATIENT_TIMEOUT_MS = 30_000;
const GATEWAY_TOKEN_VARIABLE = 'EC_GATEWAY_TOKEN';
const UNKNOWN_WRITE = '{"status":"unknown","message":"The provider may have accepted the memory. Do not retry automatically."}';
const FAILED_WRITE = '{"status":"failed","message":"The provider rejected the memory. Do not retry without changing the content or configuration."}';

interface Launcher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}
const exe = (): Launcher => ({ label: 'executable', command: exePath(), args: [] });

/** Every provider error path, each played by the fake for every request. */
const PROVIDER_ERROR_PATHS: readonly (readonly [string, FakeOverride])[] = [
  ['400 JSON echo', { kind: 'reply', status: 400, json: { detail: ECHO } }],
  ['401 with an echoing WWW-Authenticate', { kind: 'reply', status: 401, body: ECHO, headers: { 'www-authenticate': `Bearer realm="${CANARY.body}"`, 'content-type': 'text/plain' } }],
  ['404 HTML page', { kind: 'reply', status: 404, body: `<html><body>${ECHO}</body></html>`, headers: { 'content-type': 'text/html' } }],
  ['422 validation list', { kind: 'reply', status: 422, json: { detail: [{ loc: ['body', 'query'], msg: ECHO, input: CANARY.query }] } }],
  ['429 with Retry-After', { kind: 'reply', status: 429, json: { error: ECHO }, headers: { 'retry-after': '0' } }],
  ['500 text', { kind: 'reply', status: 500, body: ECHO, headers: { 'content-type': 'text/plain' } }],
  ['302 to an echoing Location', { kind: 'redirect', status: 302, location: `http://127.0.0.1:1/${CANARY.path}?token=${CANARY.credential}`, body: ECHO }],
  ['200 invalid JSON', { kind: 'reply', status: 200, body: `{"items":[{"id":"1","content":"${ECHO}"` }],
  ['200 invalid UTF-8', { kind: 'invalid-utf8', template: `{"items":[{"id":"1","content":"${ECHO} @@INVALID@@"}],"results":[{"id":"1","memory":"${ECHO} @@INVALID@@"}]}` }],
  ['200 wrong shape', { kind: 'reply', status: 200, json: { items: ECHO, results: ECHO, status: ECHO, event_id: { x: ECHO } } }],
  ['200 over 1 MiB', { kind: 'reply', status: 200, body: `{"items":["${ECHO.repeat(Math.ceil(1_100_000 / ECHO.length))}"]}`, headers: { 'transfer-encoding': 'chunked' } }],
  ['headers then stall', { kind: 'stall-after-headers', partial: `{"items":[{"id":"1","content":"${ECHO}` }],
  ['reset mid-body', { kind: 'reset-mid-body', partial: `{"items":[{"id":"1","content":"${ECHO}` }],
  ['corrupt gzip', { kind: 'reply', status: 200, body: ECHO, headers: { 'content-encoding': 'gzip' } }],
];

/** Answers that are valid searches but do not prove a write (providers.md §6.3). */
const WRITE_ONLY_ERROR_PATHS: readonly (readonly [string, FakeOverride])[] = [
  ['200 rewritten memory', { kind: 'reply', status: 200, json: { results: [{ id: 'mem-1', memory: ECHO, event: 'ADD' }] } }],
  ['200 delete event', { kind: 'reply', status: 200, json: { results: [{ id: ECHO, memory: CANARY.content, event: 'DELETE' }] } }],
  ['200 bare event id', { kind: 'reply', status: 200, json: { event_id: ECHO, message: ECHO } }],
];

let fake: FakeServer;
let deadOrigin: string;
let proxy: ForwardProxy;
let root: string;
let dir: string;
const files: Record<string, string> = {};

/** Leaks found so far, reported together at the end of each test. */
let leaks: string[] = [];

/**
 * Records every canary found in `text` that this output may not carry.
 *
 * @param where A label for the report (surface, path, stream).
 * @param allow Canaries this output may legitimately hold (the probe's operator-supplied
 *   `--credential-env` name and its quoted upstream body, for example).
 */
function sweep(where: string, text: string, allow: readonly CanaryName[] = []): void {
  const found = findCanaries(text).filter((name) => !allow.includes(name));
  if (found.length > 0) leaks.push(`${where}: ${found.join(', ')} in ${JSON.stringify(text.slice(0, 300))}`);
}
/**
 * Sweeps `check` output. Its credential item may name the credential variable, which the
 * administrator wrote into the file (config.md §11), and nothing else; the rest of the output
 * is swept strictly.
 */
function sweepCheck(where: string, stdout: string, stderr: string): void {
  let rest = stdout;
  let credential = '';
  if (stdout.startsWith('{')) {
    const parsed = JSON.parse(stdout) as { items?: { id: string }[] };
    credential = JSON.stringify(parsed.items?.filter((entry) => entry.id === 'credential') ?? []);
    rest = JSON.stringify({ ...parsed, items: parsed.items?.filter((entry) => entry.id !== 'credential') });
  } else {
    const pattern = /^ {2}(?:ok|warn|fail) +credential: .*\n(?: {8}hint: .*\n)?/gmu;
    credential = (stdout.match(pattern) ?? []).join('');
    rest = stdout.replace(pattern, '');
  }
  sweep(where, rest + stderr);
  sweep(`${where} (credential item)`, credential, ['envName']);
}
function expectNoLeaks(): void {
  const found = leaks;
  leaks = [];
  expect(found).toEqual([]);
}

function configOf(kind: 'generic' | 'mem0', origin: string, version: 1 | 2): Record<string, unknown> {
  const provider =
    kind === 'generic'
      ? { type: 'generic-http-search-v1', baseUrl: origin, tokenEnv: CANARY.envName }
      : { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin }, credentialEnv: CANARY.envName, scope: { userId: 'u1' } };
  return version === 1
    ? { version: 1, timeoutMs: TIMEOUT_MS, provider, ...(kind === 'mem0' ? { write: { enabled: true } } : {}) }
    : { version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: TIMEOUT_MS } };
}

beforeAll(async () => {
  fake = await startFakeServer({ handler: () => ({ status: 200, json: { items: [], results: [] } }) });
  const dead = await startFakeServer();
  deadOrigin = dead.origin;
  await dead.close();
  proxy = await startForwardProxy({ stall: true });
  const temp = await makeTempDir('ec-canary-sweep-');
  dir = temp.path;
  root = path.join(dir, 'repo');
  mkdirSync(root);
  const write = async (name: string, config: unknown): Promise<void> => {
    files[name] = await writeConfigFile(config, { dir, name: `${name}.json` });
  };
  for (const kind of ['generic', 'mem0'] as const) {
    await write(kind, configOf(kind, fake.origin, 1));
    await write(`${kind}V2`, configOf(kind, fake.origin, 2));
    await write(`${kind}Dead`, configOf(kind, deadOrigin, 1));
    await write(`${kind}DeadV2`, configOf(kind, deadOrigin, 2));
  }
  await write('mem0Remote', configOf('mem0', 'https://context.test', 1));
  await write('mem0Patient', { ...configOf('mem0', fake.origin, 1), timeoutMs: PATIENT_TIMEOUT_MS });
  await write('mem0ReadOnly', { ...configOf('mem0', fake.origin, 1), write: undefined });
});
afterAll(async () => {
  await fake.close();
  await proxy.close();
  await removeTempDirs();
});
beforeEach(() => {
  fake.reset();
  leaks = [];
});

/** The environment every run gets: the canary credential under the canary variable name. */
const env = (extra: Record<string, string | undefined> = {}): Record<string, string> => cleanEnv({ [CANARY.envName]: CANARY.credential, DENO_NO_UPDATE_CHECK: '1', ...extra });

/** A one-shot command through run() in this process, with a process row's environment and stdin. */
function inProcess(args: readonly string[], options: { env: Record<string, string>; stdin?: string }): Promise<CapturedRun> {
  return runInMemory(run, args, { env: options.env, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
}

/**
 * Runs `args` as a real process for the first call of a sweep and in-process for the rest: the
 * process row proves the exit code and the streams main.ts writes; the logic is the same code.
 */
function firstAsProcess(): (args: readonly string[], options: { env: Record<string, string>; stdin?: string }) => Promise<CapturedRun> {
  let spawned = false;
  return async (args, options) => {
    if (spawned) return inProcess(args, options);
    spawned = true;
    const result = await runProcess(exePath(), args, options);
    return { code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
  };
}

function play(override: FakeOverride): void {
  fake.reset();
  fake.override(override);
}

const ERROR_CANARIES = proves('error-canaries', ['executable', 'node-bundle', 'deno-bundle']);

describe('canary sweep: stdio MCP server', () => {
  for (const [id, launcher] of [
    ['executable', exe()],
    ['node-bundle', nodeLauncher()],
    ['deno-bundle', denoLauncher()],
  ] as const) {
    test(`${launcher.label}: context_search and context_remember through every provider error path ${ERROR_CANARIES(id)}`, async () => {
      // The answered paths go to a server with a generous timeout, so a slow run never turns a
      // `failed` write into an `unknown` one; the stall goes to one whose 400 ms timeout ends it.
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['mem0Patient'] as string], env());
      const quick = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['mem0'] as string], env());
      try {
        for (const [name, override] of PROVIDER_ERROR_PATHS) {
          play(override);
          const target = name.includes('stall') ? quick : server;
          const search = await target.client.callTool({ name: 'context_search', arguments: { query: CANARY.query } });
          expect({ name, search }).toEqual({ name, search: { content: [{ type: 'text', text: 'External context search failed.' }], isError: true } });
          const remember = await target.client.callTool({ name: 'context_remember', arguments: { content: CANARY.content } });
          // write.md §4 and providers.md §6.1: rejections before processing are `failed`, the rest `unknown`.
          const failed = /^(400|401|404|422) /.test(name);
          expect({ name, remember }).toEqual({ name, remember: { content: [{ type: 'text', text: failed ? FAILED_WRITE : UNKNOWN_WRITE }], isError: true } });
          sweep(`serve ${name} remember`, JSON.stringify(remember));
        }
        for (const [name, override] of WRITE_ONLY_ERROR_PATHS) {
          play(override);
          const remember = await server.client.callTool({ name: 'context_remember', arguments: { content: CANARY.content } });
          expect({ name, remember }).toEqual({ name, remember: { content: [{ type: 'text', text: UNKNOWN_WRITE }], isError: true } });
        }
        // Input errors that carry canaries in the arguments.
        const inputs: readonly (readonly [string, Record<string, unknown>])[] = [
          ['context_search', { query: CANARY.query.repeat(100) }],
          ['context_search', { query: CANARY.query, repository: CANARY.body }],
          ['context_search', { query: 42, [CANARY.path]: CANARY.credential }],
          ['context_remember', { content: CANARY.content.repeat(200) }],
          ['context_remember', { content: `\u200b\uD800${CANARY.content}` }],
          ['context_remember', { content: 7, note: CANARY.body }],
        ];
        for (const [name, args] of inputs) {
          const result = await server.client.callTool({ name, arguments: args });
          expect(result.isError).toBe(true);
          sweep(`serve input ${name}`, JSON.stringify(result));
        }
        const unknown = await server.client.callTool({ name: `no_such_tool_${CANARY.path}`, arguments: { query: CANARY.query } }).catch((error: unknown) => String(error));
        sweep('serve unknown tool', JSON.stringify(unknown), ['path']);
      } finally {
        await server.close();
        await quick.close();
      }
      sweep(`serve ${launcher.label} stderr`, server.stderr() + quick.stderr());
      // One operator line per failed call: the search lines carry only statuses or fixed texts.
      for (const line of `${server.stderr()}${quick.stderr()}`.trim().split('\n')) {
        expect(line).toMatch(/^external-context: context_(search failed|remember (failed|unknown)): ((http-status|redirect) \d{1,3}|[a-z0-9-]+|External context memory write failed\.)$/);
      }
      expectNoLeaks();
    });
  }

  test('executable: startup failures name no variable, value or URL part', async () => {
    const bad = async (name: string, config: unknown): Promise<string> => writeConfigFile(config, { dir, name: `${name}.json` });
    const cases: readonly (readonly [string, string, Record<string, string | undefined>])[] = [
      ['credential missing', files['generic'] as string, { [CANARY.envName]: undefined }],
      ['credential with a newline', files['generic'] as string, { [CANARY.envName]: `${CANARY.credential}\n` }],
      ['credential is a placeholder', files['generic'] as string, { [CANARY.envName]: `\${${CANARY.envName}}` }],
      [
        'origin with credentials',
        await bad('userinfo', { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: `https://u:${CANARY.credential}@search.example`, tokenEnv: CANARY.envName } }),
        {},
      ],
      [
        'origin with a path',
        await bad('pathful', { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: `https://search.example/${CANARY.path}?q=${CANARY.query}`, tokenEnv: CANARY.envName } }),
        {},
      ],
      [
        'basePath with a query',
        await bad('basepath', {
          ...configOf('mem0', fake.origin, 1),
          provider: { ...(configOf('mem0', fake.origin, 1)['provider'] as object), endpoint: { origin: fake.origin, basePath: `/${CANARY.path}?${CANARY.credential}` } },
        }),
        {},
      ],
      ['unknown key and bad value', await bad('unknown', { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: CANARY.body, tokenEnv: CANARY.envName } }), {}],
      ['invalid JSON', await bad('invalid', `{"version":1,"provider":"${CANARY.credential}"`), {}],
      // A non-loopback provider: no proxy applies to loopback, so there a malformed variable stops nothing.
      [
        'invalid proxy variable',
        await bad('proxied', { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'https://search.test', tokenEnv: CANARY.envName } }),
        { HTTPS_PROXY: `not a url ${CANARY.credential}` },
      ],
    ];
    const runs = { serve: firstAsProcess(), check: firstAsProcess() };
    for (const [name, file, extra] of cases) {
      for (const command of ['serve', 'check'] as const) {
        const result = await runs[command]([command, '--config', file], { env: env(extra) });
        expect({ name, command, code: result.code }).toEqual({ name, command, code: 1 });
        sweepCheck(`${command} startup ${name}`, result.stdout, result.stderr);
      }
    }
    expectNoLeaks();
  });

  test('executable: a proxy URL with credentials never appears when the proxied request fails', async () => {
    const proxied = `http://user:${CANARY.credential}@127.0.0.1:${proxy.port}`;
    const server = await spawnServer(exePath(), ['serve', '--config', files['mem0Remote'] as string], env({ HTTPS_PROXY: proxied, [CANARY.envName]: 'provider-key' }));
    try {
      const search = await server.client.callTool({ name: 'context_search', arguments: { query: CANARY.query } });
      expect(search.isError).toBe(true);
      const remember = await server.client.callTool({ name: 'context_remember', arguments: { content: CANARY.content } });
      sweep('serve via stalled proxy', JSON.stringify([search, remember]));
    } finally {
      await server.close();
    }
    sweep('serve via stalled proxy stderr', server.stderr());
    const check = await runProcess(exePath(), ['check', '--config', files['mem0Remote'] as string, '--search', CANARY.query, '--json'], { env: env({ HTTPS_PROXY: proxied }) });
    sweepCheck('check via stalled proxy', check.stdout, check.stderr);
    expect(proxy.requests.length).toBeGreaterThan(0);
    expectNoLeaks();
  });
});

describe('canary sweep: check --search', () => {
  test('every provider error path, text and --json, plus connection refused', async () => {
    const check = firstAsProcess();
    for (const kind of ['generic', 'mem0'] as const) {
      for (const [name, override] of PROVIDER_ERROR_PATHS) {
        play(override);
        const json = name.startsWith('4') ? ['--json'] : [];
        const result = await check(['check', '--config', files[kind] as string, '--search', CANARY.query, ...json], { env: env() });
        expect({ kind, name, code: result.code }).toEqual({ kind, name, code: 1 });
        sweepCheck(`check ${kind} ${name}`, result.stdout, result.stderr);
        expect(result.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
      }
      const refused = await check(['check', '--config', files[`${kind}Dead`] as string, '--search', CANARY.query], { env: env() });
      expect(refused.code).toBe(1);
      sweepCheck(`check ${kind} refused`, refused.stdout, refused.stderr);
    }
    // An input error never echoes the query either.
    const long = await check(['check', '--config', files['generic'] as string, '--search', CANARY.query.repeat(100)], { env: env() });
    expect({ code: long.code, stderr: long.stderr }).toEqual({ code: 1, stderr: '' });
    sweepCheck('check long query', long.stdout, '');
    expectNoLeaks();
  });

  test('the doctor items: credential faults, placeholders, probe and the managed files name no value, query or body', async () => {
    const placeholder = await writeConfigFile(
      { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'https://kb.example.com', tokenEnv: CANARY.envName } },
      { dir, name: 'placeholder.json' },
    );
    const managed = path.join(dir, 'managed.json');
    // The administrator's own paths may be shown; values inside the files (an env block, rule
    // names, Hook arguments) may not.
    await Bun.write(
      managed,
      JSON.stringify({
        mcpServers: { x: { command: '/nonexistent/ec', args: ['serve', '--config', '/nonexistent/other.json'], env: { TOKEN: CANARY.credential } } },
        permissions: { allow: [CANARY.body] },
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `exec '/nonexistent/ec' hook auto-recall --config '/${CANARY.query}'` }] }] },
      }),
    );
    const runs: (readonly [string, readonly string[], Record<string, string | undefined>, number])[] = [
      ['credential above U+00FF', ['--config', files['generic'] as string], { [CANARY.envName]: `${CANARY.credential}\u2019` }, 1],
      ['credential with spaces', ['--config', files['generic'] as string], { [CANARY.envName]: ` ${CANARY.credential} ` }, 0],
      ['placeholder host', ['--config', placeholder], {}, 1],
      ['probe', ['--config', files['mem0'] as string, '--probe', '--json'], {}, 1],
      ['managed files', ['--config', files['generic'] as string, '--mcp-config', managed, '--settings', managed, '--launch-profile', managed], {}, 1],
    ];
    play({ kind: 'reply', status: 401, body: ECHO });
    const check = firstAsProcess();
    for (const [name, args, extra, code] of runs) {
      const result = await check(['check', ...args], { env: env(extra) });
      expect({ name, code: result.code }).toEqual({ name, code });
      sweepCheck(`check ${name}`, result.stdout, result.stderr);
    }
    expectNoLeaks();
  });
});

describe('canary sweep: Hooks', () => {
  const prompt = (): string =>
    JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: `${CANARY.query} token=${CANARY.credential} Bearer ${CANARY.credential}`, cwd: root, prompt: CANARY.body });

  test('auto-recall: {} and empty stderr on every error path, and the credential never reaches the provider', async () => {
    const log = path.join(dir, 'auto-recall.log');
    const hook = firstAsProcess();
    for (const kind of ['generic', 'mem0'] as const) {
      for (const [name, override] of PROVIDER_ERROR_PATHS) {
        play(override);
        const result = await hook(['hook', 'auto-recall', '--config', files[`${kind}V2`] as string, '--log', log], { env: env(), stdin: prompt() });
        expect({ kind, name, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ kind, name, code: 0, stdout: '{}', stderr: '' });
        for (const request of fake.requests) sweep(`auto-recall ${kind} ${name} request to the provider`, request.text, ['query']);
      }
      const refused = await hook(['hook', 'auto-recall', '--config', files[`${kind}DeadV2`] as string], { env: env(), stdin: prompt() });
      expect({ stdout: refused.stdout, stderr: refused.stderr }).toEqual({ stdout: '{}', stderr: '' });
    }
    // Configuration and credential failures are silent too.
    for (const extra of [{ [CANARY.envName]: undefined }, { [CANARY.envName]: `${CANARY.credential}\u0001` }, { HTTP_PROXY: `bad ${CANARY.credential}` }]) {
      const result = await hook(['hook', 'auto-recall', '--config', files['genericV2'] as string, '--log', log], { env: env(extra), stdin: prompt() });
      expect({ stdout: result.stdout, stderr: result.stderr }).toEqual({ stdout: '{}', stderr: '' });
    }
    // The opt-in Hook log (hooks.md §7): one line per run, none of them carrying a canary.
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(PROVIDER_ERROR_PATHS.length * 2 + 3);
    sweep('auto-recall --log', lines.join('\n'));
    expectNoLeaks();
  });

  test('write-confirmation: invalid requests are denied without echoing the content', async () => {
    const inputs = [
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__external-context__context_remember', permission_mode: 'default', tool_input: { content: CANARY.content.repeat(200) } },
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__external-context__context_remember', permission_mode: 'plan', tool_input: { content: CANARY.content } },
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__external-context__context_remember', permission_mode: CANARY.body, tool_input: { content: CANARY.content } },
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__external-context__context_remember', permission_mode: 'default', tool_input: { content: `\uD800${CANARY.content}` } },
    ];
    const log = path.join(dir, 'write-confirmation.log');
    const hook = firstAsProcess();
    for (const input of inputs) {
      const result = await hook(['hook', 'write-confirmation', '--log', log], { env: env(), stdin: JSON.stringify(input) });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'deny' });
      sweep('write-confirmation deny', result.stdout);
    }
    const broken = await hook(['hook', 'write-confirmation'], { env: env(), stdin: `{"tool_input":{"content":"${CANARY.content}"` });
    sweep('write-confirmation malformed', broken.stdout + broken.stderr);
    sweep('write-confirmation --log', readFileSync(log, 'utf8'));
    expectNoLeaks();
  });
});

describe('canary sweep: probe', () => {
  test('error answers are quoted with the credential redacted; nothing else leaks', async () => {
    const args = ['probe', '--preset', 'mem0-server-rest-2026-08', '--origin', fake.origin, '--user-id', 'u1', '--credential-env', CANARY.envName];
    const probe = firstAsProcess();
    for (const [name, override] of PROVIDER_ERROR_PATHS.filter(([label]) => !label.includes('stall'))) {
      play(override);
      for (const json of [[], ['--json']]) {
        const result = await probe([...args, ...json], { env: env() });
        expect({ name, validationFailure: result.code === 2 }).toEqual({ name, validationFailure: false });
        // probe.md §1, §2: the operator names the variable, and non-2xx bodies are quoted (redacted).
        sweep(`probe ${name}`, result.stdout + result.stderr, ['envName', 'body', 'query', 'content', 'path']);
      }
    }
    // Issue 14: the unreachable verdict with its class and hint leaks nothing either.
    for (const json of [[], ['--json']]) {
      const dead = await probe(['probe', '--preset', 'mem0-server-rest-2026-08', '--origin', deadOrigin, '--user-id', 'u1', '--credential-env', CANARY.envName, ...json], {
        env: env(),
      });
      expect(dead.stdout).toContain('connection-refused');
      sweep('probe unreachable', dead.stdout + dead.stderr, ['envName']);
    }
    const config = await probe(['probe', '--config', files['mem0'] as string], { env: env() });
    sweep('probe --config', config.stdout + config.stderr, ['body', 'query', 'content', 'path']);
    const missing = await probe(args, { env: env({ [CANARY.envName]: undefined }) });
    expect(missing.code).toBe(2);
    sweep('probe missing credential', missing.stdout + missing.stderr, ['envName']);
    expectNoLeaks();
  });
});

describe('canary sweep: gateway', () => {
  let mcp: TestServer;
  let rejecting: FakeServer;
  beforeAll(async () => {
    mcp = startMcpServer({
      tools: [
        { name: 'search', description: 'Search.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        { name: 'broken', description: 'Broken.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ],
      onCall: (name, args) => {
        if (name === 'broken') throw new Error(`${CANARY.body} args=${JSON.stringify(args)}`);
        return { content: [{ type: 'text', text: 'fine' }] };
      },
    });
    rejecting = await startFakeServer({ handler: () => ({ status: 401, body: ECHO, headers: { 'www-authenticate': `Bearer error="${CANARY.body}"` } }) });
  });
  afterAll(async () => {
    await mcp.close();
    await rejecting.close();
  });

  test('header values, arguments and server errors never reach stdout or the stderr log', async () => {
    const server = (url: string, headers: Record<string, string>) => ({
      enabled: true,
      url,
      headers,
      tools: { search: { enabled: true, readOnly: true }, broken: { enabled: true, readOnly: true } },
    });
    const tokenHeader = { authorization: `\${${GATEWAY_TOKEN_VARIABLE}}` };
    const live = await writeConfigFile({ version: 1, servers: { docs: server(mcp.url.replace('127.0.0.1', 'localhost'), {}) } }, { dir, name: 'gateway-live.json' });
    const remote = await writeConfigFile({ version: 1, servers: { docs: server(`https://localhost:${rejecting.port}/mcp`, tokenHeader) } }, { dir, name: 'gateway-tls.json' });
    const unauthorized = await writeConfigFile({ version: 1, servers: { docs: server(`${rejecting.origin}/mcp`, {}) } }, { dir, name: 'gateway-401.json' });
    const dead = await writeConfigFile({ version: 1, servers: { docs: server(`https://127.0.0.1:${new URL(deadOrigin).port}/mcp`, tokenHeader) } }, { dir, name: 'gateway-dead.json' });
    const gatewayEnv = env({ [GATEWAY_TOKEN_VARIABLE]: `Bearer ${CANARY.credential}` });
    const runs: [string, string[]][] = [
      ['call broken', ['gateway', 'call', 'mcp__docs__broken', '--args', JSON.stringify({ query: CANARY.query, note: CANARY.body }), '--config', live]],
      ['call unknown', ['gateway', 'call', `mcp__docs__${CANARY.path}`, '--args', JSON.stringify({ query: CANARY.query }), '--config', live]],
      ['call search', ['gateway', 'call', 'mcp__docs__search', '--args', JSON.stringify({ query: CANARY.query }), '--config', live]],
      ['discover TLS to a plain server', ['gateway', 'discover', '--config', remote]],
      ['discover 401 with an echoing body', ['gateway', 'discover', '--json', '--config', unauthorized]],
      ['call 401 with an echoing body', ['gateway', 'call', 'mcp__docs__search', '--args', JSON.stringify({ query: CANARY.query }), '--config', unauthorized]],
      ['discover refused', ['gateway', 'discover', '--json', '--config', dead]],
      ['call refused', ['gateway', 'call', 'mcp__docs__search', '--args', JSON.stringify({ query: CANARY.query }), '--config', dead]],
    ];
    const gateway = firstAsProcess();
    for (const [name, args] of runs) {
      const result = await gateway(args, { env: gatewayEnv });
      expect({ name, code: result.code }).toEqual({ name, code: name === 'call search' ? 0 : 1 });
      // frontend-mcp.md §7: a tool's own error text is returned as `untrusted_error_text`.
      const allowed: CanaryName[] = name === 'call unknown' ? ['path'] : name === 'call broken' ? ['body', 'query'] : [];
      sweep(`gateway ${name}`, result.stdout + result.stderr, allowed);
      if (name === 'call broken') sweep('gateway call broken log', result.stderr);
    }
    const missing = await gateway(['gateway', 'discover', '--config', remote], { env: env() });
    expect(missing.code).toBe(1);
    sweep('gateway missing variable', missing.stdout + missing.stderr);
    expectNoLeaks();
  });
});

/** A running `serve --http` process and its one stdout line. */
async function serveHttp(args: readonly string[], runEnv: Record<string, string>): Promise<{ url: string; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(exePath(), ['serve', '--http', ...args], { env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`serve --http printed no URL: ${stderr}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (!stdout.includes('\n')) return;
      clearTimeout(guard);
      resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    void exited.then(() => reject(new Error(`serve --http exited: ${stderr}`)));
  });
  return {
    url,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('canary sweep: serve --http and conformance', () => {
  test('serve --http: tool results and stderr through every provider error path; a canary token is never echoed', async () => {
    const served = await serveHttp(['--config', files['mem0ReadOnly'] as string, '--listen', '127.0.0.1:0', '--insecure-no-auth'], env());
    const client = new Client({ name: 'canary-sweep', version: '0.0.0' }, { capabilities: {} });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      for (const [name, override] of PROVIDER_ERROR_PATHS) {
        play(override);
        const result = await client.callTool({ name: 'context_search', arguments: { query: CANARY.query } });
        expect({ name, result }).toEqual({ name, result: { content: [{ type: 'text', text: 'External context search failed.' }], isError: true } });
      }
      const input = await client.callTool({ name: 'context_search', arguments: { query: CANARY.query, tenant: CANARY.body } });
      sweep('serve --http input error', JSON.stringify(input));
    } finally {
      await client.close().catch(() => undefined);
      await served.stop();
    }
    // The default JSON request log is on: one line per request, provider classes included.
    expect(served.stderr()).toContain('"outcome":"provider-http-status","ms":');
    expect(served.stderr()).toContain('"outcome":"provider-timeout"');
    sweep('serve --http stderr', served.stderr());

    const authed = await serveHttp(
      [
        '--config',
        files['mem0ReadOnly'] as string,
        '--listen',
        '127.0.0.1:0',
        '--resource',
        'http://localhost:1/mcp',
        '--issuer',
        'https://issuer.example',
        '--jwks-url',
        `${deadOrigin}/jwks`,
        '--log-format',
        'text',
      ],
      env(),
    );
    try {
      for (const token of [
        CANARY.credential,
        `${CANARY.credential}.${CANARY.body.replaceAll(' ', '')}.x`,
        `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: CANARY.credential })).toString('base64url')}.`,
      ]) {
        const response = await fetch(authed.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context_search', arguments: { query: CANARY.query } } }),
        });
        expect([401, 403, 503]).toContain(response.status);
        sweep('serve --http auth answer', `${JSON.stringify([...response.headers])}${await response.text()}`);
      }
    } finally {
      await authed.stop();
    }
    expect(authed.stderr()).toMatch(/ 401 auth-(malformed|signature) \d+ms provider=0ms\n/);
    sweep('serve --http auth stderr', authed.stderr());
    expectNoLeaks();
  });

  test('conformance: header values and server failures never appear in the report', async () => {
    const served = await serveHttp(['--config', files['mem0ReadOnly'] as string, '--listen', '127.0.0.1:0', '--insecure-no-auth'], env());
    const conformance = firstAsProcess();
    try {
      play({ kind: 'reply', status: 500, body: ECHO });
      for (const json of [[], ['--json']]) {
        const result = await conformance(['conformance', '--url', served.url, '--header', `x-canary: ${CANARY.credential}`, ...json], { env: env() });
        expect(result.code === 2).toBe(false);
        sweep('conformance --url', result.stdout + result.stderr);
      }
      const unreachable = await conformance(['conformance', '--url', `${deadOrigin}/mcp`, '--header', `authorization: Bearer ${CANARY.credential}`], { env: env() });
      expect(unreachable.code).toBe(1);
      sweep('conformance unreachable', unreachable.stdout + unreachable.stderr);
    } finally {
      await served.stop();
    }
    sweep('conformance server stderr', served.stderr());
    play({ kind: 'reply', status: 502, body: ECHO });
    const command = await conformance(['conformance', '--command', `"${exePath()}" serve --config "${files['mem0'] as string}"`], { env: env() });
    expect(command.code === 2).toBe(false);
    sweep('conformance --command', command.stdout + command.stderr);
    expectNoLeaks();
  });
});
