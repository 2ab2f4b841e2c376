// `conformance --url` request failures carry the shared failure class (issue 14 item 1;
// remote.md §2.2, providers.md §1.6): a closed port and a server whose certificate no trusted CA
// signed end `connect` with the class in the report and one hint line on stderr, on the
// executable (each runtime's classes and hints: test/runtime/outbound-matrix.test.ts). Nothing
// of the URL or header reaches either.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { failureHint } from '../../src/providers/failure.ts';
import { type BundleLauncher } from '../bundle/bundle-runtimes.ts';
import { type FakeServer, startFakeServer } from '../fakes/fake-server.ts';
import { closedPort } from '../mcp/http/remote-kit.ts';
import { createTestCertificates, opensslTier } from '../services/test-certificates.ts';
import { startTlsTerminator, type TlsTerminator } from '../services/tls-terminator.ts';
import { CANARY, expectNoCanary } from '../support/canaries.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

// On the executable only: each runtime's own rejections get their class and hint in
// test/runtime/outbound-matrix.test.ts (failure-classes, one proof per bundle); conformance --url
// hands them through the same routed fetch and the MCP SDK, which is the same code everywhere.
const runtimes: BundleLauncher[] = [{ label: 'executable', command: exePath(), args: [] }];
const openssl = opensslTier('conformance against an untrusted certificate');
registerToolGate(openssl);

let upstream: FakeServer;
let untrusted: TlsTerminator | undefined;

beforeAll(async () => {
  upstream = await startFakeServer();
  if (openssl.missing === undefined) untrusted = await startTlsTerminator((await createTestCertificates()).untrusted, upstream.port);
});
afterAll(async () => {
  await untrusted?.close();
  await upstream.close();
});

async function conformance(runtime: BundleLauncher, url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const result = await runProcess(runtime.command, [...runtime.args, 'conformance', '--url', url, '--header', `Authorization: Bearer ${CANARY.credential}`], { env: cleanEnv() });
  expectNoCanary(result.stdout + result.stderr);
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

for (const runtime of runtimes) {
  const flavour = runtime.label.startsWith('deno') ? 'deno' : 'node';
  describe(`conformance --url on the ${runtime.label}`, () => {
    test(
      'a closed port: connect FAIL with connection-refused and its hint',
      async () => {
        const result = await conformance(runtime, `http://127.0.0.1:${await closedPort()}/mcp`);
        expect(result).toEqual({
          code: 1,
          stdout: 'FAIL connect: the server could not be reached (connection-refused)\n',
          stderr: `[external-context] connection-refused: ${failureHint('connection-refused')}\n`,
        });
      },
      LIVENESS_MS,
    );

    test.skipIf(openssl.missing !== undefined)(
      "an untrusted certificate: connect FAIL with tls-untrusted-certificate and the runtime's CA hint",
      async () => {
        const result = await conformance(runtime, `${untrusted?.origin}/mcp`);
        expect(result).toEqual({
          code: 1,
          stdout: 'FAIL connect: the server could not be reached (tls-untrusted-certificate)\n',
          stderr: `[external-context] tls-untrusted-certificate: ${failureHint('tls-untrusted-certificate', { runtime: flavour })}\n`,
        });
      },
      LIVENESS_MS,
    );
  });
}
