// Failure classes for real (issue 14 item 1, docs/design/providers.md §1.6): every loopback fault
// gives its own operator line through the executable's `check --search`, while the model-facing
// text stays `External context search failed.` and check's search item names the class and its
// hint — and no line carries a credential, query or body. The classes come from each runtime's
// rejection (src/runtime/fetch-failure.ts): Bun, Node.js and Deno each run every fault in one
// process in test/runtime/outbound-matrix.test.ts (failure-classes); these rows are the
// executable's entry point. Each fault has its own server and configuration file and no case
// counts requests, so the cases run side by side: most of the file is waiting (timeouts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startSilentServer } from '../fakes/silent-server.ts';
import { createTestCertificates, opensslTier, type TestCertificates } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exeLauncher, launchers as launcherRows } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { registerToolGate } from '../support/tool-tier.ts';

const LINE = 'external-context: context_search failed:';

interface Launcher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly runtime: 'bun' | 'node' | 'deno';
  /** How this runtime is told to trust the test CA. */
  readonly trust: (caPath: string) => Record<string, string>;
}

const FAILURES = proves('failure-classes', ['executable']);

function launchers(): Launcher[] {
  return [{ ...exeLauncher(), runtime: 'bun', trust: (ca) => ({ NODE_EXTRA_CA_CERTS: ca }) }];
}

/**
 * The rows of the serve --http log: the executable only. Each runtime's rejection gets its class
 * in test/runtime/outbound-matrix.test.ts (failure-classes) and each runtime's server parses
 * requests in test/e2e/raw-http.test.ts (http-listen); the log line is the same code everywhere.
 */
function logRows(): Launcher[] {
  return launcherRows(['executable']).map((row) => ({ ...row, runtime: row.engine, trust: () => ({}) }));
}

/** A port that was just bound and released, so nothing listens on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const openssl = opensslTier('TLS failure classes');
registerToolGate(openssl);

let certs: TestCertificates;
let resetting: FakeServer;
let upstream: FakeServer;
let silent: { port: number; close(): Promise<void> };
let untrusted: TlsTerminator;
let mismatched: TlsTerminator;
let dir: string;
let deadPort: number;

beforeAll(async () => {
  dir = (await makeTempDir('ec-failure-classes-')).path;
  resetting = await startFakeServer();
  resetting.override({ kind: 'reset-before-headers' });
  upstream = await startFakeServer({ handler: () => ({ status: 200, json: { items: [] } }) });
  silent = await startSilentServer();
  deadPort = await closedPort();
  if (openssl.missing !== undefined) return;
  certs = await createTestCertificates();
  untrusted = await startTlsTerminator(certs.untrusted, upstream.port);
  mismatched = await startTlsTerminator(certs.mismatched, upstream.port);
});
afterAll(async () => {
  await untrusted?.close();
  await mismatched?.close();
  await certs?.remove();
  await silent?.close();
  await resetting?.close();
  await upstream?.close();
  await removeTempDirs();
});

/**
 * A configuration file for one fault. `timeoutMs` is 1500 for the server that never answers (the
 * timeout class waits it out) and 10000 elsewhere: a deadline no other fault comes near even with
 * every runtime of every case starting at once, so it never decides their class.
 */
async function config(name: string, baseUrl: string, timeoutMs = 10_000): Promise<string> {
  return writeConfigFile({ version: 1, timeoutMs, provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: 'TOKEN' } }, { dir, name: `${name}.json` });
}

async function expectClass(launcher: Launcher, file: string, expected: string, extraEnv: Record<string, string> = {}): Promise<void> {
  const env = cleanEnv({ TOKEN: CANARY.credential, DENO_NO_UPDATE_CHECK: '1', ...extraEnv });
  const result = await runProcess(launcher.command, [...launcher.args, 'check', '--config', file, '--search', CANARY.query], { env });
  expect({ launcher: launcher.label, code: result.code, stderr: result.stderr }).toEqual({
    launcher: launcher.label,
    code: 1,
    stderr: `${LINE} ${expected}\n`,
  });
  // The model-facing text is unchanged; check's search item names the class and its hint.
  expect(result.stdout).toContain('\nExternal context search failed.\n\nChecklist:\n');
  expect(result.stdout).toMatch(new RegExp(`\\n {2}fail {2}search: Failed after \\d+ ms: ${expected}\\.\\n {8}hint: \\S`, 'u'));
  expectNoCanary(result.stdout + result.stderr);
}

describe.concurrent(`failure classes through the executable (real loopback faults) ${FAILURES('executable')}`, () => {
  test('closed port → connection-refused', async () => {
    const file = await config('refused', `http://127.0.0.1:${deadPort}`);
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'connection-refused')));
  });

  test('connection reset before any header → connection-reset', async () => {
    const file = await config('reset', resetting.origin);
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'connection-reset')));
  });

  test('a server that never answers → timeout', async () => {
    const file = await config('stall', `http://127.0.0.1:${silent.port}`, 1500);
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'timeout')));
  });

  test('an unresolvable .invalid name → dns-failure', async () => {
    const file = await config('dns', 'https://external-context-test.invalid');
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'dns-failure')));
  });

  test('a dead proxy → proxy-failure naming HTTPS_PROXY', async () => {
    const file = await config('proxy', 'https://context.test');
    const proxied = launchers().filter((entry) => entry.runtime !== 'node');
    await Promise.all(proxied.map((launcher) => expectClass(launcher, file, 'proxy-failure HTTPS_PROXY', { HTTPS_PROXY: `http://proxy-user:${CANARY.credential}@127.0.0.1:${deadPort}` })));
  });
});

describe.concurrent.skipIf(openssl.missing !== undefined)(`TLS failure classes through the executable (needs the openssl command) ${FAILURES('executable')}`, () => {
  test('a certificate from a CA the runtime does not trust → tls-untrusted-certificate', async () => {
    const file = await config('untrusted', untrusted.origin);
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'tls-untrusted-certificate')));
  });

  test('a trusted certificate for another name → tls-hostname-mismatch', async () => {
    const file = await config('mismatch', mismatched.origin);
    await Promise.all(launchers().map((launcher) => expectClass(launcher, file, 'tls-hostname-mismatch', launcher.trust(certs.caCertPath))));
  });

  test('plain HTTP where HTTPS is expected → tls-failure or connection-reset, never a certificate class', async () => {
    const file = await config('no-tls', `https://localhost:${upstream.port}`);
    await Promise.all(
      launchers().map(async (launcher) => {
        const env = cleanEnv({ TOKEN: CANARY.credential, DENO_NO_UPDATE_CHECK: '1' });
        const result = await runProcess(launcher.command, [...launcher.args, 'check', '--config', file, '--search', CANARY.query], { env });
        expect({ launcher: launcher.label, stderr: result.stderr }).toEqual({
          launcher: launcher.label,
          stderr: expect.stringMatching(/^external-context: context_search failed: (tls-failure|connection-reset)\n$/) as unknown as string,
        });
      }),
    );
  });
});

// serve --http's stderr on each runtime row (remote.md's list of proofs names this file): the
// classes under it are the outbound batch's.
describe('serve --http operator log on every runtime (remote.md §1.10)', () => {
  /** Starts serve --http, sends one tools/call, stops it with SIGTERM and returns its stderr. */
  async function logOf(launcher: Launcher, file: string): Promise<string> {
    const child = spawn(launcher.command, [...launcher.args, 'serve', '--http', '--config', file, '--listen', '127.0.0.1:0', '--insecure-no-auth'], {
      env: cleanEnv({ TOKEN: CANARY.credential, DENO_NO_UPDATE_CHECK: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('\n')) resolve(out.trim());
      });
      void exited.then(() => reject(new Error(`serve --http exited early: ${stderr}`)));
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context_search', arguments: { query: CANARY.query } } }),
    });
    await response.text();
    child.kill('SIGTERM');
    await exited;
    return stderr;
  }

  test('a closed provider port: the startup line, the operator line and a provider-connection-refused request line', async () => {
    const file = await config('serve-refused', `http://127.0.0.1:${deadPort}`);
    const logs = await Promise.all(logRows().map(async (launcher) => ({ launcher, log: await logOf(launcher, file) })));
    for (const { launcher, log } of logs) {
      const lines = log.trimEnd().split('\n');
      expect({ launcher: launcher.label, lines: lines.length }).toEqual({ launcher: launcher.label, lines: 3 });
      expect(JSON.parse(lines[0] as string)).toMatchObject({ event: 'listening', resource: null, auth: 'none' });
      // JSON mode: the operator line is a JSON object too, so every stderr line parses.
      expect(JSON.parse(lines[1] as string)).toMatchObject({ event: 'operator', message: `${LINE.replace(/^external-context: /u, '')} connection-refused` });
      expect(JSON.parse(lines[2] as string)).toMatchObject({ status: 200, outcome: 'provider-connection-refused' });
      expectNoCanary(lines.join('\n'));
    }
  });
});
