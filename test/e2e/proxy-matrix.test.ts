// One proxy behaviour through the shipped builds (config.md §12, §14 "Proxy"; issue 11): the
// compiled executable routes provider, probe and gateway traffic through the in-repository
// forward proxy exactly as `providers/proxy.ts` decides; NO_PROXY bypasses it; loopback targets
// go direct while HTTP_PROXY points at a dead port; Node.js refuses an applicable proxy at every
// entry point; a stalled proxy still ends in the stable error (and `{}` for the Hook).
// `context.test` is never resolved in DNS: it is only ever sent through the proxy, or decided
// without a request.
//
// Every routing row runs on the executable, through each entry point. What the runtimes route
// themselves (src/runtime/fetch-*.ts behind providers/outbound.ts) runs on Bun, Node.js and Deno
// in one process each in test/runtime/outbound-matrix.test.ts; here each bundle keeps its one
// end-to-end row (check --search to a loopback provider with every proxy variable dead), and
// Node.js its refusal at every entry point, which only Node.js can show.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startFakeServer } from '../fakes/fake-server.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { startMcpServer, type TestServer } from '../gateway/mcp-test-server.ts';
import { startForwardProxy, type ForwardProxy } from '../services/forward-proxy.ts';
import { createTestCertificates, opensslAvailable, type TestCertificates } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exeLauncher, type Launcher, launcher, nodeLauncher, RUNTIME_IDS } from '../support/launchers.ts';
import { runProcess, type ProcessResult } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { proves } from '../support/runtime-capabilities.ts';

const REFUSAL = 'Proxy environment variables are not supported on this runtime; use the standalone executable or Deno.';
const TIMEOUT_LINE = 'external-context: context_search failed: timeout\n';
const KEY = CANARY.credential;
const MEMORY = { id: 'mem-1', memory: 'Use the reviewed deployment workflow.', user_id: 'u1' };
/** Liveness bound of a Hook behind a stalled proxy (hooks.md §2.7: under 8 s). */

const ROUTING_PROOF = proves('fetch-routing', ['executable']);
const END_TO_END = proves('outbound-end-to-end', ['executable', 'node-bundle', 'deno-bundle']);
const REFUSAL_PROOF = proves('proxy-refusal', ['node-bundle']);
const DEADLINE_PROOF = proves('deadlines', ['executable']);
// The executable's exit codes (check 0 and 1) and its MCP over stdio (serve, with
// stderr checked empty) are proved by the rows below; the bundles' by test/bundle/bundle-smoke.ts.
const EXIT_CODES = proves('exit-codes', ['executable']);
const STDIO = proves('stdin-stdout', ['executable']);
/** The routing rows: the executable (the bundles run them in test/runtime/outbound-matrix.test.ts). */
const ROUTING = (): Launcher[] => [exeLauncher()];
const EXECUTABLE = ROUTING;

let certs: TestCertificates;
let mem0: Mem0ServerFake;
let tls: TlsTerminator;
let proxy: ForwardProxy;
let stalled: ForwardProxy;
let mcp: TestServer;
let mcpTls: TlsTerminator;
let gatewayProxy: ForwardProxy;
let deadPort: number;
let root: string;
const files: Record<string, string> = {};

/** A version 1 (or 2) `mem0` server-rest configuration for one origin, writes on for version 1. */
/** The provider timeout of the stalled and proxied configurations. */
const STALL_TIMEOUT_MS = 5000;

function mem0Config(origin: string, version: 1 | 2, timeoutMs?: number, write = true): Record<string, unknown> {
  const provider = {
    type: 'mem0',
    preset: 'mem0-server-rest-2026-08',
    endpoint: { origin, ...(origin.startsWith('http://127.0.0.1') ? {} : { allowInsecureHttp: true }) },
    credentialEnv: 'MEM0_KEY',
    scope: { userId: 'u1' },
  };
  return version === 1
    ? { version: 1, ...(timeoutMs === undefined ? {} : { timeoutMs }), provider, ...(write ? { write: { enabled: true } } : {}) }
    : { version: 2, provider, autoRecall: { repositoryRoot: root, timeoutMs: timeoutMs ?? 5000 } };
}

beforeAll(async () => {
  if (!opensslAvailable()) throw new Error('The proxy matrix needs the openssl command (test CA for https://context.test).');
  certs = await createTestCertificates();
  mem0 = await startMem0ServerFake({ apiKey: KEY, memories: [MEMORY] });
  tls = await startTlsTerminator(certs.trusted, mem0.port);
  proxy = await startForwardProxy({ upstreams: { 'context.test:8080': mem0.origin }, tunnels: { 'context.test:443': tls.port } });
  stalled = await startForwardProxy({ stall: true });
  mcp = startMcpServer({ tools: [{ name: 'search', description: 'Search.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
  mcpTls = await startTlsTerminator(certs.trusted, Number(new URL(mcp.url).port));
  gatewayProxy = await startForwardProxy({ tunnels: { 'context.test:443': mcpTls.port } });
  const dead = await startFakeServer();
  deadPort = dead.port;
  await dead.close();
  const dir = await makeTempDir('ec-proxy-matrix-');
  root = path.join(dir.path, 'repo');
  mkdirSync(root);
  const write = async (name: string, config: unknown): Promise<void> => {
    files[name] = await writeConfigFile(config, { dir: dir.path, name: `${name}.json` });
  };
  await write('http', mem0Config('http://context.test:8080', 1));
  await write('https', mem0Config('https://context.test', 1));
  await write('httpV2', mem0Config('http://context.test:8080', 2));
  // Timeouts that a loaded machine meets before the request reaches the proxy (issue 25 §1: at
  // 500 ms one runtime's deadline passed before its request arrived). The stalled proxy never
  // answers, so each stalled case still ends by its timeout.
  await write('httpsV2', mem0Config('https://context.test', 2, STALL_TIMEOUT_MS));
  await write('stalledHttp', mem0Config('http://context.test:8080', 1, STALL_TIMEOUT_MS));
  await write('loop', mem0Config(mem0.origin, 1));
  await write('httpReadOnly', mem0Config('http://context.test:8080', 1, undefined, false));
  await write('loopReadOnly', mem0Config(mem0.origin, 1, undefined, false));
  await write('loopV2', mem0Config(mem0.origin, 2));
  await write('otherHost', mem0Config(`http://127.0.0.2:${deadPort}`, 1, 2000));
  const gateway = (url: string) => ({ version: 1, servers: { docs: { enabled: true, url, tools: { search: { enabled: true, readOnly: true } } } } });
  await write('gatewayRemote', gateway('https://context.test/mcp'));
  await write('gatewayLoop', gateway(mcp.url));
});
afterAll(async () => {
  for (const closable of [proxy, stalled, gatewayProxy, tls, mcpTls, mem0]) await closable?.close();
  await mcp?.close();
  await certs?.remove();
  await removeTempDirs();
});
beforeEach(() => {
  mem0.reset();
  for (const forward of [proxy, stalled, gatewayProxy]) forward.requests.length = 0;
});

/**
 * The environment of a run: the credential, the test CA for every runtime, and `extra`.
 * `DENO_NO_UPDATE_CHECK`: Deno itself would otherwise open `CONNECT dl.deno.land:443` through
 * the proxy in the background (the runtime's update check, not the product's traffic).
 */
function env(extra: Record<string, string | undefined> = {}): Record<string, string> {
  return cleanEnv({ MEM0_KEY: KEY, NODE_EXTRA_CA_CERTS: certs.caCertPath, DENO_CERT: certs.caCertPath, DENO_NO_UPDATE_CHECK: '1', ...extra });
}
const viaProxy = (url: string): Record<string, string> => ({ HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url });

function run(launcher: Launcher, args: readonly string[], runEnv: Record<string, string>, stdin?: string): Promise<ProcessResult> {
  return runProcess(launcher.command, [...launcher.args, ...args], { env: runEnv, ...(stdin === undefined ? {} : { stdin }), cwd: root, timeoutMs: LIVENESS_MS });
}

const prompt = (): string => JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'deployment policy', cwd: root });
const requestLines = (forward: ForwardProxy): string[] => forward.requests.map((request) => `${request.method} ${request.target}`);
const labelled = (launcher: Launcher, value: Record<string, unknown>): Record<string, unknown> => ({ launcher: launcher.label, ...value });

describe(`the executable routes through the forward proxy ${ROUTING_PROOF('executable')}`, () => {
  test('http://context.test:8080 with allowInsecureHttp: one absolute-form request line (check --search)', async () => {
    for (const launcher of ROUTING()) {
      mem0.reset();
      proxy.requests.length = 0;
      const result = await run(launcher, ['check', '--config', files['http'] as string, '--search', 'deployment policy'], env(viaProxy(proxy.url)));
      expect(labelled(launcher, { code: result.code, stderr: result.stderr })).toEqual(labelled(launcher, { code: 0, stderr: '' }));
      expect(result.stdout).toContain('  proxy: proxied\n');
      expect(result.stdout).toContain(MEMORY.memory);
      expect(labelled(launcher, { lines: requestLines(proxy) })).toEqual(labelled(launcher, { lines: ['POST http://context.test:8080/search'] }));
      expect(mem0.requests).toHaveLength(1);
      expect(mem0.requests[0]?.headers['x-api-key']).toBe(KEY);
      // The provider credential goes to the provider, never as a proxy credential.
      expect(proxy.requests[0]?.headers['proxy-authorization']).toBeUndefined();
    }
  });

  test('https://context.test: the proxy receives CONNECT context.test:443 and the tunnelled TLS search succeeds', async () => {
    for (const launcher of ROUTING()) {
      mem0.reset();
      proxy.requests.length = 0;
      const result = await run(launcher, ['check', '--config', files['https'] as string, '--search', 'deployment policy'], env(viaProxy(proxy.url)));
      expect(labelled(launcher, { code: result.code, stderr: result.stderr })).toEqual(labelled(launcher, { code: 0, stderr: '' }));
      expect(result.stdout).toContain(MEMORY.memory);
      expect(labelled(launcher, { lines: requestLines(proxy) })).toEqual(labelled(launcher, { lines: ['CONNECT context.test:443'] }));
      expect(mem0.requests).toHaveLength(1);
    }
  });

  test(`serve: context_search and context_remember both go through the proxy, one request each ${STDIO('executable')}`, async () => {
    for (const launcher of ROUTING()) {
      mem0.reset();
      proxy.requests.length = 0;
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['http'] as string], env(viaProxy(proxy.url)));
      try {
        const search = await server.client.callTool({ name: 'context_search', arguments: { query: 'deployment policy' } });
        expect(labelled(launcher, { isError: search.isError })).toEqual(labelled(launcher, { isError: undefined }));
        const remember = await server.client.callTool({ name: 'context_remember', arguments: { content: 'Deploy on Tuesdays.' } });
        expect(labelled(launcher, { isError: remember.isError })).toEqual(labelled(launcher, { isError: undefined }));
        expect(JSON.stringify(remember.content)).toContain('stored');
      } finally {
        await server.close();
      }
      expect(labelled(launcher, { lines: requestLines(proxy) })).toEqual(labelled(launcher, { lines: ['POST http://context.test:8080/search', 'POST http://context.test:8080/memories'] }));
      expect(server.stderr()).toBe('');
    }
  });

  test('hook auto-recall: the context arrives through the proxy in one request (executable)', async () => {
    for (const launcher of EXECUTABLE()) {
      mem0.reset();
      proxy.requests.length = 0;
      const result = await run(launcher, ['hook', 'auto-recall', '--config', files['httpV2'] as string], env(viaProxy(proxy.url)), prompt());
      expect(labelled(launcher, { code: result.code, stderr: result.stderr })).toEqual(labelled(launcher, { code: 0, stderr: '' }));
      expect(result.stdout).toContain('additionalContext');
      expect(requestLines(proxy)).toEqual(['POST http://context.test:8080/search']);
    }
  });

  test('probe --config: every probe request goes through the proxy in absolute form (executable)', async () => {
    for (const launcher of EXECUTABLE()) {
      mem0.reset();
      proxy.requests.length = 0;
      const result = await run(launcher, ['probe', '--config', files['http'] as string, '--json'], env(viaProxy(proxy.url)));
      expect(labelled(launcher, { validationFailure: result.code === 2, stderr: result.stderr })).toEqual(labelled(launcher, { validationFailure: false, stderr: '' }));
      const lines = requestLines(proxy);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.every((line) => /^(GET|POST) http:\/\/context\.test:8080\//.test(line))).toBe(true);
      expect(mem0.requests).toHaveLength(lines.length);
      expectNoCanary(result.stdout + result.stderr);
    }
  });

  test('gateway discover: the MCP connection to https://context.test/mcp is tunnelled with CONNECT', async () => {
    for (const launcher of ROUTING()) {
      gatewayProxy.requests.length = 0;
      const result = await run(launcher, ['gateway', 'discover', '--config', files['gatewayRemote'] as string, '--json'], env(viaProxy(gatewayProxy.url)));
      expect(labelled(launcher, { code: result.code })).toEqual(labelled(launcher, { code: 0 }));
      expect(result.stdout).toContain('"status": "ready"');
      const lines = requestLines(gatewayProxy);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((line) => line === 'CONNECT context.test:443')).toBe(true);
    }
  });
});

describe('NO_PROXY bypasses the proxy', () => {
  test('a ".test" entry: check reports both context.test origins as direct, and the proxy sees nothing', async () => {
    // Each spelling for both schemes is the decision, which test/runtime/outbound-matrix.test.ts
    // runs on every runtime; here check reports it for each origin once.
    const pairs = [
      ['http', 'NO_PROXY'],
      ['https', 'no_proxy'],
    ] as const;
    for (const launcher of ROUTING()) {
      for (const [name, variable] of pairs) {
        const result = await run(launcher, ['check', '--config', files[name] as string], env({ ...viaProxy(proxy.url), [variable]: '.test' }));
        expect(labelled(launcher, { name, variable, code: result.code })).toEqual(labelled(launcher, { name, variable, code: 0 }));
        expect(result.stdout).toContain('  proxy: direct\n');
      }
    }
    expect(proxy.requests).toEqual([]);
  });

  test(`a listed host is fetched directly at run time (an unreachable non-loopback address), an unlisted one through the proxy: check exits 1 ${EXIT_CODES('executable')}`, async () => {
    for (const launcher of ROUTING()) {
      proxy.requests.length = 0;
      const bypassed = await run(launcher, ['check', '--config', files['otherHost'] as string, '--search', 'q'], env({ ...viaProxy(proxy.url), NO_PROXY: 'example.com, 127.0.0.2' }));
      // Fetched directly, so never proxy-failure: whatever the unreachable address answers.
      expect(labelled(launcher, { code: bypassed.code, stderr: bypassed.stderr })).toEqual(
        labelled(launcher, { code: 1, stderr: expect.stringMatching(/^external-context: context_search failed: (connection-refused|timeout|connection-reset)\n$/) as unknown as string }),
      );
      expect(proxy.requests).toEqual([]);
      const routed = await run(launcher, ['check', '--config', files['otherHost'] as string, '--search', 'q'], env({ ...viaProxy(proxy.url), NO_PROXY: 'example.com' }));
      // The proxy has no upstream for it and answers 502: the request did reach the proxy.
      expect(labelled(launcher, { code: routed.code, stderr: routed.stderr })).toEqual(labelled(launcher, { code: 1, stderr: 'external-context: context_search failed: http-status 502\n' }));
      expect(requestLines(proxy)).toEqual([`POST http://127.0.0.2:${deadPort}/search`]);
    }
  });
});

describe('loopback providers go direct while HTTP_PROXY points at a dead port, on every runtime', () => {
  const dead = (): Record<string, string> => ({ ...viaProxy(`http://127.0.0.1:${deadPort}`), ALL_PROXY: `http://127.0.0.1:${deadPort}`, NO_PROXY: '' });

  // The one end-to-end row per runtime behind the outbound batch: check --search through the
  // shipped build; the executable also runs the Hook and probe.
  for (const id of RUNTIME_IDS) {
    test(`check --search reaches the loopback fake directly${id === 'executable' ? ', and so do hook auto-recall and probe' : ''} ${END_TO_END(id)}`, async () => {
      const runtime = launcher(id);
      mem0.reset();
      const check = await run(runtime, ['check', '--config', files['loop'] as string, '--search', 'deployment policy'], env(dead()));
      expect(labelled(runtime, { code: check.code, stderr: check.stderr })).toEqual(labelled(runtime, { code: 0, stderr: '' }));
      expect(check.stdout).toContain('  proxy: direct\n');
      expect(check.stdout).toContain(MEMORY.memory);
      if (id !== 'executable') {
        expect(labelled(runtime, { requests: mem0.requests.length })).toEqual(labelled(runtime, { requests: 1 }));
        return;
      }
      const hook = await run(runtime, ['hook', 'auto-recall', '--config', files['loopV2'] as string], env(dead()), prompt());
      expect(labelled(runtime, { code: hook.code, stderr: hook.stderr })).toEqual(labelled(runtime, { code: 0, stderr: '' }));
      expect(hook.stdout).toContain('additionalContext');
      const probe = await run(runtime, ['probe', '--config', files['loop'] as string], env(dead()));
      expect(labelled(runtime, { validationFailure: probe.code === 2, stderr: probe.stderr })).toEqual(labelled(runtime, { validationFailure: false, stderr: '' }));
      expect(mem0.requests.length).toBeGreaterThan(2);
    });
  }

  test('serve: context_search reaches the loopback fake directly (executable)', async () => {
    for (const launcher of EXECUTABLE()) {
      mem0.reset();
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['loop'] as string], env(dead()));
      try {
        const result = await server.client.callTool({ name: 'context_search', arguments: { query: 'deployment policy' } });
        expect(labelled(launcher, { isError: result.isError })).toEqual(labelled(launcher, { isError: undefined }));
        expect(JSON.stringify(result.structuredContent)).toContain(MEMORY.memory);
      } finally {
        await server.close();
      }
      expect(mem0.requests).toHaveLength(1);
    }
  });

  test('gateway discover reaches a loopback MCP server directly (executable)', async () => {
    for (const launcher of EXECUTABLE()) {
      const result = await run(launcher, ['gateway', 'discover', '--config', files['gatewayLoop'] as string, '--json'], env(dead()));
      expect(labelled(launcher, { code: result.code })).toEqual(labelled(launcher, { code: 0 }));
      expect(result.stdout).toContain('"status": "ready"');
    }
  });
});

describe(`Node.js refuses an applicable proxy at every entry point ${REFUSAL_PROOF('node-bundle')}`, () => {
  const node = (): Launcher => nodeLauncher();
  const refusedLine = `[external-context] ${REFUSAL}\n`;

  // Which variable applies (http or https target) is pure and runs on the executable; each
  // entry point's refusal runs once.
  test('serve and check exit 1 with the exact message', async () => {
    for (const [name, command] of [
      ['https', 'serve'],
      ['http', 'check'],
    ] as const) {
      const result = await run(node(), [command, '--config', files[name] as string], env(viaProxy(proxy.url)));
      expect({ name, command, code: result.code, stderr: result.stderr }).toEqual({ name, command, code: 1, stderr: refusedLine });
      // check also prints its checklist, whose configuration item carries the same message.
      if (command === 'serve') expect(result.stdout).toBe('');
      else expect(result.stdout).toContain(`\n  fail  configuration: ${REFUSAL}\n`);
    }
    expect(proxy.requests).toEqual([]);
  });

  test('serve --http exits 1 for the provider target and for a proxied --jwks-url', async () => {
    const listen = ['--listen', '127.0.0.1:0'];
    const provider = await run(node(), ['serve', '--http', '--config', files['httpReadOnly'] as string, ...listen, '--insecure-no-auth'], env(viaProxy(proxy.url)));
    expect({ code: provider.code, stderr: provider.stderr }).toEqual({ code: 1, stderr: refusedLine });
    const jwks = await run(
      node(),
      [
        'serve',
        '--http',
        '--config',
        files['loopReadOnly'] as string,
        ...listen,
        '--resource',
        'http://127.0.0.1:1/mcp',
        '--issuer',
        'https://issuer.example',
        '--jwks-url',
        'https://context.test/jwks',
      ],
      env(viaProxy(proxy.url)),
    );
    expect({ code: jwks.code, stderr: jwks.stderr }).toEqual({ code: 1, stderr: refusedLine });
  });

  test('gateway discover and gateway call exit 1, probe exits 2, conformance --url exits 2', async () => {
    const discover = await run(node(), ['gateway', 'discover', '--config', files['gatewayRemote'] as string], env(viaProxy(proxy.url)));
    expect({ code: discover.code, stdout: discover.stdout, stderr: discover.stderr }).toEqual({ code: 1, stdout: '', stderr: refusedLine });
    const call = await run(node(), ['gateway', 'call', 'mcp__docs__search', '--config', files['gatewayRemote'] as string], env(viaProxy(proxy.url)));
    expect({ code: call.code, stdout: call.stdout, stderr: call.stderr }).toEqual({ code: 1, stdout: '', stderr: refusedLine });
    for (const args of [
      ['probe', '--config', files['http'] as string],
      ['probe', '--preset', 'mem0-server-rest-2026-08', '--origin', 'https://context.test', '--user-id', 'u1', '--credential-env', 'MEM0_KEY'],
    ]) {
      const probe = await run(node(), args, env(viaProxy(proxy.url)));
      expect({ args, code: probe.code, stdout: probe.stdout, stderr: probe.stderr }).toEqual({ args, code: 2, stdout: '', stderr: refusedLine });
    }
    const conformance = await run(node(), ['conformance', '--url', 'https://context.test/mcp'], env(viaProxy(proxy.url)));
    expect({ code: conformance.code, stderr: conformance.stderr }).toEqual({ code: 2, stderr: refusedLine });
    expect(proxy.requests).toEqual([]);
  });

  test('the auto-recall Hook answers {} with empty stderr', async () => {
    const result = await run(node(), ['hook', 'auto-recall', '--config', files['httpsV2'] as string], env(viaProxy(proxy.url)), prompt());
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 0, stdout: '{}', stderr: '' });
    expect(proxy.requests).toEqual([]);
  });

  // Which environments refuse (Node's own environment-proxy mode, even for a loopback target)
  // and which lift the refusal (NO_PROXY) is the decision, which the Node.js driver of
  // test/runtime/outbound-matrix.test.ts runs; the rows above show each entry point's answer.
});

describe(`a stalled proxy still ends in the stable error ${DEADLINE_PROOF('executable')}`, () => {
  test('check --search: exit 1 and exactly the did-not-complete operator line', async () => {
    const runs = await Promise.all(
      ROUTING().map(async (launcher) => ({
        launcher,
        result: await run(launcher, ['check', '--config', files['stalledHttp'] as string, '--search', 'deployment policy'], env(viaProxy(stalled.url))),
      })),
    );
    for (const { launcher, result } of runs) {
      expect(labelled(launcher, { code: result.code, stderr: result.stderr, timedOut: result.timedOut })).toEqual(labelled(launcher, { code: 1, stderr: TIMEOUT_LINE, timedOut: false }));
      expect(result.stdout).toContain('External context search failed.');
    }
    expect(requestLines(stalled)).toEqual(['POST http://context.test:8080/search']);
  });

  test('hook auto-recall behind a stalled CONNECT answers {} and exits 0 (liveness)', async () => {
    // The CONNECT is never answered, so exiting at all is the timeout's doing; the suite's hang
    // guard (runProcess) is the only bound on how long that takes.
    const runs = await Promise.all(
      ROUTING().map(async (launcher) => ({ launcher, result: await run(launcher, ['hook', 'auto-recall', '--config', files['httpsV2'] as string], env(viaProxy(stalled.url)), prompt()) })),
    );
    for (const { launcher, result } of runs) {
      expect(labelled(launcher, { code: result.code, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut })).toEqual(
        labelled(launcher, { code: 0, stdout: '{}', stderr: '', timedOut: false }),
      );
    }
    expect(requestLines(stalled)).toEqual(['CONNECT context.test:443']);
  });

  test('serve: context_search gives the stable error text and one operator line (executable)', async () => {
    for (const launcher of EXECUTABLE()) {
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['stalledHttp'] as string], env(viaProxy(stalled.url)));
      try {
        const result = await server.client.callTool({ name: 'context_search', arguments: { query: 'deployment policy' } });
        expect(labelled(launcher, { isError: result.isError, content: result.content })).toEqual(
          labelled(launcher, { isError: true, content: [{ type: 'text', text: 'External context search failed.' }] }),
        );
      } finally {
        await server.close();
      }
      expect(server.stderr()).toBe(TIMEOUT_LINE);
    }
  });
});
