// `corpus serve` as an operated service (docs/design/providers.md §8.2a) on the executable, with
// SIGHUP also under the Deno bundle: /healthz and /readyz without a token, one request line per
// request (never the query or the token), two accepted tokens for a rotation, metrics on their own
// listener, and SIGHUP re-opening the index (an unreadable file keeps the open one).
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { denoLauncher } from '../support/launchers.ts';
import { corpusScratch, indexCorpus, type RunningCorpus, startCorpusServe } from './corpus-serve.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { COMPILED } from '../mcp/harness.ts';
import { eventually } from '../support/eventually.ts';
import { requireBuilt } from '../support/paths.ts';

// Hang guard for tests that spawn servers (not a timing assertion).
setDefaultTimeout(120_000);

const OLD_TOKEN = 'canary-old-token-5b7c';
const NEW_TOKEN = 'canary-new-token-9e1f';
const QUERY = 'canary widget installation';
const EXECUTABLE = requireBuilt(COMPILED);
const { dir, children } = corpusScratch('corpus-ops-');

function index(files: Record<string, string>, out: string): void {
  indexCorpus(EXECUTABLE, dir, files, out);
}

function serve(command: string, args: readonly string[]): Promise<RunningCorpus> {
  return startCorpusServe(command, args, { cwd: dir, env: { OLD_TOKEN_VAR: OLD_TOKEN, NEW_TOKEN_VAR: NEW_TOKEN }, children });
}

async function search(url: string, token: string): Promise<{ status: number; ids: string[] }> {
  const response = await fetch(`${url}/v1/context/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY, limit: 5 }),
  });
  const body = (await response.json()) as { items?: { id: string }[] };
  return { status: response.status, ids: (body.items ?? []).map((item) => item.id) };
}

function requestLines(stderr: string): { status: number; outcome: string; items: number }[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"outcome"'))
    .map((line) => {
      const { status, outcome, items } = JSON.parse(line) as { status: number; outcome: string; items: number };
      return { status, outcome, items };
    });
}

const SERVE_ARGS = ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', 'OLD_TOKEN_VAR', '--token-env', 'NEW_TOKEN_VAR', '--listen', '127.0.0.1:0'];

describe('corpus serve operations (dist/external-context)', () => {
  test('health and readiness without a token, two accepted tokens, one request line each, metrics on their own listener', async () => {
    index({ 'guide.md': '# Guide\n\nThe widget installation steps.\n' }, join(dir, 'index.sqlite'));
    const running = await serve(EXECUTABLE, [...SERVE_ARGS, '--metrics-listen', '127.0.0.1:0']);
    const health = await fetch(`${running.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, '{"status":"ok"}']);
    const ready = await fetch(`${running.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, '{"status":"ready"}']);
    expect((await fetch(`${running.url}/readyz`, { method: 'POST' })).status).toBe(405);
    expect(await search(running.url, OLD_TOKEN)).toEqual({ status: 200, ids: ['guide.md#guide:1'] });
    expect(await search(running.url, NEW_TOKEN)).toEqual({ status: 200, ids: ['guide.md#guide:1'] });
    expect((await search(running.url, 'not-a-token')).status).toBe(401);
    await eventually(() => running.stderr().includes('"event":"metrics"'), 'the metrics line');
    const metricsUrl = (
      JSON.parse(
        running
          .stderr()
          .split('\n')
          .find((line) => line.includes('"event":"metrics"')) ?? '{}',
      ) as { address?: string }
    ).address;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const metrics = await (await fetch(metricsUrl ?? '')).text();
    expect(metrics).toContain('external_context_requests_total{outcome="ok"} 2');
    expect(metrics).toContain('external_context_requests_total{outcome="unauthorized"} 1');
    expect(metrics).toContain('external_context_requests_total{outcome="healthy"} 1');
    expect(metrics).toContain('external_context_request_duration_seconds_count 6');
    // The public port serves no metrics.
    expect((await fetch(`${running.url}/metrics`)).status).toBe(404);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(requestLines(running.stderr())).toEqual([
      { status: 200, outcome: 'healthy', items: 0 },
      { status: 200, outcome: 'ready', items: 0 },
      { status: 405, outcome: 'method-not-allowed', items: 0 },
      { status: 200, outcome: 'ok', items: 1 },
      { status: 200, outcome: 'ok', items: 1 },
      { status: 401, outcome: 'unauthorized', items: 0 },
      { status: 404, outcome: 'not-found', items: 0 },
    ]);
    for (const secret of [OLD_TOKEN, NEW_TOKEN, 'OLD_TOKEN_VAR', QUERY, 'not-a-token']) expect(running.stderr() + metrics).not.toContain(secret);
  });
});

const REOPEN = proves('index-reopen-unreadable', ['executable', 'deno-bundle']);

for (const [id, launcher] of [
  ['executable', { label: 'dist/external-context', command: EXECUTABLE, args: [] as readonly string[] }],
  ['deno-bundle', denoLauncher()],
] as const) {
  test(`corpus serve (${launcher.label}): SIGHUP re-opens the index; an unreadable file keeps the open one with one operator line ${REOPEN(id)}`, async () => {
    const db = join(dir, 'index.sqlite');
    index({ 'first.md': '# First\n\nThe widget installation, first edition.\n' }, db);
    const running = await serve(launcher.command, [...launcher.args, ...SERVE_ARGS]);
    expect((await search(running.url, OLD_TOKEN)).ids).toEqual(['first.md#first:1']);
    // An unreadable file in place of the index: the open one keeps answering.
    const garbage = join(dir, 'garbage');
    writeFileSync(garbage, 'not an index');
    renameSync(garbage, db);
    running.child.kill('SIGHUP');
    await eventually(
      () => running.stderr().includes('[external-context] Reload of index.sqlite failed; the previous index keeps serving. The --db file cannot be opened as an index made by corpus index.'),
      'the reload failure line',
    );
    expect((await search(running.url, OLD_TOKEN)).ids).toEqual(['first.md#first:1']);
    // A new index and SIGHUP: the next search uses it.
    mkdirSync(join(dir, 'next'), { recursive: true });
    index({ 'second.md': '# Second\n\nThe widget installation, second edition.\n' }, join(dir, 'next', 'index.sqlite'));
    renameSync(join(dir, 'next', 'index.sqlite'), db);
    running.child.kill('SIGHUP');
    await eventually(() => running.stderr().includes('"event":"reloaded","db":"index.sqlite"'), 'the reloaded line');
    expect((await search(running.url, OLD_TOKEN)).ids).toEqual(['second.md#second:1']);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
}

describe('corpus stats (dist/external-context)', () => {
  test('shows files, chunks, size, build time and the selection of the corpus index run, in text and JSON', () => {
    const source = mkdtempSync(join(dir, 'stats-'));
    mkdirSync(join(source, 'drafts'));
    writeFileSync(join(source, 'a.md'), '# A\n\nFirst.\n\n## B\n\nSecond.\n');
    writeFileSync(join(source, 'c.txt'), 'Third.\n');
    writeFileSync(join(source, 'drafts', 'd.md'), '# D\n');
    const built = spawnSync(EXECUTABLE, ['corpus', 'index', '.', '--out', join(dir, 'stats.sqlite'), '--exclude', 'drafts/', '--exclude', '*.log'], { cwd: source, encoding: 'utf8' });
    expect(built.status).toBe(0);
    const json = spawnSync(EXECUTABLE, ['corpus', 'stats', '--db', 'stats.sqlite', '--json'], { cwd: dir, encoding: 'utf8' });
    expect([json.status, json.stderr]).toEqual([0, '']);
    const stats = JSON.parse(json.stdout) as { files: number; chunks: number; sizeBytes: number; builtAt: string; exclude: string[]; include: string[] };
    expect({ ...stats, sizeBytes: stats.sizeBytes > 0, builtAt: Number.isNaN(Date.parse(stats.builtAt)) }).toEqual({
      files: 2,
      chunks: 3,
      sizeBytes: true,
      builtAt: false,
      exclude: ['drafts/', '*.log'],
      include: [],
    });
    const text = spawnSync(EXECUTABLE, ['corpus', 'stats', '--db', 'stats.sqlite'], { cwd: dir, encoding: 'utf8' });
    expect(text.status).toBe(0);
    expect(text.stdout).toBe(`files: 2\nchunks: 3\nsize: ${stats.sizeBytes} bytes\nbuilt-at: ${stats.builtAt}\nexcludes: drafts/ *.log\nincludes: (every file)\n`);
    writeFileSync(join(dir, 'not-an-index'), 'text');
    const bad = spawnSync(EXECUTABLE, ['corpus', 'stats', '--db', 'not-an-index'], { cwd: dir, encoding: 'utf8' });
    expect([bad.status, bad.stdout, bad.stderr]).toEqual([1, '', '[external-context] The --db file cannot be opened as an index made by corpus index.\n']);
  });
});
