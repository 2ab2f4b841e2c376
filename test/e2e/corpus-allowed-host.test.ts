// `corpus serve --allowed-host` on the executable (docs/design/providers.md §8.2, row 0b, §8.2a),
// and `serve --http --allowed-host` (docs/design/remote.md §1.5 step 1, §1.12):
// a container service name or a proxied public name is answered on the service and on its
// metrics listener only when listed; a foreign Host is still refused; bad values are usage
// errors. Executable only: the rule is the same code on every runtime. Canaries: the refused
// Host and the token never reach stderr.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, childEnv, COMPILED, genericConfig, writeConfig } from '../mcp/harness.ts';
import { eventually } from '../support/eventually.ts';
import { requireBuilt } from '../support/paths.ts';
import { rawExchange } from '../support/raw-http.ts';
import { startCorpusServe } from './corpus-serve.ts';

// Hang guard for tests that spawn servers (not a timing assertion).
setDefaultTimeout(120_000);

const TOKEN = 'canary-allowed-host-token-91c4';
const TOKEN_VAR = 'ALLOWED_HOST_TOKEN_VAR';
const EXECUTABLE = requireBuilt(COMPILED);
const dir = mkdtempSync(join(tmpdir(), 'corpus-allowed-host-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const source = mkdtempSync(join(dir, 'src-'));
writeFileSync(join(source, 'guide.md'), '# Guide\n\nThe widget installation steps.\n');
const indexed = spawnSync(EXECUTABLE, ['corpus', 'index', '.', '--out', join(dir, 'index.sqlite')], { cwd: source, encoding: 'utf8' });
if (indexed.status !== 0) throw new Error(`corpus index failed: ${indexed.stderr}`);

const SERVE = ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_VAR, '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0'];

interface Running {
  readonly port: number;
  readonly metricsPort: number;
  readonly child: ChildProcess;
  stderr(): string;
  readonly exited: Promise<number | null>;
}

async function serve(extra: readonly string[], args: readonly string[] = SERVE, env: Record<string, string> = { [TOKEN_VAR]: TOKEN }): Promise<Running> {
  const running = await startCorpusServe(EXECUTABLE, [...args, ...extra], { cwd: dir, env, children });
  await eventually(() => running.stderr().includes('"event":"metrics"'), 'the metrics line');
  const line =
    running
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('"event":"metrics"')) ?? '{}';
  const metricsPort = Number(new URL((JSON.parse(line) as { address: string }).address).port);
  return { ...running, metricsPort };
}

/** One raw HTTP/1.1 request with the given Host line; resolves `<status> <body>`. */
function exchange(port: number, method: string, path: string, host: string, extra = ''): Promise<string> {
  return rawExchange(port, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);
}

const FORBIDDEN = '403 {"error":"Host not allowed."}';
const HINT = "A request was refused because its Host is not this service's address. If clients or a reverse proxy call the service by another name, allow it with --allowed-host <name[:port]>.";

async function stop(running: Running): Promise<string> {
  running.child.kill('SIGTERM');
  expect(await running.exited).toBe(0);
  return running.stderr();
}

function hintLines(stderr: string): unknown[] {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"event":"hint"'))
    .map((line) => {
      const { event, hint } = JSON.parse(line) as { event: string; hint: string };
      return { event, hint };
    });
}

describe('corpus serve --allowed-host (dist/external-context)', () => {
  test('without the flag a service name is refused, once with the hint naming the flag, never echoing the Host', async () => {
    const running = await serve([]);
    const { port, metricsPort } = running;
    expect({
      healthz: await exchange(port, 'GET', '/healthz', `corpus.internal:${port}`),
      again: await exchange(port, 'GET', '/readyz', `canary-rebind.example:${port}`),
      metrics: await exchange(metricsPort, 'GET', '/metrics', `corpus.internal:${metricsPort}`),
    }).toEqual({ healthz: FORBIDDEN, again: FORBIDDEN, metrics: '403 ' });
    const stderr = await stop(running);
    expect(hintLines(stderr)).toEqual([{ event: 'hint', hint: HINT }]);
    expect(stderr).not.toContain('canary-rebind');
    expect(stderr).not.toContain('corpus.internal');
    expect(stderr).not.toContain(TOKEN);
  });

  test('name:port allows exactly that port; a foreign Host and another port are still refused', async () => {
    // The port is known only once bound: start once to learn a free one, then ask for it.
    const probe = await serve([]);
    const port = probe.port;
    await stop(probe);
    const running = await serve(['--listen', `127.0.0.1:${port}`, '--allowed-host', `Corpus.Internal:${port}`]);
    expect({
      healthz: await exchange(port, 'GET', '/healthz', `corpus.internal:${port}`),
      readyz: await exchange(port, 'GET', '/readyz', `CORPUS.internal:${port}`),
      bare: await exchange(port, 'GET', '/healthz', 'corpus.internal'),
      otherPort: await exchange(port, 'GET', '/healthz', `corpus.internal:${port + 1}`),
      foreign: await exchange(port, 'GET', '/healthz', `evil.example:${port}`),
      suffix: await exchange(port, 'GET', '/healthz', `corpus.internal.evil.example:${port}`),
      metrics: await exchange(running.metricsPort, 'GET', '/metrics', `corpus.internal:${running.metricsPort}`),
    }).toEqual({ healthz: '200 {"status":"ok"}', readyz: '200 {"status":"ready"}', bare: FORBIDDEN, otherPort: FORBIDDEN, foreign: FORBIDDEN, suffix: FORBIDDEN, metrics: '403 ' });
    await stop(running);
  });

  test('a bare name allows it with any port and without one, on the service and the metrics listener', async () => {
    const running = await serve(['--allowed-host', 'corpus', '--allowed-host', '[::1]']);
    const { port, metricsPort } = running;
    expect({
      healthz: await exchange(port, 'GET', '/healthz', `corpus:${port}`),
      proxied: await exchange(port, 'GET', '/readyz', 'corpus'),
      ipv6: await exchange(port, 'GET', '/healthz', '[::1]'),
      metrics: (await exchange(metricsPort, 'GET', '/metrics', `corpus:${metricsPort}`)).slice(0, 10),
      foreign: await exchange(port, 'GET', '/healthz', `evil.example:${port}`),
      star: await exchange(port, 'GET', '/healthz', 'corpus:*'),
      metricsForeign: await exchange(metricsPort, 'GET', '/metrics', 'evil.example'),
    }).toEqual({
      healthz: '200 {"status":"ok"}',
      proxied: '200 {"status":"ready"}',
      ipv6: '200 {"status":"ok"}',
      metrics: '200 # HELP',
      foreign: FORBIDDEN,
      star: '400 ',
      metricsForeign: '403 ',
    });
    await stop(running);
  });

  test.each([
    ['', 'Option --allowed-host needs a host name such as corpus.internal or corpus.internal:8787.'],
    ['https://corpus.example.com/', 'Option --allowed-host takes a host name with an optional port, not a URL or a path: write corpus.example.com, not https://corpus.example.com/.'],
    ['corpus/v1', 'Option --allowed-host takes a host name with an optional port, not a URL or a path: write corpus.example.com, not https://corpus.example.com/.'],
    ['*.example.com', 'Option --allowed-host does not take wildcards: repeat the option once per name.'],
    ['corpus:0', 'Option --allowed-host needs a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. corpus.internal:8787).'],
    ['corpus:70000', 'Option --allowed-host needs a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. corpus.internal:8787).'],
    ['-corpus', 'Option --allowed-host needs a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. corpus.internal:8787).'],
    ['::1', 'Option --allowed-host needs a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. corpus.internal:8787).'],
  ])('--allowed-host %p is a usage error (exit 2)', (value, message) => {
    const result = spawnSync(EXECUTABLE, [...SERVE, `--allowed-host=${value}`], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', [TOKEN_VAR]: TOKEN }, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Run "external-context corpus serve --help".');
  });
});

describe('serve --http --allowed-host (dist/external-context)', () => {
  test('a service name is answered on /healthz and the metrics listener only when listed; bad values are usage errors', async () => {
    const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'Alpha.' }] });
    try {
      const config = writeConfig(dir, genericConfig(fake));
      const http = ['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0', '--config', config];
      const without = await serve([], http, childEnv());
      expect({
        healthz: await exchange(without.port, 'GET', '/healthz', `mcp.internal:${without.port}`),
        metrics: await exchange(without.metricsPort, 'GET', '/metrics', `mcp.internal:${without.metricsPort}`),
      }).toEqual({ healthz: '403 {"error":"host_not_allowed"}', metrics: '403 ' });
      without.child.kill('SIGTERM');
      await without.exited;
      const running = await serve(['--allowed-host', 'MCP.internal'], http, childEnv());
      const { port, metricsPort } = running;
      expect({
        healthz: await exchange(port, 'GET', '/healthz', `mcp.internal:${port}`),
        bare: await exchange(port, 'GET', '/healthz', 'mcp.internal'),
        metrics: (await exchange(metricsPort, 'GET', '/metrics', `mcp.internal:${metricsPort}`)).slice(0, 10),
        foreign: await exchange(port, 'GET', '/healthz', `evil.example:${port}`),
        metricsForeign: await exchange(metricsPort, 'GET', '/metrics', 'evil.example'),
      }).toEqual({ healthz: '200 {"status":"ok"}', bare: '200 {"status":"ok"}', metrics: '200 # HELP', foreign: '403 {"error":"host_not_allowed"}', metricsForeign: '403 ' });
      running.child.kill('SIGTERM');
      await running.exited;
      expect(running.stderr()).not.toContain(CANARY_CREDENTIAL);
      for (const [value, message] of [
        ['https://context.example.com/mcp', '--allowed-host takes a host name with an optional port, not a URL or a path: write context.example.com, not https://context.example.com/mcp.'],
        ['*', '--allowed-host does not take wildcards: repeat the option once per name.'],
        ['mcp:99999', '--allowed-host must be a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. mcp.internal:8788).'],
      ] as const) {
        const result = spawnSync(EXECUTABLE, [...http, '--allowed-host', value], { cwd: dir, env: childEnv(), encoding: 'utf8' });
        expect([result.status, result.stderr.trim()]).toEqual([2, `[external-context] ${message}`]);
      }
      const stdio = spawnSync(EXECUTABLE, ['serve', '--allowed-host', 'mcp.internal', '--config', config], { cwd: dir, env: childEnv(), encoding: 'utf8' });
      expect([stdio.status, stdio.stderr]).toEqual([2, expect.stringContaining('--allowed-host is only valid with --http.')]);
    } finally {
      await fake.close();
    }
  });
});
