// SIGHUP reload (docs/design/remote.md §1.13) on the executable, the Node.js bundle and the Deno
// bundle, for `serve --http` and `serve` (stdio): a call held by the old provider finishes on the
// old binding, a call that starts after the reload goes to the new one, and an invalid file keeps
// the binding and writes one operator line. Ordering is proven with events (the held request is
// released by the test), never with sleeps. The `serve --http` case also reads /healthz, /readyz
// and the reload counters of --metrics-listen on each runtime.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type FakeServer, startFakeServer } from '../fakes/fake-server.ts';
import { jsonReply } from '../fakes/reply.ts';
import { denoLauncher, nodeLauncher } from '../support/launchers.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { CANARY_CREDENTIAL, childEnv, COMPILED, genericConfig, tempDir, writeConfig } from '../mcp/harness.ts';
import { eventually } from '../support/eventually.ts';
import { requireBuilt } from '../support/paths.ts';
import { spawnServer } from '../support/spawn-server.ts';

// Hang guard for tests that spawn servers (not a timing assertion).
setDefaultTimeout(120_000);

/** A Generic provider that answers `content`, holding each request until `release()` while `hold` is on. */
interface HeldProvider {
  readonly fake: FakeServer;
  hold: boolean;
  release(): void;
}

async function heldProvider(content: string): Promise<HeldProvider> {
  let releaseAll: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (releaseAll = resolve));
  const provider: HeldProvider = {
    hold: false,
    release() {
      releaseAll();
      gate = new Promise<void>((resolve) => (releaseAll = resolve));
    },
    fake: await startFakeServer({
      handler: async (request) => {
        if (request.headers['authorization'] !== `Bearer ${CANARY_CREDENTIAL}`) return jsonReply(401, { error: 'Authentication required.' });
        if (provider.hold) await gate;
        return jsonReply(200, { items: [{ id: content, content }] });
      },
    }),
  };
  return provider;
}

const oldProvider = await heldProvider('answer-from-the-old-binding');
const newProvider = await heldProvider('answer-from-the-new-binding');
const temp = tempDir();
// Servers still running when a test failed half-way: stopped here, never left behind.
const children: { kill(signal: NodeJS.Signals): unknown }[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await oldProvider.fake.close();
  await newProvider.fake.close();
  temp.cleanup();
});

const RELOAD = proves('signals-reload', ['executable', 'node-bundle', 'deno-bundle']);
const LAUNCHERS = [{ id: 'executable' as const, label: 'dist/external-context', command: requireBuilt(COMPILED), args: [] as readonly string[] }, nodeLauncher(), denoLauncher()];

function search(client: Client): Promise<string> {
  return client.callTool({ name: 'context_search', arguments: { query: 'which binding' } }).then((result) => JSON.stringify(result));
}

async function exercise(label: string, client: Client, config: string, signal: () => void, stderr: () => string, reloaded: string): Promise<void> {
  oldProvider.fake.reset();
  newProvider.fake.reset();
  writeFileSync(config, JSON.stringify(genericConfig(oldProvider.fake, { timeoutMs: 30_000 })));
  oldProvider.hold = true;
  const inFlight = search(client);
  await oldProvider.fake.waitForRequests(1, 60_000);
  writeFileSync(config, JSON.stringify(genericConfig(newProvider.fake, { timeoutMs: 30_000 })));
  signal();
  await eventually(() => stderr().includes(reloaded), `${label}: the reload line`).catch((error: unknown) => {
    throw new Error(`${String(error)} stderr: ${stderr()}`);
  });
  // Starts after the reload: the new binding.
  expect(await search(client)).toContain('answer-from-the-new-binding');
  // Started before it: still held by the old provider, and answered from it once released.
  oldProvider.release();
  oldProvider.hold = false;
  expect(await inFlight).toContain('answer-from-the-old-binding');
  // An invalid file: one operator line naming the file, the binding unchanged.
  writeFileSync(config, '{"version": 1, "provider": {"type": "generic-http-search-v1"}}');
  signal();
  await eventually(
    // serve's plain operator line, or serve --http's JSON event in its default json log (issue 25 §4.6).
    () => stderr().includes(`Reload of ${config} failed; the previous configuration keeps serving. External context config is invalid`),
    `${label}: the failure line`,
  );
  expect(await search(client)).toContain('answer-from-the-new-binding');
  expect(stderr()).not.toContain(CANARY_CREDENTIAL);
}

for (const launcher of LAUNCHERS) {
  describe(`SIGHUP reload (${launcher.label}) ${RELOAD(launcher.id)}`, () => {
    test('serve --http: calls after the reload use the new file, a call in flight finishes on the old one, an invalid file keeps the binding', async () => {
      const config = writeConfig(temp.dir, genericConfig(oldProvider.fake), `http-${launcher.label.length}.json`);
      const child = spawn(launcher.command, [...launcher.args, 'serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0', '--config', config], {
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const served = collect(child);
      const url = await served.firstLine;
      const client = new Client({ name: 'reload-test', version: '0.0.0' }, { capabilities: {} });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const origin = new URL(url).origin;
      expect(await (await fetch(`${origin}/healthz`)).text()).toBe('{"status":"ok"}');
      expect(await (await fetch(`${origin}/readyz`)).text()).toBe('{"status":"ready"}');
      await exercise(launcher.label, client, config, () => child.kill('SIGHUP'), served.stderr, `"event":"reloaded","config":${JSON.stringify(config)}`);
      await client.close();
      const metricsLine = served
        .stderr()
        .split('\n')
        .find((line) => line.includes('"event":"metrics"'));
      const metrics = await (await fetch((JSON.parse(metricsLine ?? '{}') as { address: string }).address)).text();
      expect(metrics).toContain('external_context_config_reloads_total{result="ok"} 1');
      expect(metrics).toContain('external_context_config_reloads_total{result="failed"} 1');
      expect(metrics).toContain('external_context_requests_total{outcome="healthy"} 1');
      child.kill('SIGTERM');
      expect((await served.exited).code).toBe(0);
    });

    test('serve --http: a SIGHUP during the graceful shutdown neither ends the process nor drops the call in flight', async () => {
      // Found by a hostile test: the SIGHUP handler went at the start of the shutdown, so a
      // reload signal during the drain (logrotate, systemctl reload) took the default action:
      // exit 129 and the call in flight cut off.
      const config = writeConfig(temp.dir, genericConfig(oldProvider.fake, { timeoutMs: 30_000 }), `drain-${launcher.label.length}.json`);
      const child = spawn(launcher.command, [...launcher.args, 'serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--config', config], {
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const served = collect(child);
      const url = new URL(await served.firstLine);
      oldProvider.fake.reset();
      oldProvider.hold = true;
      const inFlight = fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'context_search', arguments: { query: 'drain' } } }),
      }).then((response) => response.text());
      await oldProvider.fake.waitForRequests(1, 60_000);
      child.kill('SIGTERM');
      // The shutdown has begun once the listener refuses new connections.
      await refusesConnections(Number(url.port));
      // kill(2) returns after the signal is generated; an uncaught SIGHUP ends the process then.
      child.kill('SIGHUP');
      oldProvider.release();
      oldProvider.hold = false;
      expect(await inFlight).toContain('answer-from-the-old-binding');
      expect((await served.exited).code).toBe(0);
    });

    test('serve (stdio): the same reload rules', async () => {
      const config = writeConfig(temp.dir, genericConfig(oldProvider.fake), `stdio-${launcher.label.length}.json`);
      const server = await spawnServer(launcher.command, [...launcher.args, 'serve', '--config', config], childEnv());
      const pid = server.pid;
      if (pid === undefined) throw new Error('The stdio server has no pid.');
      children.push({
        kill: (signal) => {
          try {
            process.kill(pid, signal);
          } catch {
            // Already gone.
          }
        },
      });
      await exercise(
        launcher.label,
        server.client,
        config,
        () => process.kill(pid, 'SIGHUP'),
        () => server.stderr(),
        `[external-context] Configuration reloaded from ${config}.`,
      );
      expect((await server.close()).code).toBe(0);
    });
  });
}

/** Resolves once nothing accepts a connection on the port (the listener closed). */
async function refusesConnections(port: number): Promise<void> {
  const accepted = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  // A hang guard only: the test's own timeout ends a listener that never closes.
  while (await accepted()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function collect(child: ChildProcess): { firstLine: Promise<string>; stderr: () => string; exited: Promise<{ code: number | null }> } {
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null }>((resolve) => child.once('exit', (code) => resolve({ code })));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    void exited.then(() => reject(new Error(`The server exited before its URL line. stderr: ${stderr}`)));
  });
  return { firstLine, stderr: () => stderr, exited };
}
