// `external-context check` (config.md §11, §14): the binding lines and the --json shape for
// each provider kind, --search through runSearch against strict loopback fakes, the operator
// line, exit codes, usage and configuration errors; in-process through run() with a memory Io,
// plus spawned runs of src/main.ts for the command-line contract.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { help, run as runCheck } from '../../src/cli/check.ts';
import { run as runDispatch } from '../../src/cli/dispatch.ts';
import { NOTICE } from '../../src/contract/envelope.ts';
import { versionLine } from '../../src/version.ts';
import { createTempConfigDir, genericConfig, platformConfig, presetConfig } from '../config/temp-config.ts';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type CapturedRun, memoryIo, runInMemory } from '../support/memory-io.ts';
import { exePath, requireBuilt, withSourceCommit } from '../support/paths.ts';

const REPO_ROOT = path.resolve(import.meta.dir, '../..');

// Canaries: a credential variable name and value, and a query, that must never be printed. The
// one exception is the checklist's credential item, which names the variable the administrator
// wrote into the file (config.md §11); it is cut out before the sweep.
const TOKEN_VAR = 'CANARY_TOKEN_VAR_4b2d';
const TOKEN = 'sk-canary-token-91e0c7';
const QUERY_CANARY = 'canary-query-5f1a';
const CANARIES = [TOKEN_VAR, TOKEN, QUERY_CANARY];
function withoutCredentialItem(text: string): string {
  if (text.startsWith('{')) {
    const parsed = JSON.parse(text) as { items?: { id: string }[] };
    return JSON.stringify({ ...parsed, items: parsed.items?.filter((entry) => entry.id !== 'credential') });
  }
  return text.replace(/^ {2}(?:ok|warn|fail) +credential: .*\n(?: {8}hint: .*\n)?/gmu, '');
}

const temp = createTempConfigDir('ec-check-');
let generic: GenericHttpFake;
let notFound: FakeServer;
let mem0Server: Mem0ServerFake;

beforeAll(async () => {
  generic = await startGenericHttpFake({
    token: TOKEN,
    items: [{ id: 'doc-1', content: 'Use <pnpm> for installs.', title: 'Tooling', score: 0.5 }],
  });
  notFound = await startFakeServer();
  mem0Server = await startMem0ServerFake({
    apiKey: TOKEN,
    memories: [{ id: 'mem-1', memory: 'Prefers pnpm.', user_id: 'u1' }],
  });
});

afterAll(async () => {
  await Promise.all([generic.close(), notFound.close(), mem0Server.close()]);
  temp.remove();
});

/** Runs `check` in-process through the dispatch table (so usage errors are mapped too). */
async function check(args: string[], env: Record<string, string | undefined> = { [TOKEN_VAR]: TOKEN }): Promise<CapturedRun> {
  const captured = await runInMemory(runDispatch, ['check', ...args], { env, cwd: REPO_ROOT });
  for (const canary of CANARIES) {
    expect(withoutCredentialItem(captured.stdout)).not.toContain(canary);
    expect(captured.stderr).not.toContain(canary);
  }
  return captured;
}

/** Runs the compiled executable's `check …` as a child process. */
function spawnCheck(args: string[], env: Record<string, string>): Promise<CapturedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(requireBuilt(exePath()), ['check', ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      for (const canary of CANARIES) {
        expect(withoutCredentialItem(stdout)).not.toContain(canary);
        expect(stderr).not.toContain(canary);
      }
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A Generic configuration bound to `baseUrl` with the canary credential variable. */
function genericAt(baseUrl: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return genericConfig({ provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: TOKEN_VAR }, ...overrides });
}

/** The binding and search lines: everything before the checklist (config.md §11). */
function lines(text: string): string[] {
  if (text.startsWith('Checklist:\n')) return [];
  return (text.split('\nChecklist:\n')[0] ?? '').split('\n').slice(0, -1);
}

/** The checklist lines `<status>  <id>: <message>` (hint lines left out). */
function checklist(text: string): string[] {
  const part = text.startsWith('Checklist:\n') ? text : `Checklist:\n${text.split('\nChecklist:\n')[1] ?? ''}`;
  return part
    .split('\n')
    .filter((line) => /^ {2}(ok|warn|fail) /u.test(line))
    .map((line) => line.trim().replace(/ {2,}/u, ' '));
}

/** A load failure: the server's stderr line, exit 1, and a checklist with a failed item. */
function expectLoadFailure(result: CapturedRun, stderr: string): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr });
  if (result.stdout.startsWith('{')) {
    expect((JSON.parse(result.stdout) as { ok: boolean }).ok).toBe(false);
    return;
  }
  expect(result.stdout.startsWith('Checklist:\n')).toBe(true);
  expect(checklist(result.stdout).some((line) => line.startsWith('fail '))).toBe(true);
}

/** The --json object without the checklist keys. */
function withoutChecklist(value: unknown): unknown {
  const { ok: _ok, items: _items, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** A mem0 preset configuration on a non-placeholder host (config.md §11 fails `.example` hosts). */
function preset(id: string, provider: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> {
  return presetConfig(id as Parameters<typeof presetConfig>[0], { endpoint: { origin: 'https://mem0.test' }, ...provider }, top);
}

function envelopeText(items: readonly Record<string, unknown>[]): string {
  return JSON.stringify({ untrusted_external_context: { notice: NOTICE, items } })
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e');
}

const EXPECTED_ITEM = { id: 'doc-1', content: 'Use <pnpm> for installs.', title: 'Tooling', score: 0.5 };

describe('check: binding lines (config.md §11)', () => {
  test('check prints the first line and the binding lines of a version 1 Generic configuration, with no request', async () => {
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(lines(result.stdout)).toEqual([
      'Configuration is valid: version 1, provider generic-http-search-v1, writes disabled.',
      `  config: ${file}`,
      `  origin: ${generic.origin}`,
      `  search: ${generic.origin}/v1/context/search`,
      '  timeoutMs: 5000',
      '  credential: set',
      '  proxy: direct',
    ]);
    expect(checklist(result.stdout).map((line) => line.split(':')[0])).toEqual(['ok config-file', 'ok placeholders', 'ok configuration', 'ok credential']);
    expect(result.stdout.endsWith('\nNo item failed: 4 ok, 0 warnings, 0 failed.\n')).toBe(true);
    expect(generic.requests).toHaveLength(0);
  });

  test('check prints write, scope and basePath URLs for a mem0 preset with writes', async () => {
    const file = temp.write(
      preset(
        'mem0-server-rest-2026-08',
        {
          endpoint: { origin: 'https://mem0.test:8443/', basePath: '/proxy/' },
          credentialEnv: TOKEN_VAR,
          scope: { agentId: 'qwen-code', userId: ' u1 ' },
        },
        { write: { enabled: true }, timeoutMs: 12000 },
      ),
    );
    const result = await check(['--config', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual([
      'Configuration is valid: version 1, provider mem0, preset mem0-server-rest-2026-08, writes enabled.',
      `  config: ${file}`,
      '  origin: https://mem0.test:8443',
      '  search: https://mem0.test:8443/proxy/search',
      '  write: https://mem0.test:8443/proxy/memories',
      '  scope: userId=u1, agentId=qwen-code',
      '  timeoutMs: 12000',
      '  credential: set',
      '  proxy: direct',
    ]);
  });

  test('check omits the write line when writes are disabled', async () => {
    const file = temp.write(preset('polardb-mysql-2026-08', { credentialEnv: TOKEN_VAR }));
    const result = await check(['--config', file]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      'Configuration is valid: version 1, provider mem0, preset polardb-mysql-2026-08, writes disabled.',
      `  config: ${file}`,
      '  origin: https://mem0.test',
      '  search: https://mem0.test/v2/memories/search',
      '  scope: userId=u1',
      '  timeoutMs: 5000',
      '  credential: set',
      '  proxy: direct',
    ]);
  });

  test('check shows the legacy Platform type with its fixed origin and appId scope', async () => {
    const file = temp.write(platformConfig({ provider: { type: 'mem0-platform-v3', apiKeyEnv: TOKEN_VAR, appId: 'repository-memory' }, write: { enabled: true } }));
    const result = await check(['--config', file]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      'Configuration is valid: version 1, provider mem0-platform-v3, writes enabled.',
      `  config: ${file}`,
      '  origin: https://api.mem0.ai',
      '  search: https://api.mem0.ai/v3/memories/search/',
      '  write: https://api.mem0.ai/v3/memories/add/',
      '  scope: appId=repository-memory',
      '  timeoutMs: 5000',
      '  credential: set',
      '  proxy: direct',
    ]);
  });

  test('check prints the canonical root and the auto-recall timeout of a version 2 configuration', async () => {
    const target = temp.mkdir('v2-repo');
    const link = path.join(temp.dir, 'v2-repo-link');
    symlinkSync(target, link);
    const file = temp.write({ ...genericAt(generic.origin), version: 2, autoRecall: { repositoryRoot: link } });
    const result = await check(['--config', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual([
      'Configuration is valid: version 2, provider generic-http-search-v1, writes disabled.',
      `  config: ${file}`,
      `  origin: ${generic.origin}`,
      `  search: ${generic.origin}/v1/context/search`,
      `  autoRecall.repositoryRoot: ${target}`,
      '  autoRecall.timeoutMs: 1500',
      '  credential: set',
      '  proxy: direct',
    ]);
  });

  test('check prints the configuration path as given through QWEN_EXTERNAL_CONTEXT_CONFIG', async () => {
    const file = temp.write(genericAt(generic.origin));
    const given = `${path.dirname(file)}/./${path.basename(file)}`;
    const result = await check([], { [TOKEN_VAR]: TOKEN, QWEN_EXTERNAL_CONTEXT_CONFIG: given });
    expect(result.code).toBe(0);
    expect(lines(result.stdout)[1]).toBe(`  config: ${given}`);
  });

  test('check shows control characters in administrator values as escapes, one line each', async () => {
    const file = temp.write(preset('polardb-mysql-2026-08', { credentialEnv: TOKEN_VAR, scope: { userId: 'u\n1' } }));
    const result = await check(['--config', file]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toContain('  scope: userId=u\\u000a1');
  });
});

describe('check: origin policy and basePath at adapter construction (config.md §6 step 6, §8, §9)', () => {
  const HINT = 'Provider URL must use HTTPS or loopback HTTP; set "allowInsecureHttp": true to permit plain HTTP for this provider. Field: provider.endpoint.origin.';

  test('a non-loopback http origin loads only with allowInsecureHttp and keeps basePath', async () => {
    const allowed = temp.write(
      preset(
        'polardb-mysql-2026-08',
        {
          credentialEnv: TOKEN_VAR,
          endpoint: { origin: 'http://192.0.2.1:8080', basePath: '/mem0', allowInsecureHttp: true },
        },
        { write: { enabled: true } },
      ),
    );
    const ok = await check(['--config', allowed]);
    expect(ok.code).toBe(0);
    expect(lines(ok.stdout).slice(2, 5)).toEqual(['  origin: http://192.0.2.1:8080', '  search: http://192.0.2.1:8080/mem0/v2/memories/search', '  write: http://192.0.2.1:8080/mem0/v1/memories']);
    const refused = temp.write(preset('polardb-mysql-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin: 'http://192.0.2.1:8080', basePath: '/mem0' } }));
    expectLoadFailure(await check(['--config', refused]), `[external-context] ${HINT}\n`);
  });

  test('loopback http origins load without allowInsecureHttp', async () => {
    for (const origin of ['http://[::1]:8080', 'http://localhost:8080', 'http://127.0.0.1:8080']) {
      const file = temp.write(preset('mem0-server-rest-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin } }));
      const result = await check(['--config', file]);
      expect(result.code).toBe(0);
      expect(lines(result.stdout)[2]).toBe(`  origin: ${origin}`);
    }
  });

  test('a Generic origin over non-loopback http, or with a path, is refused', async () => {
    const plain = await check(['--config', temp.write(genericAt('http://192.0.2.1:8080'))]);
    expectLoadFailure(plain, '[external-context] Provider URL must use HTTPS or loopback HTTP. Field: provider.baseUrl.\n');
    const withPath = await check(['--config', temp.write(genericAt('https://search.test/v1'))]);
    expect(withPath.stderr).toBe('[external-context] Provider URL must not contain credentials, path, query, or fragment. Field: provider.baseUrl.\n');
  });

  test('each of the nine basePath rules gives its reason with the field suffix', async () => {
    const cases: readonly (readonly [string, string])[] = [
      ['mem0', 'it must start with "/"'],
      ['/a//b', 'it must not contain an empty segment ("//")'],
      ['/a?b', 'it must not contain a query ("?")'],
      ['/a#b', 'it must not contain a fragment ("#")'],
      ['/a\\b', 'it must not contain a backslash'],
      ['/a%2Fb', 'it must not contain percent-encoded material ("%")'],
      ['/a b', 'it must not contain whitespace'],
      ['/a\u0001b', 'it must not contain control characters'],
      ['/a/../b', 'it must not contain a "." or ".." segment'],
    ];
    for (const [basePath, reason] of cases) {
      const file = temp.write(preset('mem0-server-rest-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin: 'https://m.test', basePath } }));
      expectLoadFailure(await check(['--config', file]), `[external-context] External context Mem0 endpoint basePath is invalid: ${reason}. Field: provider.endpoint.basePath.\n`);
    }
  });

  test('basePath "/" joins to the bare preset path', async () => {
    const file = temp.write(preset('mem0-server-rest-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin: 'https://m.test', basePath: '/' } }, { write: { enabled: true } }));
    const result = await check(['--config', file]);
    expect(lines(result.stdout).slice(3, 5)).toEqual(['  search: https://m.test/search', '  write: https://m.test/memories']);
  });

  test('step order: credential (4) before root (5) before origin policy (6a) before basePath (6b)', async () => {
    const badOrigin = { type: 'mem0', preset: 'mem0-server-rest-2026-08', credentialEnv: TOKEN_VAR, scope: { userId: 'u1' } };
    const both = { ...badOrigin, endpoint: { origin: 'http://192.0.2.1', basePath: 'x' } };
    // 4 before 6: the credential is missing and the origin is refused.
    expect((await check(['--config', temp.write({ version: 1, provider: both })], {})).stderr).toBe(
      '[external-context] Configured external context credential is unavailable. Field: provider.credentialEnv.\n',
    );
    // 5 before 6: the root is invalid and the origin is refused.
    const v2 = { version: 2, provider: both, autoRecall: { repositoryRoot: 'relative' } };
    expect((await check(['--config', temp.write(v2)])).stderr).toBe('[external-context] External context repository root is invalid: it must be an absolute path. Field: autoRecall.repositoryRoot.\n');
    // 6a before 6b.
    expect((await check(['--config', temp.write({ version: 1, provider: both })])).stderr).toBe(`[external-context] ${HINT}\n`);
  });
});

describe('check: --search (config.md §11)', () => {
  test('check --search prints the binding, the text T on one line and a Latency line', async () => {
    generic.reset();
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--search', `  ${QUERY_CANARY}\n  policy `]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const out = lines(result.stdout);
    expect(out).toHaveLength(9);
    expect(out[0]).toBe('Configuration is valid: version 1, provider generic-http-search-v1, writes disabled.');
    expect(out[7]).toBe(envelopeText([EXPECTED_ITEM]));
    expect(out[8]).toMatch(/^Latency: \d+ ms$/);
    // Exactly one request, with the normalized query.
    expect(generic.requests).toHaveLength(1);
    expect(generic.requests[0]?.json).toEqual({ query: `${QUERY_CANARY} policy`, limit: 5 });
  });

  test('check --search reaches a mem0 preset through the real adapter', async () => {
    const file = temp.write(preset('mem0-server-rest-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin: mem0Server.origin } }));
    const result = await check(['--config', file, '--search', 'pnpm']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const out = lines(result.stdout);
    const envelope = JSON.parse(out[out.length - 2] ?? '') as { untrusted_external_context: { items: { id: string; content: string }[] } };
    expect(envelope.untrusted_external_context.items.map((item) => [item.id, item.content])).toEqual([['mem-1', 'Prefers pnpm.']]);
    expect(out[out.length - 1]).toMatch(/^Latency: \d+ ms$/);
  });

  test('a 404 provider gives "External context search failed.", one operator line and exit 1', async () => {
    notFound.reset();
    const file = temp.write(genericAt(notFound.origin));
    const result = await check(['--config', file, '--search', QUERY_CANARY]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: http-status 404\n');
    const out = lines(result.stdout);
    expect(out[out.length - 1]).toBe('External context search failed.');
    expect(result.stdout).not.toContain('Latency');
    expect(notFound.requests).toHaveLength(1);
  });

  test('an invalid credential at the provider (401) gives the operator line with the status only', async () => {
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--search', 'x'], { [TOKEN_VAR]: 'sk-wrong-canary-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: http-status 401\n');
    expect(result.stdout).not.toContain('sk-wrong-canary-token');
  });

  test('an invalid provider response gives its failure class on the operator line', async () => {
    generic.reset();
    generic.override({ kind: 'reply', status: 200, body: `<html>${QUERY_CANARY}</html>` }, { times: 1 });
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--search', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: invalid-json\n');
    expect(lines(result.stdout).at(-1)).toBe('External context search failed.');
  });

  test('a blank --search query gives "Search query must not be empty.", exit 1, empty stderr and no request', async () => {
    generic.reset();
    const file = temp.write(genericAt(generic.origin));
    for (const query of ['   ', '', '\n\t']) {
      const result = await check(['--config', file, '--search', query]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      expect(lines(result.stdout).at(-1)).toBe('Search query must not be empty.');
      expect(result.stdout).not.toContain('Latency');
    }
    expect(generic.requests).toHaveLength(0);
  });

  test('a query over 2000 code points gives the input-validation message and no request', async () => {
    generic.reset();
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--search', 'x'.repeat(2001)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout).at(-1)).toBe('Search query must contain at most 2000 Unicode characters.');
    expect(generic.requests).toHaveLength(0);
  });

  test('version 1 --search uses timeoutMs', async () => {
    generic.reset();
    generic.override({ kind: 'stall-before-headers' }, { times: 1 });
    const file = temp.write(genericAt(generic.origin, { timeoutMs: 50 }));
    const result = await check(['--config', file, '--search', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: timeout\n');
    generic.reset();
  });

  test('version 2 --search uses autoRecall.timeoutMs, not the top-level timeoutMs', async () => {
    const repo = temp.mkdir('v2-timeout-repo');
    // autoRecall.timeoutMs 50 ms cuts a stalled provider although timeoutMs allows 30000 ms.
    generic.reset();
    generic.override({ kind: 'stall-before-headers' }, { times: 1 });
    const short = temp.write({ ...genericAt(generic.origin), version: 2, timeoutMs: 30000, autoRecall: { repositoryRoot: repo, timeoutMs: 50 } });
    const cut = await check(['--config', short, '--search', 'x']);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toBe('external-context: context_search failed: timeout\n');
    expect(lines(cut.stdout).at(-1)).toBe('External context search failed.');
    generic.reset();
    // A 200 ms answer succeeds under autoRecall.timeoutMs 5000 ms although timeoutMs is 1 ms.
    generic.override({ kind: 'passthrough', delayMs: 200 }, { times: 1 });
    const long = temp.write({ ...genericAt(generic.origin), version: 2, timeoutMs: 1, autoRecall: { repositoryRoot: repo, timeoutMs: 5000 } });
    const ok = await check(['--config', long, '--search', 'x']);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    expect(lines(ok.stdout).at(-2)).toBe(envelopeText([EXPECTED_ITEM]));
    generic.reset();
  });
});

describe('check --json (config.md §11)', () => {
  test('check --json prints one object with 2-space indentation and angle brackets escaped', async () => {
    const dir = temp.mkdir('dir <with> brackets');
    const repo = temp.mkdir('json-repo');
    const file = path.join(dir, 'config.json');
    await Bun.write(file, JSON.stringify({ ...genericAt(generic.origin), version: 2, autoRecall: { repositoryRoot: repo, timeoutMs: 900 } }));
    const result = await check(['--config', file, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(/[<>]/);
    expect(result.stdout).toContain('\\u003cwith\\u003e');
    const parsed = JSON.parse(result.stdout) as unknown;
    expect(result.stdout).toBe(`${JSON.stringify(parsed, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}\n`);
    expect((parsed as { ok: boolean }).ok).toBe(true);
    expect(JSON.stringify(withoutChecklist(parsed))).toBe(
      JSON.stringify({
        valid: true,
        version: 2,
        configPath: file,
        provider: { type: 'generic-http-search-v1', origin: generic.origin, searchUrl: `${generic.origin}/v1/context/search` },
        autoRecall: { repositoryRoot: repo, timeoutMs: 900 },
        writes: 'disabled',
        credential: 'set',
        proxy: 'direct',
      }),
    );
  });

  test('check --json shows preset, writeUrl, scope and timeoutMs for a mem0 preset with writes', async () => {
    const file = temp.write(
      preset('mem0-server-rest-2026-08', { credentialEnv: TOKEN_VAR, endpoint: { origin: 'https://m.test', basePath: '/p' }, scope: { userId: 'u1', agentId: 'a1' } }, { write: { enabled: true } }),
    );
    const result = await check(['--json', '--config', file]);
    expect(result.code).toBe(0);
    expect(JSON.stringify(withoutChecklist(JSON.parse(result.stdout)))).toBe(
      JSON.stringify({
        valid: true,
        version: 1,
        configPath: file,
        provider: {
          type: 'mem0',
          preset: 'mem0-server-rest-2026-08',
          origin: 'https://m.test',
          searchUrl: 'https://m.test/p/search',
          writeUrl: 'https://m.test/p/memories',
        },
        scope: { userId: 'u1', agentId: 'a1' },
        timeoutMs: 5000,
        writes: 'enabled',
        credential: 'set',
        proxy: 'direct',
      }),
    );
  });

  test('check --json --search adds search {ok, latencyMs, envelope}', async () => {
    generic.reset();
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--json', '--search', QUERY_CANARY]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('\\u003cpnpm\\u003e');
    const parsed = JSON.parse(result.stdout) as Record<string, unknown> & { search: { ok: boolean; latencyMs: number; envelope: unknown } };
    expect(Object.keys(parsed)).toEqual(['valid', 'version', 'configPath', 'provider', 'timeoutMs', 'writes', 'credential', 'proxy', 'search', 'ok', 'items']);
    expect((parsed['items'] as { id: string; status: string; message: string }[]).at(-1)).toEqual({
      id: 'search',
      status: 'ok',
      message: expect.stringMatching(/^1 item in \d+ ms; first: id "doc-1", title "Tooling"\.$/u),
    });
    expect(Number.isInteger(parsed.search.latencyMs) && parsed.search.latencyMs >= 0).toBe(true);
    expect(parsed.search).toEqual({
      ok: true,
      latencyMs: parsed.search.latencyMs,
      envelope: { untrusted_external_context: { notice: NOTICE, items: [EXPECTED_ITEM] } },
    });
  });

  test('check --json --search reports a failed search with envelope null, the operator line and exit 1', async () => {
    const file = temp.write(genericAt(notFound.origin));
    const result = await check(['--config', file, '--json', '--search', QUERY_CANARY]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: http-status 404\n');
    const parsed = JSON.parse(result.stdout) as { valid: boolean; search: { ok: boolean; latencyMs: number; envelope: unknown } };
    expect(parsed.valid).toBe(true);
    expect(parsed.search.ok).toBe(false);
    expect(parsed.search.envelope).toBeNull();
    expect(typeof parsed.search.latencyMs).toBe('number');
    const blank = await check(['--config', file, '--json', '--search', ' ']);
    expect(blank.code).toBe(1);
    expect(blank.stderr).toBe('');
    expect((JSON.parse(blank.stdout) as { search: unknown }).search).toMatchObject({ ok: false, envelope: null });
  });

  test('check --json prints valid false and the failed checklist when the load fails', async () => {
    const result = await check(['--config', temp.write(genericAt(generic.origin, { version: 3 })), '--json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 1,
      stderr: '[external-context] External context config is invalid: version must be 1 or 2.\n',
    });
    const parsed = JSON.parse(result.stdout) as { valid: boolean; ok: boolean; items: { id: string; status: string; message: string; hint?: string }[] };
    expect(Object.keys(parsed)).toEqual(['valid', 'ok', 'items']);
    expect(parsed.valid).toBe(false);
    expect(parsed.ok).toBe(false);
    const config = parsed.items.find((entry) => entry.id === 'configuration');
    expect(config).toEqual({
      id: 'configuration',
      status: 'fail',
      message: 'External context config is invalid: version must be 1 or 2.',
      hint: expect.stringMatching(/^Change version in \/.+\.json \(docs\/design\/config\.md §5–§9\)\.$/u),
    });
  });
});

describe('check: load failures and usage errors', () => {
  test('load failures print the server line on stderr, nothing on stdout, exit 1', async () => {
    const good = temp.write(genericAt(generic.origin));
    const notJson = temp.write('{ not json');
    const cases: readonly (readonly [string[], Record<string, string | undefined>, string])[] = [
      [['--config', good], {}, 'Configured external context credential is unavailable. Field: provider.tokenEnv.'],
      [['--config', good], { [TOKEN_VAR]: '${CONTEXT_TOKEN}' }, 'Configured external context credential is unavailable. Field: provider.tokenEnv.'],
      [['--config', temp.write(genericAt(generic.origin, { write: { enabled: true } }))], {}, 'External context memory writes require a Mem0 provider. Field: write.'],
      [['--config', temp.write(genericAt(generic.origin, { remote: {} }))], { [TOKEN_VAR]: TOKEN }, 'External context config is invalid: remote is not a supported field.'],
      [['--config', path.join(temp.dir, 'missing.json')], { [TOKEN_VAR]: TOKEN }, `External context config could not be read: ${path.join(temp.dir, 'missing.json')}: not found.`],
      [['--config', temp.dir], { [TOKEN_VAR]: TOKEN }, `External context config is not a valid file: ${temp.dir}: is a directory.`],
      [['--config', notJson], { [TOKEN_VAR]: TOKEN }, `External context config is not valid JSON: ${notJson}: line 1, column 3.`],
      [[], { [TOKEN_VAR]: TOKEN }, 'No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.'],
      [[], { [TOKEN_VAR]: TOKEN, QWEN_EXTERNAL_CONTEXT_CONFIG: 'relative.json' }, 'QWEN_EXTERNAL_CONTEXT_CONFIG must name an absolute file path.'],
      [['--config', good], { [TOKEN_VAR]: TOKEN, QWEN_EXTERNAL_CONTEXT_CONFIG: `${good}.other` }, '--config and QWEN_EXTERNAL_CONTEXT_CONFIG name different files.'],
    ];
    for (const [args, env, message] of cases) {
      expectLoadFailure(await check(args, env), `[external-context] ${message}\n`);
    }
  });

  test('a --config value that is missing, empty or relative is a configuration error, exit 1', async () => {
    for (const args of [['--config'], ['--config', ''], ['--config='], ['--config', 'config.json'], ['--json', '--config']]) {
      expectLoadFailure(await check(args), '[external-context] --config must name an absolute file path.\n');
    }
  });

  test('usage errors are one stderr line and exit 2', async () => {
    const file = temp.write(genericAt(generic.origin));
    const cases: readonly (readonly [string[], string])[] = [
      [['--config', file, '--bogus'], 'Unknown option --bogus.'],
      [['--config', file, 'stray'], 'Unexpected argument.'],
      [['--config', file, '--search'], 'Option --search is missing its value.'],
      [['--config', file, '--search', '-dash'], 'Option --search is missing its value (write --search=<value> for a value that starts with "-").'],
      [['--config', file, '--bo gus'], 'Unknown option.'],
    ];
    for (const [args, message] of cases) {
      expect(await check(args)).toEqual({
        code: 2,
        stdout: '',
        stderr: `[external-context] ${message} Run "external-context check --help".\n`,
      });
    }
  });

  test('check --help prints the usage on stdout and exits 0', async () => {
    const result = await runInMemory(runCheck, ['--help'], { cwd: REPO_ROOT });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(help);
    expect(result.stderr).toBe('');
    expect(help.startsWith(`${versionLine()}\n`)).toBe(true);
    for (const section of ['USAGE', 'OPTIONS', 'ENVIRONMENT', 'EXIT CODES', 'EXAMPLES', '--config <abs path>', '--search <query>', '--json']) {
      expect(help).toContain(section);
    }
    const short = await runInMemory(runCheck, ['--config', 'relative', '-h'], { cwd: REPO_ROOT });
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(help);
  });
});

describe('check: proxy line (config.md §11, §12)', () => {
  test('check shows "proxied" when a proxy applies and never prints the proxy URL', async () => {
    const file = temp.write(genericAt('https://search.test'));
    const proxyUrl = 'http://proxy-user:canary-proxy-pw@127.0.0.1:9';
    const result = await check(['--config', file], { [TOKEN_VAR]: TOKEN, HTTPS_PROXY: proxyUrl });
    expect(result.code).toBe(0);
    expect(lines(result.stdout).at(-1)).toBe('  proxy: proxied');
    expect(result.stdout).not.toContain('canary-proxy-pw');
    const json = await check(['--config', file, '--json'], { [TOKEN_VAR]: TOKEN, https_proxy: proxyUrl });
    expect((JSON.parse(json.stdout) as { proxy: string }).proxy).toBe('proxied');
    expect(json.stdout).not.toContain('canary-proxy-pw');
  });

  test('check shows "direct" for a NO_PROXY match and for loopback', async () => {
    const file = temp.write(genericAt('https://search.test'));
    const bypass = await check(['--config', file], { [TOKEN_VAR]: TOKEN, HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '.test' });
    expect(lines(bypass.stdout).at(-1)).toBe('  proxy: direct');
    const loopback = await check(['--config', temp.write(genericAt(generic.origin))], { [TOKEN_VAR]: TOKEN, HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(lines(loopback.stdout).at(-1)).toBe('  proxy: direct');
  });

  test('a loopback provider is searched directly while HTTP_PROXY points at a dead port', async () => {
    generic.reset();
    const file = temp.write(genericAt(generic.origin));
    const result = await check(['--config', file, '--search', 'x'], { [TOKEN_VAR]: TOKEN, HTTP_PROXY: 'http://127.0.0.1:1', http_proxy: 'http://127.0.0.1:1' });
    expect(result.code).toBe(0);
    expect(generic.requests).toHaveLength(1);
  });

  test('an invalid HTTPS_PROXY gives the proxy message, exit 1', async () => {
    const file = temp.write(genericAt('https://search.test'));
    expectLoadFailure(
      await check(['--config', file], { [TOKEN_VAR]: TOKEN, HTTPS_PROXY: 'not a url' }),
      '[external-context] Proxy environment configuration is invalid. Check HTTP_PROXY, HTTPS_PROXY, and NO_PROXY.\n',
    );
  });
});

describe('check: spawned program (exit codes and the one stderr line)', () => {
  test('external-context check exits 0 for a valid configuration', async () => {
    const file = temp.write(genericAt(generic.origin));
    const result = await spawnCheck(['--config', file], { [TOKEN_VAR]: TOKEN });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')[0]).toBe('Configuration is valid: version 1, provider generic-http-search-v1, writes disabled.');
  });

  test('external-context check exits 1 for a relative --config and 2 for an unknown flag', async () => {
    const relative = await spawnCheck(['--config', 'config.json'], {});
    expectLoadFailure(relative, '[external-context] --config must name an absolute file path.\n');
    const unknown = await spawnCheck(['--bogus'], {});
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: '[external-context] Unknown option --bogus. Run "external-context check --help".\n' });
  });

  test('external-context check --search against a 404 provider writes exactly one stderr line and exits 1', async () => {
    const file = temp.write(genericAt(notFound.origin));
    const result = await spawnCheck(['--config', file, '--search', QUERY_CANARY], { [TOKEN_VAR]: TOKEN });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('external-context: context_search failed: http-status 404\n');
    expect(lines(result.stdout).at(-1)).toBe('External context search failed.');
    expect(checklist(result.stdout)).toContainEqual(expect.stringMatching(/^fail search: Failed after \d+ ms: http-status 404\.$/u));
  });

  test('external-context check --help exits 0', async () => {
    const result = await spawnCheck(['--help'], {});
    expect({ ...result, stdout: withSourceCommit(result.stdout) }).toEqual({ code: 0, stdout: help, stderr: '' });
  });
});

describe('check: module graph', () => {
  test('check.ts never reaches the MCP SDK through its imports', () => {
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      // Static imports and re-exports (`import type` is erased at run time), plus import() of
      // a literal specifier (the per-runtime modules).
      const staticImports = [...source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gmu)];
      const dynamicImports = [...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/gu)];
      for (const match of [...staticImports, ...dynamicImports]) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
        else external.add(specifier);
      }
    };
    visit(path.join(REPO_ROOT, 'src/cli/check.ts'));
    expect(seen.size).toBeGreaterThan(5);
    expect([...external].filter((name) => name.includes('@modelcontextprotocol'))).toEqual([]);
  });

  test('the stdin stream is never read by check', async () => {
    const stdin = new PassThrough();
    const memory = memoryIo({ env: { [TOKEN_VAR]: TOKEN }, cwd: REPO_ROOT });
    const code = await runCheck(['--config', temp.write(genericAt(generic.origin))], { ...memory.io, stdin });
    expect(code).toBe(0);
    expect(memory.stdout()).toContain('Configuration is valid');
    expect(stdin.readableFlowing).toBeNull();
  });
});
