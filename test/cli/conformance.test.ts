// `external-context conformance` as a real process (remote.md §2.4): every check passes against
// our stdio server and `serve --http` (without and with authentication; the provider-extension
// starter's run is in test/contracts/provider-extension-local.test.ts), the write variant only
// warns, the deliberately broken server fails exactly the checks of each defect, command
// splitting reaches the child without a shell, report formats, exit codes 0/1/2, and a
// `--header` value never appears in any output. The runner's verdicts, flag handling and usage
// texts run through the dispatcher's run() in this process (the executable's own code, issue 26
// §3), against real servers started as processes; the executable runs the command itself for
// one passing, one failing, one usage-error and one help row, where its exit code is the point.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BROKEN_MODES, type BrokenMode } from '../fakes/broken-mcp-server.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { type Mem0ServerFake, startMem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY_CREDENTIAL, childEnv, COMPILED, genericConfig, type Launcher, ROOT, tempDir, TOKEN_ENV, writeConfig } from '../mcp/harness.ts';
import { closedPort, ISSUER, type JwksServer, RESOURCE, startJwksServer } from '../mcp/http/remote-kit.ts';
import { CANARY } from '../support/canaries.ts';
import { binPath, bundlePath, requireBuilt } from '../support/paths.ts';
import { runProcess, type ProcessResult } from '../support/run-process.ts';
import { CHECK_NAMES, parseReport } from '../conformance/conformance-report.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { nodeLauncher } from '../support/launchers.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';
import { run } from '../../src/cli/dispatch.ts';

// Hang guard for tests that spawn servers and runners (not a timing assertion).
setDefaultTimeout(LIVENESS_MS);

const BROKEN_SERVER = path.join(ROOT, 'test', 'fakes', 'broken-mcp-server.ts');
const BUN = process.execPath;
/**
 * Every case runs the shipped executable: a source run (`bun src/main.ts`) executes the same code
 * on the same runtime, and the bundle's runtime differences have their own cases below.
 */
const COMMAND = proves('conformance-command', ['executable', 'node-bundle', 'deno-bundle']);
const PRODUCT: Launcher = { label: 'dist/external-context', command: requireBuilt(COMPILED), args: [] };

let fake: GenericHttpFake;
let jwks: JwksServer;
let temp: ReturnType<typeof tempDir>;
let config: string;

beforeAll(async () => {
  fake = await startGenericHttpFake({
    token: CANARY_CREDENTIAL,
    items: [
      { id: 'policy-1', content: 'Use the <reviewed> deployment workflow.' },
      // A planted item (issue 27): tag characters spelling "Ignore", bidi controls and a javascript:
      // uri. `escaped-text` and `inert-items` pass only when the product neutralises all three.
      { id: 'planted', content: 'Deploy \u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065} \u202eadmin\u202c \u2066x\u2069', uri: 'javascript:alert(1)' },
    ],
  });
  jwks = await startJwksServer();
  temp = tempDir();
  config = writeConfig(temp.dir, genericConfig(fake));
});
afterAll(async () => {
  await fake.close();
  await jwks.close();
  temp.cleanup();
});
beforeEach(() => fake.reset());

/** Quotes a path for --command (no path here contains a double quote). */
const q = (value: string): string => `"${value}"`;

function commandLine(launcher: Launcher, ...rest: string[]): string {
  return [launcher.command, ...launcher.args].map(q).concat(rest).join(' ');
}

function conformance(launcher: Launcher, args: readonly string[], env: Record<string, string> = childEnv()): Promise<ProcessResult> {
  return runProcess(launcher.command, [...launcher.args, 'conformance', ...args], { env, timeoutMs: LIVENESS_MS });
}

/** `conformance …` through run() in this process, with the process rows' environment. */
function conformanceInProcess(args: readonly string[], env: Record<string, string> = childEnv()): Promise<CapturedRun> {
  return runInMemory(run, ['conformance', ...args], { env });
}

function expectAllPass(result: ProcessResult | CapturedRun): void {
  const lines = parseReport(result.stdout);
  expect(lines.map((line) => line.name)).toEqual([...CHECK_NAMES]);
  expect(lines.filter((line) => line.status !== 'PASS')).toEqual([]);
  expect(lines.every((line) => line.reason === 'ok')).toBe(true);
  expect(result.code).toBe(0);
}

/** Starts `serve --http` and resolves with its endpoint URL. */
async function serveHttp(args: readonly string[]): Promise<{ url: string; child: ChildProcess; stop(): Promise<number | null> }> {
  const child = spawn(PRODUCT.command, [...PRODUCT.args, 'serve', '--http', '--config', config, ...args], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    void exited.then(() => reject(new Error('serve --http exited before printing its URL')));
  });
  return {
    url,
    child,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

for (const launcher of [PRODUCT]) {
  describe(`conformance (${launcher.label}) against this product`, () => {
    test(`our stdio server passes every check, in order: exit 0, stderr empty ${COMMAND('executable')}`, async () => {
      const result = await conformance(launcher, ['--command', commandLine(launcher, 'serve', '--config', q(config))]);
      expect(result.stderr).toBe('');
      expectAllPass(result);
      expect(fake.requests.length).toBe(VALID_VECTOR_COUNT + 1);
    });

    test('--json prints one object with ok true and every check', async () => {
      const result = await conformanceInProcess(['--json', '--command', commandLine(launcher, 'serve', '--config', q(config))]);
      expect(result.code).toBe(0);
      expect(result.stdout.endsWith('}\n')).toBe(true);
      expect(result.stdout).not.toMatch(/[<>]/);
      const report = JSON.parse(result.stdout) as { ok: boolean; checks: { name: string; status: string; reason: string }[] };
      expect(Object.keys(report)).toEqual(['ok', 'checks']);
      expect(report.ok).toBe(true);
      expect(report.checks.map((check) => check.name)).toEqual([...CHECK_NAMES]);
      expect(report.checks.every((check) => check.status === 'PASS' && check.reason === 'ok' && Object.keys(check).join() === 'name,status,reason')).toBe(true);
      expect(result.stdout.split('\n')[1]).toBe('  "ok": true,');
    });
  });
}

const VALID_VECTOR_COUNT = 6;

describe('conformance against the write variant and serve --http', () => {
  let mem0: Mem0ServerFake;

  beforeAll(async () => {
    mem0 = await startMem0ServerFake({ routes: 'stock', apiKey: CANARY_CREDENTIAL });
  });
  afterAll(async () => {
    await mem0.close();
  });

  test('the write configuration gives only a WARN on tools-list, naming context_remember', async () => {
    const writeConfigPath = writeConfig(
      temp.dir,
      {
        version: 1,
        write: { enabled: true },
        provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: TOKEN_ENV, scope: { userId: 'u-1' } },
      },
      'write.json',
    );
    const result = await conformanceInProcess(['--command', commandLine(PRODUCT, 'serve', '--config', q(writeConfigPath))]);
    const lines = parseReport(result.stdout);
    expect(lines.filter((line) => line.status !== 'PASS')).toEqual([{ status: 'WARN', name: 'tools-list', reason: 'other tools are present: "context_remember"' }]);
    expect(result.code).toBe(0);
  });

  test('serve --http with --insecure-no-auth on loopback passes every check', async () => {
    const server = await serveHttp(['--insecure-no-auth', '--listen', '127.0.0.1:0']);
    try {
      expectAllPass(await conformanceInProcess(['--url', server.url]));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('serve --http with authentication passes with --header "Authorization: Bearer <token>", fails connect without it; the value never appears', async () => {
    const server = await serveHttp(['--listen', '127.0.0.1:0', '--resource', RESOURCE, '--issuer', ISSUER, '--jwks-url', jwks.url]);
    try {
      const token = await jwks.sign({ sub: CANARY.body });
      const passed = await conformance(PRODUCT, ['--url', server.url, '--header', `Authorization: Bearer ${token}`, '--header', `X-Canary: ${CANARY.credential}`]);
      expectAllPass(passed);
      const refused = await conformanceInProcess(['--url', server.url, '--header', `X-Canary: ${CANARY.credential}`]);
      expect(refused.stdout).toBe('FAIL connect: initialize failed with HTTP 401\n');
      expect(refused.code).toBe(1);
      const json = await conformanceInProcess(['--json', '--url', server.url, '--header', `Authorization: Bearer ${token}x`]);
      expect(JSON.parse(json.stdout)).toEqual({ ok: false, checks: [{ name: 'connect', status: 'FAIL', reason: 'initialize failed with HTTP 401' }] });
      for (const result of [passed, refused, json]) {
        const output = `${result.stdout}${result.stderr}`;
        expect(output).not.toContain(token.slice(-16));
        expect(output).not.toContain(CANARY.credential.slice(-8));
        expect(output).not.toContain(CANARY.body.slice(-8));
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('conformance against the deliberately broken server', () => {
  // Every mode and its reasons run in-process (run-checks.test.ts); this one runs the real
  // command against the broken server as a child: its exit code, report and copied stderr.
  test("mode six-items through the command: exit 1, fails exactly output-valid and bounds, the child's stderr copied", async () => {
    const mode: BrokenMode = 'six-items';
    const result = await conformance(PRODUCT, ['--command', `${q(BUN)} ${q(BROKEN_SERVER)} ${mode}`]);
    const lines = parseReport(result.stdout);
    expect(lines.filter((line) => line.status === 'FAIL').map((line) => line.name)).toEqual([...BROKEN_MODES[mode]]);
    expect(lines.map((line) => line.name)).toEqual([...CHECK_NAMES]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`broken-mcp-server: mode ${mode}\n`);
  });
});

describe('conformance --timeout', () => {
  test('a server that never answers after initialize: --timeout ends the run, every later check fails naming it (liveness bound: 30 s, was 19 × 10 s)', async () => {
    const started = performance.now();
    const result = await conformanceInProcess(['--timeout', '2000', '--command', `${q(BUN)} ${q(BROKEN_SERVER)} silent`]);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(result.code).toBe(1);
    const lines = parseReport(result.stdout);
    expect(lines[0]).toEqual({ status: 'PASS', name: 'connect', reason: 'ok' });
    expect(lines.find((line) => line.name === 'tools-list')?.reason).toContain('overall --timeout ran out');
    expect(lines.slice(1).every((line) => line.status !== 'PASS')).toBe(true);
  });

  test('--timeout outside 1000-3600000 is a usage error', async () => {
    for (const value of ['999', '3600001', 'x', '']) {
      const result = await conformanceInProcess(['--timeout', value, '--command', 'x']);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: '[external-context] --timeout must be an integer from 1000 to 3600000 (milliseconds).\n' });
    }
  });
});

describe('conformance --command splitting', () => {
  test('quotes, touching parts, backslashes, ";" and the environment reach the child as given, without a shell', async () => {
    const record = path.join(temp.dir, 'argv.json');
    const line = `${q(BUN)} ${q(BROKEN_SERVER)} conforming --record ${q(record)} a;b "x  y" 'it"s' C:\\dir\\f.txt --k="/a b/c" "" $HOME *`;
    const result = await conformanceInProcess(['--command', line], childEnv({ EC_CONFORMANCE_PROBE: CANARY.path }));
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({
      argv: ['conforming', '--record', record, 'a;b', 'x  y', 'it"s', 'C:\\dir\\f.txt', '--k=/a b/c', '', '$HOME', '*'],
      probe: CANARY.path,
    });
    // Neither the command line nor the environment value appears in the report.
    expect(result.stdout).not.toContain(CANARY.path);
    expect(result.stdout).not.toContain('argv.json');
  });

  test('a program that does not exist fails connect and nothing else runs: exit 1', async () => {
    const result = await conformanceInProcess(['--command', '/nonexistent/ec-no-such-server --flag']);
    expect(result.stdout).toBe('FAIL connect: the command could not be started\n');
    expect(result.code).toBe(1);
  });

  test('a server that exits at once fails connect', async () => {
    const result = await conformanceInProcess(['--command', `${q(BUN)} -e "process.exit(3)"`]);
    expect(result.stdout).toBe('FAIL connect: the server closed the connection during initialize\n');
    expect(result.code).toBe(1);
  });

  test('a --url with nothing listening fails connect: exit 1', async () => {
    const result = await conformanceInProcess(['--url', `http://127.0.0.1:${await closedPort()}/mcp`, '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ ok: false, checks: [{ name: 'connect', status: 'FAIL', reason: 'the server could not be reached (connection-refused)' }] });
    expect(result.code).toBe(1);
  });
});

describe('conformance usage errors (exit 2)', () => {
  const cases: readonly (readonly [string, readonly string[], string])[] = [
    ['neither flag', [], 'Give exactly one of --command or --url.'],
    ['both flags', ['--command', 'x', '--url', 'https://context.example.com/mcp'], 'Give exactly one of --command or --url.'],
    ['--header with --command', ['--command', 'x', '--header', 'A: b'], '--header is only valid with --url.'],
    ['an empty --command', ['--command', ''], '--command must name a program.'],
    ['a whitespace --command', ['--command', ' \t '], '--command must name a program.'],
    ['an unterminated quote', ['--command', 'node "dist/main.js'], '--command has an unterminated quote.'],
    ['an http --url off loopback', ['--url', 'http://context.example.com/mcp'], '--url must be an https URL, or http on localhost, 127.0.0.1 or [::1], without credentials, query or fragment.'],
    ['a --url with a fragment', ['--url', 'https://context.example.com/mcp#x'], '--url must be an https URL, or http on localhost, 127.0.0.1 or [::1], without credentials, query or fragment.'],
    ['a --header without a colon', ['--url', 'https://context.example.com/mcp', '--header', `Authorization Bearer ${CANARY.credential}`], '--header must have the form "Name: value".'],
    ['a --header with a bad name', ['--url', 'https://context.example.com/mcp', '--header', `Bad Name: ${CANARY.credential}`], '--header must have the form "Name: value".'],
    ['a transport --header', ['--url', 'https://context.example.com/mcp', '--header', `Mcp-Session-Id: ${CANARY.credential}`], '--header cannot set a transport header.'],
  ];
  // One usage error runs as the executable (its exit code 2 and stderr line); every case in-process.
  test(`${cases[0]![0]}: the exact message, from the executable`, async () => {
    const result = await conformance(PRODUCT, cases[0]![1]);
    expect(result.stderr).toBe(`[external-context] ${cases[0]![2]}\n`);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
  });

  for (const [label, args, message] of cases) {
    test(`${label}: the exact message`, async () => {
      const result = await conformanceInProcess(args);
      expect(result.stderr).toBe(`[external-context] ${message}\n`);
      expect(result.stdout).toBe('');
      expect(result.code).toBe(2);
    });
  }

  test('an invalid proxy variable with --url is a usage error with the config.md §12 message', async () => {
    const result = await conformanceInProcess(['--url', 'https://context.example.com/mcp'], childEnv({ HTTPS_PROXY: 'not a url' }));
    expect(result.stderr).toBe('[external-context] Proxy variable HTTPS_PROXY is not an absolute URL; write it as http://<host>:<port> (a bare <host>:<port> is not accepted).\n');
    expect(result.code).toBe(2);
  });

  test('an unknown flag gets the README suffix', async () => {
    const result = await conformanceInProcess(['--bogus']);
    expect(result.stderr).toBe('[external-context] Unknown option --bogus. Run "external-context conformance --help".\n');
    expect(result.code).toBe(2);
  });

  test('--help prints the usage on stdout, exit 0', async () => {
    const result = await conformance(PRODUCT, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('external-context conformance --command');
    expect(result.stdout).toContain('EXIT CODES');
  });
});

describe(`conformance --command on the bundle under Node.js ${COMMAND('node-bundle')}`, () => {
  test('Node.js: our stdio server, started by the bundle with node:child_process, passes every check', async () => {
    const { command, args } = nodeLauncher();
    const serveCommand = [command, ...args].map(q).join(' ') + ` serve --config ${q(config)}`;
    const result = await runProcess(command, [...args, 'conformance', '--command', serveCommand], { env: childEnv(), timeoutMs: LIVENESS_MS });
    expectAllPass(result);
  });
});

describe(`conformance --command on the bundle under Deno ${COMMAND('deno-bundle')}`, () => {
  const bundle = requireBuilt(bundlePath());

  // Node.js: a proxy applying to --url (exit 2, the unsupported-runtime message) runs in
  // test/e2e/proxy-matrix.test.ts with the other Node.js refusals.

  test('Deno without --allow-run: --command exits 1 naming the permission', async () => {
    const result = await runProcess(binPath('deno'), ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', bundle, 'conformance', '--command', 'node x.js'], {
      env: childEnv({ DENO_NO_UPDATE_CHECK: '1' }),
    });
    expect(result.stderr).toBe('[external-context] This command needs the Deno permission --allow-run.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });

  test('Deno with --allow-run: our stdio server passes every check', async () => {
    const serveCommand = `${q(binPath('deno'))} run --no-prompt --allow-read --allow-env --allow-net ${q(bundle)} serve --config ${q(config)}`;
    const result = await runProcess(binPath('deno'), ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net', '--allow-run', bundle, 'conformance', '--command', serveCommand], {
      env: childEnv({ DENO_NO_UPDATE_CHECK: '1' }),
      timeoutMs: LIVENESS_MS,
    });
    expectAllPass(result);
  });
});
