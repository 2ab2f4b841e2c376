// Real TLS on loopback (issue 11): an HTTPS provider on 127.0.0.1, addressed as
// https://localhost:<port>, with a certificate from a test CA generated at test time. Trusted
// through NODE_EXTRA_CA_CERTS, search, Hook and write succeed on the executable; an untrusted
// certificate, or the CA not given, fails closed with the stable error, one operator line, `{}`
// for the Hook and `unknown` for a write. These rows run the executable's entry points. Trust
// and the failure class are per process and per runtime (src/runtime/fetch-*.ts,
// fetch-failure.ts): Bun, Node.js (NODE_EXTRA_CA_CERTS) and Deno (DENO_CERT, `deno run --cert`)
// each run them in one process in test/runtime/outbound-matrix.test.ts (tls-trust), with the
// NODE_TLS_REJECT_UNAUTHORIZED regression and each runtime's stderr checked empty.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { createTestCertificates, opensslTier, type TestCertificates } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const KEY = CANARY.credential;
const MEMORY = { id: 'mem-1', memory: 'Releases are signed on loopback TLS.', user_id: 'u1' };
const UNTRUSTED_LINE = 'external-context: context_search failed: tls-untrusted-certificate\n';
const UNKNOWN_WRITE = '{"status":"unknown","message":"The provider may have accepted the memory. Do not retry automatically."}';

const TLS = proves('tls-trust', ['executable']);

interface Launcher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /** How this runtime is told to trust the test CA. */
  readonly trust: (caPath: string) => Record<string, string>;
}

function launchers(): Launcher[] {
  return [{ ...exeLauncher(), trust: (ca) => ({ NODE_EXTRA_CA_CERTS: ca }) }];
}

let certs: TestCertificates;
let mem0: Mem0ServerFake;
let trusted: TlsTerminator;
let untrusted: TlsTerminator;
let root: string;
const files: Record<string, string> = {};

const openssl = opensslTier('HTTPS provider with a test CA');
registerToolGate(openssl);

beforeAll(async () => {
  if (openssl.missing !== undefined) return; // the describe below is skipped, or fails under CI=true
  certs = await createTestCertificates();
  mem0 = await startMem0ServerFake({ apiKey: KEY, memories: [MEMORY] });
  trusted = await startTlsTerminator(certs.trusted, mem0.port);
  untrusted = await startTlsTerminator(certs.untrusted, mem0.port);
  const dir = await makeTempDir('ec-tls-e2e-');
  root = dir.path;
  const provider = (origin: string) => ({
    type: 'mem0',
    preset: 'mem0-server-rest-2026-08',
    endpoint: { origin },
    credentialEnv: 'MEM0_KEY',
    scope: { userId: 'u1' },
  });
  for (const [name, server] of [
    ['trusted', trusted],
    ['untrusted', untrusted],
  ] as const) {
    files[name] = await writeConfigFile({ version: 1, provider: provider(server.origin), write: { enabled: true } }, { dir: root, name: `${name}.json` });
    files[`${name}V2`] = await writeConfigFile({ version: 2, provider: provider(server.origin), autoRecall: { repositoryRoot: root } }, { dir: root, name: `${name}-v2.json` });
  }
});
afterAll(async () => {
  await trusted?.close();
  await untrusted?.close();
  await mem0?.close();
  await certs?.remove();
  await removeTempDirs();
});
beforeEach(() => mem0?.reset());

const env = (extra: Record<string, string> = {}): Record<string, string> => cleanEnv({ MEM0_KEY: KEY, DENO_NO_UPDATE_CHECK: '1', ...extra });
const prompt = (): string => JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'release signing', cwd: root });
const run = (launcher: Launcher, args: readonly string[], runEnv: Record<string, string>, stdin?: string) =>
  runProcess(launcher.command, [...launcher.args, ...args], { env: runEnv, ...(stdin === undefined ? {} : { stdin }) });

describe.skipIf(openssl.missing !== undefined)(`HTTPS provider on loopback with a test CA (needs the openssl command) ${TLS('executable')}`, () => {
  test('trusted: check --search, the auto-recall Hook and a context_remember write succeed', async () => {
    for (const launcher of launchers()) {
      mem0.reset();
      const trust = env(launcher.trust(certs.caCertPath));
      const check = await run(launcher, ['check', '--config', files['trusted'] as string, '--search', 'release signing'], trust);
      expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({ launcher: launcher.label, code: 0, stderr: '' });
      expect(check.stdout).toContain(MEMORY.memory);
      expect(check.stdout).toContain(`  origin: ${trusted.origin}\n`);
      const hook = await run(launcher, ['hook', 'auto-recall', '--config', files['trustedV2'] as string], trust, prompt());
      expect({ launcher: launcher.label, code: hook.code, stderr: hook.stderr }).toEqual({ launcher: launcher.label, code: 0, stderr: '' });
      expect(hook.stdout).toContain('additionalContext');
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['trusted'] as string], trust);
      try {
        const write = await server.client.callTool({ name: 'context_remember', arguments: { content: 'Sign every release.' } });
        expect({ launcher: launcher.label, isError: write.isError }).toEqual({ launcher: launcher.label, isError: undefined });
        expect(JSON.stringify(write.content)).toContain('stored');
      } finally {
        await server.close();
      }
      expect(mem0.requests).toHaveLength(3);
    }
    expect(trusted.handshakeFailures()).toBe(0);
  });

  test('untrusted certificate: the stable error, one operator line, {} from the Hook, unknown for a write', async () => {
    for (const launcher of launchers()) {
      const trust = env(launcher.trust(certs.caCertPath));
      const before = untrusted.connections();
      const check = await run(launcher, ['check', '--config', files['untrusted'] as string, '--search', 'release signing'], trust);
      expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({ launcher: launcher.label, code: 1, stderr: UNTRUSTED_LINE });
      expect(check.stdout).toContain('\nExternal context search failed.\n\nChecklist:\n');
      expect(check.stdout).toMatch(/\n {2}fail {2}search: Failed after \d+ ms: tls-untrusted-certificate\.\n {8}hint: The certificate is not signed by a trusted CA: /u);
      const hook = await run(launcher, ['hook', 'auto-recall', '--config', files['untrustedV2'] as string], trust, prompt());
      expect({ launcher: launcher.label, code: hook.code, stdout: hook.stdout, stderr: hook.stderr }).toEqual({ launcher: launcher.label, code: 0, stdout: '{}', stderr: '' });
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', files['untrusted'] as string], trust);
      try {
        const search = await server.client.callTool({ name: 'context_search', arguments: { query: 'release signing' } });
        expect(search).toEqual({ content: [{ type: 'text', text: 'External context search failed.' }], isError: true });
        const write = await server.client.callTool({ name: 'context_remember', arguments: { content: 'Sign every release.' } });
        expect({ launcher: launcher.label, write }).toEqual({ launcher: launcher.label, write: { content: [{ type: 'text', text: UNKNOWN_WRITE }], isError: true } });
      } finally {
        await server.close();
      }
      expect(server.stderr()).toBe(`${UNTRUSTED_LINE}external-context: context_remember unknown: tls-untrusted-certificate\n`);
      // One connection per request, none of them retried, and no request reached the service.
      expect({ launcher: launcher.label, connections: untrusted.connections() - before }).toEqual({ launcher: launcher.label, connections: 4 });
      expectNoCanary(check.stdout + check.stderr + hook.stdout + server.stderr());
    }
    expect(untrusted.secureConnections()).toBe(0);
    expect(mem0.requests).toHaveLength(0);
  });

  // Regression (issue 11): NODE_TLS_REJECT_UNAUTHORIZED=0 made the executable accept the
  // untrusted certificate and send the credential. Now it fails closed and stays quiet.
  test('NODE_TLS_REJECT_UNAUTHORIZED=0 never turns certificate checks off', async () => {
    for (const launcher of launchers()) {
      const insecure = env({ ...launcher.trust(certs.caCertPath), NODE_TLS_REJECT_UNAUTHORIZED: '0' });
      const check = await run(launcher, ['check', '--config', files['untrusted'] as string, '--search', 'release signing'], insecure);
      expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({ launcher: launcher.label, code: 1, stderr: UNTRUSTED_LINE });
      const hook = await run(launcher, ['hook', 'auto-recall', '--config', files['untrustedV2'] as string], insecure, prompt());
      expect({ launcher: launcher.label, stdout: hook.stdout, stderr: hook.stderr }).toEqual({ launcher: launcher.label, stdout: '{}', stderr: '' });
    }
    expect(mem0.requests).toHaveLength(0);
  });

  test('a trusted server whose CA the runtime was not given fails closed the same way', async () => {
    for (const launcher of launchers()) {
      const check = await run(launcher, ['check', '--config', files['trusted'] as string, '--search', 'release signing'], env());
      expect({ launcher: launcher.label, code: check.code, stderr: check.stderr }).toEqual({ launcher: launcher.label, code: 1, stderr: UNTRUSTED_LINE });
    }
    expect(mem0.requests).toHaveLength(0);
  });
});
