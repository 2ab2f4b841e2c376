// A real Prometheus server scrapes `serve --http` and `corpus serve` (docs/design/remote.md §1.12,
// providers.md §8.2a) on loopback while a bounded load runs, and PromQL through its HTTP API returns
// the counts the load produced. Needs the Debian package `prometheus` (the `prometheus` binary):
// skipped with a reason without it, failing under CI=true.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, childEnv, COMPILED, genericConfig, writeConfig } from '../mcp/harness.ts';
import { closedPort } from '../mcp/http/remote-kit.ts';
import { requireBuilt } from '../support/paths.ts';
import { eventually } from '../support/eventually.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { hostToolTier } from '../support/ci-tools.ts';

// Hang guard (not a timing assertion): Prometheus starts, scrapes every second, and answers.
setDefaultTimeout(180_000);

/** The server binary: the `prometheus` row of .ci/tools.tsv. */
const PROMETHEUS = 'prometheus';
const tier = hostToolTier('prometheus', 'Prometheus scrape tier');
registerToolGate(tier);

const HTTP_CALLS = 12;
const CORPUS_SEARCHES = 9;
const CORPUS_TOKEN = 'canary-prometheus-token-3a8d';
const QUERY = 'canary prometheus query';

const dir = mkdtempSync(join(tmpdir(), 'prometheus-tier-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Spawns a server and resolves with its first stdout line and a reader of its stderr. */
async function start(command: string, args: readonly string[], env: Record<string, string>, cwd = dir): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(command, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.once('exit', () => reject(new Error(`${args.join(' ')} exited early: ${stderr}`)));
  });
  // The metrics line follows the URL line on another stream: wait for it, not for a delay.
  await eventually(() => stderr.includes('"event":"metrics"'), `${args[0] ?? ''}: the metrics line`);
  return { url, stderr: () => stderr };
}

function metricsAddress(stderr: string): string {
  const line = stderr.split('\n').find((entry) => entry.includes('"event":"metrics"'));
  const address = (JSON.parse(line ?? '{}') as { address?: string }).address;
  if (address === undefined) throw new Error(`No metrics line in: ${stderr}`);
  return new URL(address).host;
}

async function promql(base: string, query: string): Promise<number | undefined> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as { data?: { result?: { value: [number, string] }[] } };
  const value = body.data?.result?.[0]?.value[1];
  return value === undefined ? undefined : Number(value);
}

async function until(base: string, query: string, expected: number, what: string): Promise<void> {
  let last: number | undefined;
  const deadline = Date.now() + 120_000; // hang guard only
  while (Date.now() < deadline) {
    last = await promql(base, query);
    if (last === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: ${query} stayed ${String(last)}, expected ${expected}.`);
}

describe.skipIf(tier.missing !== undefined)('Prometheus scrapes serve --http and corpus serve', () => {
  test('PromQL returns the request counts of a bounded load, scraped while it ran', async () => {
    const executable = requireBuilt(COMPILED);
    const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'Alpha.' }] });
    try {
      const config = writeConfig(dir, genericConfig(fake));
      const http = await start(executable, ['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0', '--config', config], childEnv());
      writeFileSync(join(dir, 'guide.md'), '# Guide\n\nThe canary prometheus query lands here.\n');
      const indexed = spawnSync(executable, ['corpus', 'index', 'guide.md', '--out', 'index.sqlite'], { cwd: dir, encoding: 'utf8' });
      expect(indexed.status).toBe(0);
      const corpus = await start(executable, ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', 'CORPUS_TOKEN', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0'], {
        PATH: process.env['PATH'] ?? '',
        CORPUS_TOKEN,
      });

      const port = await closedPort();
      const base = `http://127.0.0.1:${port}`;
      writeFileSync(
        join(dir, 'prometheus.yml'),
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: serve-http',
          `    static_configs: [{ targets: ['${metricsAddress(http.stderr())}'] }]`,
          '  - job_name: corpus',
          `    static_configs: [{ targets: ['${metricsAddress(corpus.stderr())}'] }]`,
          '',
        ].join('\n'),
      );
      const prometheus = spawn(PROMETHEUS, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      children.push(prometheus);

      const client = new Client({ name: 'prometheus-tier', version: '0.0.0' }, { capabilities: {} });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const corpusSearch = (): Promise<Response> =>
        fetch(`${corpus.url}/v1/context/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${CORPUS_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY, limit: 3 }),
        });
      const load = async (calls: number, searches: number): Promise<void> => {
        for (let index = 0; index < calls; index++) await client.callTool({ name: 'context_search', arguments: { query: QUERY } });
        for (let index = 0; index < searches; index++) expect((await corpusSearch()).status).toBe(200);
      };

      // First half, then wait until Prometheus has scraped it: the second half runs between scrapes.
      await load(HTTP_CALLS / 2, CORPUS_SEARCHES / 3);
      await until(base, 'sum(external_context_requests_total{job="corpus",outcome="ok"})', CORPUS_SEARCHES / 3, 'first scrape of corpus serve');
      await load(HTTP_CALLS / 2, (CORPUS_SEARCHES * 2) / 3);
      await until(base, 'sum(external_context_requests_total{job="corpus",outcome="ok"})', CORPUS_SEARCHES, 'corpus serve after the load');
      // initialize + tools/call per call: the SDK client's initialize, its notification, then each call.
      const httpOk = await promql(base, 'sum(external_context_requests_total{job="serve-http",outcome="ok"})');
      await until(base, 'sum(external_context_provider_duration_seconds_count{job="serve-http"})', HTTP_CALLS, 'provider requests of serve --http');
      expect(httpOk).toBeGreaterThanOrEqual(HTTP_CALLS);
      await until(base, 'count(external_context_build_info{job=~"serve-http|corpus"})', 2, 'build_info of both servers');
      await until(base, 'sum(up{job=~"serve-http|corpus"})', 2, 'both targets up');
      const series = await (await fetch(`${base}/api/v1/series?match[]=${encodeURIComponent('{__name__=~"external_context_.*"}')}`)).text();
      for (const secret of [QUERY, CORPUS_TOKEN, CANARY_CREDENTIAL]) expect(series).not.toContain(secret);
      await client.close();
    } finally {
      await fake.close();
    }
  });
});
