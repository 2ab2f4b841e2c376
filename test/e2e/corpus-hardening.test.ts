// `corpus serve` against what an attacker and an operator tried (issue 30 §1, §3), on the
// executable (and `serve --http`'s metrics listener, which shares the Host rule): /readyz follows the file at --db (overwritten in place, deleted, replaced; SIGHUP
// re-opens it), weak tokens are refused at start, a body with a repeated key is a 400, a foreign
// Host is refused on every path and on the metrics listener, and Sphinx's `.rst.txt` sources are
// split at their section titles. Canaries: no token, query or body text in any output.
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { copyFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BundleLauncher, denoLauncher } from '../bundle/bundle-runtimes.ts';
import { corpusScratch, indexCorpus, type RunningCorpus, startCorpusServe } from './corpus-serve.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, childEnv, COMPILED, genericConfig, writeConfig } from '../mcp/harness.ts';
import { eventually } from '../support/eventually.ts';
import { rawExchange } from '../support/raw-http.ts';
import { requireBuilt } from '../support/paths.ts';

// Hang guard for tests that spawn servers (not a timing assertion).
setDefaultTimeout(120_000);

const TOKEN = 'canary-hardening-token-6d2f';
const TOKEN_VAR = 'HARDENING_TOKEN_VAR';
const EXECUTABLE = requireBuilt(COMPILED);
const EXE: BundleLauncher = { label: 'dist/external-context', command: EXECUTABLE, args: [] };
// Node.js 22.13 has node:sqlite; the Node.js 20 of this machine has not, so the corpus tests run
// on the executable and the Deno bundle (as corpus-operations.test.ts does).
const LAUNCHERS: readonly BundleLauncher[] = [EXE, denoLauncher()];
const { dir, children } = corpusScratch('corpus-hardening-');

function index(files: Record<string, string>, out: string): void {
  indexCorpus(EXECUTABLE, dir, files, out);
}

function serve(args: readonly string[], env: Record<string, string> = { [TOKEN_VAR]: TOKEN }, launcher: BundleLauncher = EXE): Promise<RunningCorpus> {
  return startCorpusServe(launcher.command, [...launcher.args, ...args], { cwd: dir, env, children });
}

async function readyz(url: string): Promise<string> {
  const response = await fetch(`${url}/readyz`);
  return `${response.status} ${await response.text()}`;
}

async function search(url: string, query: string): Promise<{ status: number; ids: string[]; titles: string[] }> {
  const response = await fetch(`${url}/v1/context/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, limit: 5 }),
  });
  const body = (await response.json()) as { items?: { id: string; title: string }[] };
  return { status: response.status, ids: (body.items ?? []).map((item) => item.id), titles: (body.items ?? []).map((item) => item.title) };
}

/** One raw HTTP/1.1 request with the given Host line; resolves `<status> <body>`. */
function exchange(port: number, method: string, path: string, host: string, extra = ''): Promise<string> {
  return rawExchange(port, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);
}

function requestLines(stderr: string): { status: number; outcome: string }[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"outcome"'))
    .map((line) => {
      const { status, outcome } = JSON.parse(line) as { status: number; outcome: string };
      return { status, outcome };
    });
}

const SERVE = ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_VAR, '--listen', '127.0.0.1:0'];

const FOLLOW = proves('index-file-follow', ['executable', 'deno-bundle']);

describe.each(LAUNCHERS.map((launcher, index) => [launcher.label, launcher, FOLLOW(index === 0 ? 'executable' : 'deno-bundle')] as const))(
  'corpus serve /readyz follows the file at --db (%s) %s',
  (_label, launcher) => {
    test('overwritten in place, deleted, replaced by garbage: 503 with the class; a new index or SIGHUP makes it ready again', async () => {
      const db = join(dir, 'index.sqlite');
      index({ 'first.md': '# First\n\nThe widget installation, first edition.\n' }, db);
      index({ 'second.md': '# Second\n\nThe widget installation, second edition.\n' }, join(dir, 'second.sqlite'));
      index({ 'third.md': '# Third\n\nThe widget installation, third edition.\n' }, join(dir, 'third.sqlite'));
      const running = await serve(SERVE, undefined, launcher);
      expect(await readyz(running.url)).toBe('200 {"status":"ready"}');
      // Overwritten in place (same inode) with text that is no index.
      writeFileSync(db, 'canary-not-an-index '.repeat(400));
      expect(await readyz(running.url)).toBe('503 {"status":"not-ready","reason":"index-unreadable"}');
      // Overwritten in place with another index: it is opened, and answers.
      copyFileSync(join(dir, 'second.sqlite'), db);
      expect(await readyz(running.url)).toBe('200 {"status":"ready"}');
      expect((await search(running.url, 'widget installation')).ids).toEqual(['second.md#second:1']);
      // Deleted: a restart or SIGHUP could not open it.
      rmSync(db);
      expect(await readyz(running.url)).toBe('503 {"status":"not-ready","reason":"index-missing"}');
      // Garbage renamed into place, then SIGHUP: the reload fails and it stays not ready.
      writeFileSync(join(dir, 'garbage'), 'not an index');
      renameSync(join(dir, 'garbage'), db);
      running.child.kill('SIGHUP');
      await eventually(() => running.stderr().includes('Reload of index.sqlite failed; the previous index keeps serving.'), 'the reload failure line');
      expect(await readyz(running.url)).toBe('503 {"status":"not-ready","reason":"index-unreadable"}');
      // A good index renamed into place and SIGHUP: ready, and searches use it.
      copyFileSync(join(dir, 'third.sqlite'), join(dir, 'next.sqlite'));
      renameSync(join(dir, 'next.sqlite'), db);
      running.child.kill('SIGHUP');
      await eventually(() => running.stderr().includes('"event":"reloaded"'), 'the reloaded line');
      expect(await readyz(running.url)).toBe('200 {"status":"ready"}');
      expect((await search(running.url, 'widget installation')).ids).toEqual(['third.md#third:1']);
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      const probes = requestLines(running.stderr()).filter((line) => line.outcome === 'ready' || line.outcome === 'not-ready');
      expect(probes).toEqual([
        { status: 200, outcome: 'ready' },
        { status: 503, outcome: 'not-ready' },
        { status: 200, outcome: 'ready' },
        { status: 503, outcome: 'not-ready' },
        { status: 503, outcome: 'not-ready' },
        { status: 200, outcome: 'ready' },
      ]);
      expect(running.stderr()).not.toContain('canary-not-an-index');
      expect(running.stderr()).not.toContain(TOKEN);
    });
  },
);

describe('corpus serve refuses weak tokens at start (dist/external-context)', () => {
  const WEAK_LINE = (position: string): string =>
    `[external-context] The service token is too weak: the variable given to ${position} must hold at least 16 characters, at least 6 of them different (for example the output of openssl rand -hex 32).\n`;
  const cases: readonly [string, Record<string, string>, readonly string[], string][] = [
    ['one character', { [TOKEN_VAR]: 'x' }, [], '--token-env'],
    ['15 characters', { [TOKEN_VAR]: 'canary-w3ak-15c' }, [], '--token-env'],
    ['one character repeated', { [TOKEN_VAR]: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, [], '--token-env'],
    ['five different characters', { [TOKEN_VAR]: 'abcdeabcdeabcdeabcde' }, [], '--token-env'],
    ['the second of two', { [TOKEN_VAR]: TOKEN, OTHER_TOKEN_VAR: 'canary-sh0rt' }, ['--token-env', 'OTHER_TOKEN_VAR'], 'the second --token-env'],
  ];
  for (const [name, env, extra, position] of cases) {
    test(`${name}: exit 1 with one line naming the flag by position, never the value or the variable`, () => {
      const result = spawnSync(EXECUTABLE, ['corpus', 'serve', '--db', 'index.sqlite', '--token-env', TOKEN_VAR, ...extra, '--listen', '127.0.0.1:0'], {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        encoding: 'utf8',
      });
      expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 1, stdout: '', stderr: WEAK_LINE(position) });
      for (const value of [...Object.values(env).filter((value) => value !== 'x'), TOKEN_VAR, 'OTHER_TOKEN_VAR']) expect(result.stderr).not.toContain(value);
    });
  }
  test('16 characters with 6 different ones start', async () => {
    index({ 'a.md': '# A\n\nalpha\n' }, join(dir, 'index.sqlite'));
    const running = await serve(SERVE, { [TOKEN_VAR]: 'abcdefabcdefabcd' });
    expect(await readyz(running.url)).toBe('200 {"status":"ready"}');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});

// On the executable only: the Host and body parsing of each runtime's server is
// test/e2e/raw-http.test.ts's (http-listen), and a repeated key is the same code everywhere.
describe.each([EXE].map((launcher) => [launcher.label, launcher] as const))('corpus serve requests (%s)', (_label, launcher) => {
  test('a body with a repeated key is a stable 400; the query is never logged', async () => {
    index({ 'guide.md': '# Guide\n\nThe widget installation steps.\n' }, join(dir, 'index.sqlite'));
    const running = await serve(SERVE, undefined, launcher);
    const post = (body: string): Promise<Response> =>
      fetch(`${running.url}/v1/context/search`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
    const bodies = ['{"query":"canary-dup-first widget","limit":1,"query":"installation"}', '{"query":"widget","limit":1,"limit":5}', '{"query":"widget","limit":1,"\\u006cimit":2}'];
    for (const body of bodies) {
      const response = await post(body);
      expect([response.status, await response.text()]).toEqual([400, '{"error":"Request body must not repeat a key."}']);
    }
    const ok = await post('{"query":"widget installation","limit":1}');
    expect(ok.status).toBe(200);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(requestLines(running.stderr())).toEqual([...bodies.map(() => ({ status: 400, outcome: 'bad-request' })), { status: 200, outcome: 'ok' }]);
    expect(running.stderr()).not.toContain('canary-dup-first');
  });

  test('a foreign Host gets 403 on the search path, /healthz and /readyz, and an empty 403 on the metrics listener', async () => {
    index({ 'guide.md': '# Guide\n\nThe widget installation steps.\n' }, join(dir, 'index.sqlite'));
    const running = await serve([...SERVE, '--metrics-listen', '127.0.0.1:0'], undefined, launcher);
    await eventually(() => running.stderr().includes('"event":"metrics"'), 'the metrics line');
    const metricsLine = running
      .stderr()
      .split('\n')
      .find((line) => line.includes('"event":"metrics"'));
    const metricsPort = Number(new URL((JSON.parse(metricsLine ?? '{}') as { address: string }).address).port);
    const port = running.port;
    const forbidden = '403 {"error":"Host not allowed."}';
    const auth = `Authorization: Bearer ${TOKEN}\r\nContent-Length: 0\r\n`;
    expect({
      search: await exchange(port, 'POST', '/v1/context/search', `evil.example:${port}`, auth),
      healthz: await exchange(port, 'GET', '/healthz', 'evil.example'),
      readyz: await exchange(port, 'GET', '/readyz', `attacker.test:${port}`),
      otherPort: await exchange(port, 'GET', '/healthz', `127.0.0.1:${port + 1}`),
      metrics: await exchange(metricsPort, 'GET', '/metrics', `evil.example:${metricsPort}`),
      metricsOtherPort: await exchange(metricsPort, 'GET', '/metrics', `127.0.0.1:${port}`),
    }).toEqual({ search: forbidden, healthz: forbidden, readyz: forbidden, otherPort: forbidden, metrics: '403 ', metricsOtherPort: '403 ' });
    // The loopback names with the bound port are allowed.
    expect(await exchange(port, 'GET', '/healthz', `localhost:${port}`)).toBe('200 {"status":"ok"}');
    expect(await exchange(port, 'GET', '/readyz', `[::1]:${port}`)).toBe('200 {"status":"ready"}');
    expect(await exchange(metricsPort, 'GET', '/metrics', `LOCALHOST:${metricsPort}`)).toStartWith('200 # HELP');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(requestLines(running.stderr()).slice(0, 4)).toEqual(Array.from({ length: 4 }, () => ({ status: 403, outcome: 'host-refused' })));
    expect(running.stderr()).not.toContain(TOKEN);
  });
});

describe('corpus index splits Sphinx .rst.txt sources at section titles (dist/external-context)', () => {
  test('each section is its own result with its heading trail and anchor', async () => {
    const page = [
      '.. _fixtures:',
      '',
      '========',
      'Fixtures',
      '========',
      '',
      'Fixtures set up what a test needs.',
      '',
      'Scopes',
      '------',
      '',
      'A canary-scope fixture lives for a module.',
      '',
      'Teardown',
      '--------',
      '',
      'Yield fixtures tear down after the test.',
      '',
    ].join('\n');
    index({ 'fixtures.rst.txt': page }, join(dir, 'index.sqlite'));
    const running = await serve(SERVE);
    const found = await search(running.url, 'canary-scope module');
    expect({ ids: found.ids.slice(0, 1), titles: found.titles.slice(0, 1) }).toEqual({ ids: ['fixtures.rst.txt#scopes:1'], titles: ['Fixtures › Scopes'] });
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});

describe('serve --http --metrics-listen (dist/external-context)', () => {
  test('the metrics listener refuses a foreign Host with an empty 403 and answers its own address', async () => {
    const fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'Alpha.' }] });
    try {
      const config = writeConfig(dir, genericConfig(fake));
      const running = await serve(['serve', '--http', '--insecure-no-auth', '--listen', '127.0.0.1:0', '--metrics-listen', '127.0.0.1:0', '--config', config], childEnv());
      await eventually(() => running.stderr().includes('"event":"metrics"'), 'the metrics line');
      const line = running
        .stderr()
        .split('\n')
        .find((entry) => entry.includes('"event":"metrics"'));
      const metricsPort = Number(new URL((JSON.parse(line ?? '{}') as { address: string }).address).port);
      expect({
        foreign: await exchange(metricsPort, 'GET', '/metrics', `evil.example:${metricsPort}`),
        publicPort: await exchange(metricsPort, 'GET', '/metrics', `127.0.0.1:${running.port}`),
        probeForeign: await exchange(running.port, 'GET', '/healthz', `evil.example:${running.port}`),
      }).toEqual({ foreign: '403 ', publicPort: '403 ', probeForeign: '403 {"error":"host_not_allowed"}' });
      const own = await exchange(metricsPort, 'GET', '/metrics', `127.0.0.1:${metricsPort}`);
      expect(own).toStartWith('200 # HELP');
      expect(own).not.toContain(CANARY_CREDENTIAL);
      running.child.kill('SIGTERM');
      await running.exited;
      expect(running.stderr()).not.toContain(CANARY_CREDENTIAL);
    } finally {
      await fake.close();
    }
  });
});
