// `external-context probe` (probe.md §5): every verdict against the configurable Mem0 server fake
// (PolarDB route table for the placement cases, stock table for the server preset) and the
// Platform fake; the exact report layout, --json, the request record, and the exit codes.
// PolarDB behaviour is the fake's, not verified against a live instance (mem0-services.md §3).
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { help } from '../../src/cli/probe.ts';
import { startMem0PlatformFake, type Mem0PlatformFake } from '../fakes/mem0-platform.ts';
import { startMem0ServerFake, type Mem0ServerFake, type Mem0ServerFakeOptions } from '../fakes/mem0-server.ts';
import { expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { carriesCredential, KEY, probe, probeSpawned, requestLines } from '../probe/probe-harness.ts';
import { withSourceCommit } from '../support/paths.ts';
import { startFakeServer } from '../fakes/fake-server.ts';

const POLARDB = 'polardb-mysql-2026-08';
const SERVER = 'mem0-server-rest-2026-08';
const PLATFORM = 'mem0-platform-v3';
const MEMORIES = [
  { id: 'm2', memory: 'Deployments need a change ticket.', user_id: 'u1' },
  { id: 'm1', memory: 'Deployment policy: staging first.', user_id: 'u1' },
  { id: 'other', memory: 'Another user.', user_id: 'u2' },
];

const fakes: { close(): Promise<void> }[] = [];

async function polardb(options: Partial<Mem0ServerFakeOptions> = {}): Promise<Mem0ServerFake> {
  const fake = await startMem0ServerFake({ routes: 'polardb', apiKey: KEY, scope: 'merge', memories: MEMORIES, ...options });
  fakes.push(fake);
  return fake;
}

async function stock(options: Partial<Mem0ServerFakeOptions> = {}): Promise<Mem0ServerFake> {
  const fake = await startMem0ServerFake({ routes: 'stock', apiKey: KEY, memories: MEMORIES, ...options });
  fakes.push(fake);
  return fake;
}

async function platform(memories = [{ id: 'p1', memory: 'Use pnpm.', app_id: 'repository-memory' }]): Promise<Mem0PlatformFake> {
  const fake = await startMem0PlatformFake({ apiKey: KEY, memories });
  fakes.push(fake);
  return fake;
}

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});
afterAll(removeTempDirs);

const polardbArgs = (fake: Mem0ServerFake, ...extra: string[]): string[] => ['--preset', POLARDB, '--origin', fake.origin, '--user-id', 'u1', ...extra];

/** The fake saw one GET /openapi.json without a credential, then only POST searches. */
function expectReadOnly(fake: Mem0ServerFake, searches: number): void {
  expect(requestLines(fake.requests)).toEqual(['GET /openapi.json', ...Array<string>(searches).fill(`POST ${fake.paths.search}`)]);
  expect(carriesCredential(fake.requests[0]!)).toBe(false);
  expect(fake.requests.some((request) => request.path === fake.paths.add)).toBe(false);
}

describe('probe verdicts against the PolarDB route table (placements compared)', () => {
  test('tolerant deployment: 2 items, unknown field ignored, all placements ids=[m1,m2], dual-placement-safe, exit 0', async () => {
    const fake = await polardb();
    const result = await probe(polardbArgs(fake));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        '',
        `Preset:   ${POLARDB}`,
        `Endpoint: ${fake.origin}/v2/memories/search  (read-only)`,
        '',
        '1. Declared schema',
        '  not served (HTTP 404)',
        '',
        '2. This preset, through the real adapter',
        '  ok: 2 usable items',
        '',
        '3. Unknown-field policy',
        '  ignored (HTTP 200)',
        '',
        '4. Scope placement',
        '  filters only (preset)   HTTP 200 ids=[m1,m2]',
        '  request root only       HTTP 200 ids=[m1,m2]',
        '  both                    HTTP 200 ids=[m1,m2]',
        '',
        'Verdict',
        '  SAFE: scope under "filters", at the request root and in both places returns the same memories.',
        '',
      ].join('\n'),
    );
    expectNoCanary(result.stdout);
  });

  test('when step 4 runs the fake records exactly six requests: GET /openapi.json without a credential, then five POST searches', async () => {
    const fake = await polardb();
    await probe(polardbArgs(fake));
    expectReadOnly(fake, 5);
    const bodies = fake.requests.slice(1).map((request) => request.text);
    expect(bodies).toEqual([
      '{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1"}}',
      '{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1"},"__qwen_preset_probe_unused__":1}',
      '{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1"}}',
      '{"query":"deployment policy","top_k":5,"user_id":"u1"}',
      '{"query":"deployment policy","top_k":5,"user_id":"u1","filters":{"user_id":"u1"}}',
    ]);
    for (const request of fake.requests.slice(1)) expect(request.headers['authorization']).toBe(`Token ${KEY}`);
  });

  test('with agentId the preset placement is mixed, so no row is marked (preset), and agent_id follows each placement', async () => {
    const fake = await polardb();
    const result = await probe(polardbArgs(fake, '--agent-id', 'qwen-code'));
    expect(result.stdout).not.toContain('(preset)');
    expect(fake.requests.slice(3).map((request) => request.text)).toEqual([
      '{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1","agent_id":"qwen-code"}}',
      '{"query":"deployment policy","top_k":5,"user_id":"u1","agent_id":"qwen-code"}',
      '{"query":"deployment policy","top_k":5,"user_id":"u1","agent_id":"qwen-code","filters":{"user_id":"u1","agent_id":"qwen-code"}}',
    ]);
    expect(fake.requests[1]!.text).toBe('{"query":"deployment policy","top_k":5,"agent_id":"qwen-code","filters":{"user_id":"u1"}}');
  });

  test('strict schema that reads root identity: unknown field rejected with the 422 body, verdict safe', async () => {
    const fake = await polardb({ schema: 'strict' });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '\n3. Unknown-field policy\n  rejected (HTTP 422) {"detail":[{"type":"extra_forbidden","loc":["body","__qwen_preset_probe_unused__"],"msg":"Extra inputs are not permitted","input":1}]}\n',
    );
    expect(result.stdout).toContain('  both                    HTTP 200 ids=[m1,m2]\n');
    expect(result.stdout).toContain('\nVerdict\n  SAFE: ');
  });

  test('strict schema without root identity: the both row shows 422 extra_forbidden, verdict dual-placement-unsafe, exit 0', async () => {
    const fake = await polardb({ schema: 'strict-no-root-ids' });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(0);
    const both = result.stdout.split('\n').find((line) => line.startsWith('  both '));
    expect(both).toStartWith('  both                    HTTP 422 {"detail":[{"type":"extra_forbidden","loc":["body","user_id"]');
    expect(result.stdout).toContain("\nVerdict\n  UNSAFE: the deployment rejects scope in both places; keep this preset's placement.\n");
  });

  test('root-only deployment: the baseline fails with http-status 500, verdict preset-mismatch, exit 1, no placement section', async () => {
    const fake = await polardb({ scope: 'root-only' });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('\n2. This preset, through the real adapter\n  failed: http-status 500\n');
    expect(result.stdout).not.toContain('4. Scope placement');
    expect(result.stdout.endsWith('\nVerdict\n  MISMATCH: this preset does not work against this endpoint.\n')).toBe(true);
    expectReadOnly(fake, 2);
  });

  test('empty corpus: every placement returns ids=[], verdict empty-corpus, exit 1', async () => {
    const fake = await polardb({ memories: [] });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  ok: 0 usable items\n');
    expect(result.stdout).toContain('  filters only (preset)   HTTP 200 ids=[]\n');
    expect(result.stdout.endsWith('\nVerdict\n  INCONCLUSIVE: the baseline search matched no memories.\n')).toBe(true);
  });

  test('a single memory reads "1 usable item"', async () => {
    const fake = await polardb({ memories: [MEMORIES[1]!] });
    const result = await probe(polardbArgs(fake));
    expect(result.stdout).toContain('  ok: 1 usable item\n');
  });

  test('placements returning different memories: dual-placement-divergent, exit 0', async () => {
    const fake = await polardb();
    fake.override({ kind: 'reply', status: 200, json: { results: [{ id: 'm1', memory: 'x' }] } }, { method: 'POST', path: fake.paths.search, times: 1 });
    // Only the last request (both) gets the override: play the first four through the handler.
    fake.override({ kind: 'passthrough' }, { method: 'POST', path: fake.paths.search, times: 4 });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  both                    HTTP 200 ids=[m1]\n');
    expect(result.stdout).toContain("\nVerdict\n  DIVERGENT: the placements return different memories; keep this preset's placement and check the deployment.\n");
  });

  test('the filters-only request failing makes preset-mismatch even after a good baseline', async () => {
    const fake = await polardb();
    fake.override({ kind: 'reply', status: 503, body: 'busy' }, { method: 'POST', path: fake.paths.search, times: 3 });
    fake.override({ kind: 'passthrough' }, { method: 'POST', path: fake.paths.search, times: 2 });
    const result = await probe(polardbArgs(fake));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  filters only (preset)   HTTP 503 busy\n');
    expect(result.stdout).toContain('MISMATCH');
  });

  test('the OpenAPI document: field names in document order and additionalProperties false', async () => {
    const fake = await polardb({ openapi: true, schema: 'strict' });
    const result = await probe(polardbArgs(fake));
    expect(result.stdout).toContain('\n1. Declared schema\n  SearchMemoryRequest: query, top_k, filters, user_id, agent_id, run_id, threshold, output_format\n  additionalProperties: false\n');
  });

  test('a tolerant OpenAPI document reports additionalProperties (unset)', async () => {
    const fake = await polardb({ openapi: true });
    const result = await probe(polardbArgs(fake));
    expect(result.stdout).toContain('  additionalProperties: (unset)\n');
  });
});

describe('probe verdicts that skip the placement comparison', () => {
  test('server preset against the stock table: already-dual-placement, the stock schema, no placement section, exit 0', async () => {
    const fake = await stock();
    const result = await probe(['--preset', SERVER, '--origin', fake.origin, '--user-id', 'u1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Endpoint: ${fake.origin}/search  (read-only)\n`);
    expect(result.stdout).toContain('  SearchRequest: query, user_id, run_id, agent_id, filters, top_k, threshold, explain, show_expired\n  additionalProperties: (unset)\n');
    expect(result.stdout).toContain('  ok: 2 usable items\n');
    expect(result.stdout).not.toContain('4. Scope placement');
    expect(result.stdout.endsWith('\nVerdict\n  ALREADY DUAL: this preset already sends scope at the request root and under "filters".\n')).toBe(true);
    expectReadOnly(fake, 2);
    expect(fake.requests[1]!.headers['x-api-key']).toBe(KEY);
    expect(fake.requests[1]!.headers['authorization']).toBeUndefined();
    expect(fake.requests[2]!.text).toBe('{"query":"deployment policy","top_k":5,"filters":{"user_id":"u1"},"__qwen_preset_probe_unused__":1}');
  });

  test('Platform preset: managed-contract, exit 0', async () => {
    const fake = await platform();
    const result = await probe(['--preset', PLATFORM, '--origin', fake.origin, '--app-id', 'repository-memory']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  not served (HTTP 404)\n');
    expect(result.stdout).toContain('  ok: 1 usable item\n');
    expect(result.stdout).not.toContain('4. Scope placement');
    expect(result.stdout).toContain('\nVerdict\n  MANAGED: this preset targets a vendor-operated service with one published contract; placements are not compared.\n');
    expect(requestLines(fake.requests)).toEqual(['GET /openapi.json', 'POST /v3/memories/search/', 'POST /v3/memories/search/']);
    expect(fake.requests[1]!.text).toBe('{"query":"deployment policy","top_k":5,"threshold":0.1,"rerank":false,"filters":{"app_id":"repository-memory"}}');
    expect(fake.requests[2]!.text).toBe('{"query":"deployment policy","top_k":5,"threshold":0.1,"rerank":false,"filters":{"app_id":"repository-memory"},"__qwen_preset_probe_unused__":1}');
  });

  test('a wrong key (HTTP 401) is unauthorized, never preset-mismatch, exit 1', async () => {
    const fake = await platform();
    const result = await probe(['--preset', PLATFORM, '--origin', fake.origin, '--app-id', 'repository-memory'], { MEM0_API_KEY: `${KEY}-wrong` });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  failed: http-status 401\n');
    expect(result.stdout).not.toContain('MISMATCH');
    expect(result.stdout).toContain('\nVerdict\n  UNAUTHORIZED: this endpoint refused the credential; the preset was not tested.\n  Cause: http-status 401\n  Hint: ');
    expect(result.stdout).toContain('credentialEnv');
  });

  test('Platform preset with a baseline the preset cannot read: preset-mismatch, exit 1', async () => {
    const fake = await platform();
    fake.override({ kind: 'reply', status: 200, json: { memories: [] } });
    const result = await probe(['--preset', PLATFORM, '--origin', fake.origin, '--app-id', 'repository-memory']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  failed: invalid-envelope\n');
    expect(result.stdout).toContain('MISMATCH: this preset does not work against this endpoint.');
  });
});

describe('probe --json', () => {
  async function jsonRun(args: string[], env?: Record<string, string>): Promise<{ code: number; report: Record<string, unknown>; stdout: string }> {
    const result = await probe([...args, '--json'], env);
    expect(result.stderr).toBe('');
    expect(result.stdout.endsWith('}\n')).toBe(true);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['preset', 'endpoint', 'declaredSchema', 'baseline', 'unknownFieldPolicy', 'placements', 'verdict', 'exitCode']);
    expect(report['exitCode']).toBe(result.code);
    const escaped = JSON.stringify(report, null, 2).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
    expect(result.stdout).toBe(`${escaped}\n`);
    return { code: result.code, report, stdout: result.stdout };
  }

  test('safe: the whole object', async () => {
    const fake = await polardb({ openapi: true, schema: 'strict' });
    const { report } = await jsonRun(polardbArgs(fake));
    const fields = ['query', 'top_k', 'filters', 'user_id', 'agent_id', 'run_id', 'threshold', 'output_format'];
    expect(report).toEqual({
      preset: POLARDB,
      endpoint: `${fake.origin}/v2/memories/search`,
      declaredSchema: { name: 'SearchMemoryRequest', fields, additionalProperties: false },
      baseline: { ok: true, items: 2 },
      unknownFieldPolicy: {
        result: 'rejected',
        status: 422,
        detail: '{"detail":[{"type":"extra_forbidden","loc":["body","__qwen_preset_probe_unused__"],"msg":"Extra inputs are not permitted","input":1}]}',
      },
      placements: [
        { placement: 'filters', preset: true, status: 200, ids: ['m1', 'm2'] },
        { placement: 'root', preset: false, status: 200, ids: ['m1', 'm2'] },
        { placement: 'both', preset: false, status: 200, ids: ['m1', 'm2'] },
      ],
      verdict: 'dual-placement-safe',
      exitCode: 0,
    });
  });

  test('unsafe: the both entry has ids null and the 422 detail', async () => {
    const fake = await polardb({ schema: 'strict-no-root-ids' });
    const { report } = await jsonRun(polardbArgs(fake));
    expect(report['verdict']).toBe('dual-placement-unsafe');
    expect(report['declaredSchema']).toBeNull();
    const both = (report['placements'] as Record<string, unknown>[])[2]!;
    expect(both['placement']).toBe('both');
    expect(both['status']).toBe(422);
    expect(both['ids']).toBeNull();
    expect(both['detail']).toContain('extra_forbidden');
  });

  test('managed: placements null', async () => {
    const fake = await platform();
    const { report } = await jsonRun(['--preset', PLATFORM, '--origin', fake.origin, '--app-id', 'repository-memory']);
    expect(report).toMatchObject({
      preset: PLATFORM,
      declaredSchema: null,
      baseline: { ok: true, items: 1 },
      unknownFieldPolicy: { result: 'ignored', status: 200 },
      placements: null,
      verdict: 'managed-contract',
      exitCode: 0,
    });
  });

  test('mismatch: the baseline reason and exit code 1', async () => {
    const fake = await polardb({ scope: 'root-only' });
    const { code, report } = await jsonRun(polardbArgs(fake));
    expect(code).toBe(1);
    expect(report['baseline']).toEqual({
      ok: false,
      reason: 'http-status 500',
      class: 'http-status',
      status: 500,
      hint: "The provider failed internally (HTTP 500): check the service's own logs.",
    });
    expect(report['placements']).toBeNull();
    expect(report['verdict']).toBe('preset-mismatch');
    expect(report['unknownFieldPolicy']).toEqual({
      result: 'inconclusive',
      status: 500,
      detail: `{"detail":"At least one of 'user_id', 'agent_id', or 'run_id' must be provided."}`,
    });
  });

  test('< and > in upstream text are written as \\u003c and \\u003e', async () => {
    const fake = await polardb();
    fake.override({ kind: 'reply', status: 500, body: '<h1>Oops</h1>' }, { method: 'POST', path: fake.paths.search });
    const { stdout, report } = await jsonRun(polardbArgs(fake));
    expect(stdout).not.toMatch(/[<>]/);
    expect(stdout).toContain('\\u003ch1\\u003eOops\\u003c/h1\\u003e');
    expect((report['unknownFieldPolicy'] as Record<string, unknown>)['detail']).toBe('<h1>Oops</h1>');
  });
});

describe('probe --config', () => {
  function mem0Config(origin: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      version: 1,
      provider: { type: 'mem0', preset: POLARDB, endpoint: { origin }, credentialEnv: 'PROBE_CONFIG_KEY', scope: { userId: 'u1' }, ...overrides },
    };
  }

  test('takes preset, origin, scope and credential variable from a version 1 configuration; --json is accepted', async () => {
    const fake = await polardb();
    const path = await writeConfigFile(mem0Config(fake.origin));
    const result = await probe(['--config', path, '--json'], { PROBE_CONFIG_KEY: KEY });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)['verdict']).toBe('dual-placement-safe');
    expect(fake.requests[1]!.headers['authorization']).toBe(`Token ${KEY}`);
  });

  test('a version 2 configuration is accepted too, with its basePath', async () => {
    const fake = await polardb();
    const root = await writeConfigFile({}, { name: 'marker.json' });
    const dir = root.slice(0, root.lastIndexOf('/'));
    const path = await writeConfigFile({
      version: 2,
      provider: { ...(mem0Config(fake.origin)['provider'] as object), endpoint: { origin: fake.origin, basePath: '/' } },
      autoRecall: { repositoryRoot: dir },
    });
    const result = await probe(['--config', path], { PROBE_CONFIG_KEY: KEY });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Endpoint: ${fake.origin}/v2/memories/search  (read-only)`);
  });

  test('the legacy mem0-platform-v3 shape of contracts/examples is probed as the Platform preset at its fixed origin', async () => {
    // A dead local proxy keeps the request on this machine: the fixed origin is never contacted.
    const gone = await startFakeServer();
    const proxyPort = gone.port;
    await gone.close();
    const path = await writeConfigFile({ version: 1, provider: { type: 'mem0-platform-v3', apiKeyEnv: 'PROBE_CONFIG_KEY', appId: 'repository-memory' } });
    const env = { PROBE_CONFIG_KEY: KEY, https_proxy: `http://proxy-user:${KEY}@127.0.0.1:${proxyPort}` };
    const result = await probe(['--config', path], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Preset:   mem0-platform-v3\nEndpoint: https://api.mem0.ai/v3/memories/search/  (read-only)\n');
    expect(result.stdout).toContain('\n  failed: proxy-failure\n');
    expect(result.stdout).toContain('UNREACHABLE: the probe could not reach this endpoint; the preset was not tested.\n  Cause: proxy-failure\n');
    expect(result.stdout).toContain('named by https_proxy');
    expectNoCanary(result.stdout);
    const json = JSON.parse((await probe(['--config', path, '--json'], env)).stdout) as Record<string, unknown>;
    expect(json['verdict']).toBe('unreachable');
    expect((json['baseline'] as Record<string, unknown>)['class']).toBe('proxy-failure');
    expect(json['exitCode']).toBe(1);
  });

  test('a non-mem0 provider: the fixed message, exit 2, no request', async () => {
    const path = await writeConfigFile({
      version: 1,
      provider: { type: 'generic-http-search-v1', baseUrl: 'https://search.example.com', tokenEnv: 'PROBE_CONFIG_KEY' },
    });
    const result = await probe(['--config', path], { PROBE_CONFIG_KEY: KEY });
    expect(result).toEqual({ code: 2, stdout: '', stderr: '[external-context] The probe requires a "mem0" provider configuration.\n' });
  });

  test('configuration problems print the config.md message with its Field suffix, exit 2', async () => {
    const missingCredential = await writeConfigFile(mem0Config('https://mem0.example.com'));
    expect(await probe(['--config', missingCredential], {})).toEqual({
      code: 2,
      stdout: '',
      stderr: '[external-context] Configured external context credential is unavailable. Field: provider.credentialEnv.\n',
    });
    const insecure = await writeConfigFile(mem0Config('http://mem0.example.com'));
    expect((await probe(['--config', insecure], { PROBE_CONFIG_KEY: KEY })).stderr).toBe(
      '[external-context] Provider URL must use HTTPS or loopback HTTP; set "allowInsecureHttp": true to permit plain HTTP for this provider. Field: provider.endpoint.origin.\n',
    );
    const withBadBase = await writeConfigFile({
      ...mem0Config('https://mem0.example.com'),
      provider: { ...(mem0Config('https://mem0.example.com')['provider'] as object), endpoint: { origin: 'https://mem0.example.com', basePath: 'x' } },
    });
    expect((await probe(['--config', withBadBase], { PROBE_CONFIG_KEY: KEY })).stderr).toBe(
      '[external-context] External context Mem0 endpoint basePath is invalid: it must start with "/". Field: provider.endpoint.basePath.\n',
    );
    expect(await probe(['--config', 'relative.json'], {})).toEqual({
      code: 2,
      stdout: '',
      stderr: '[external-context] --config must name an absolute file path.\n',
    });
  });
});

describe('probe as a spawned program', () => {
  test('--help prints the usage on stdout and exits 0', async () => {
    const result = await probeSpawned(['--help']);
    expect({ ...result, stdout: withSourceCommit(result.stdout) }).toEqual({ code: 0, stdout: help, stderr: '' });
    expect(help).toContain('USAGE');
    expect(help).toContain('EXIT CODES');
  });

  test('a validation failure is one stderr line with exit 2 and nothing on stdout', async () => {
    const result = await probeSpawned(['--preset', 'mem0-oss-rest-2026-08', '--origin', 'https://x.example']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: '[external-context] --preset must be one of: mem0-platform-v3, mem0-server-rest-2026-08, polardb-mysql-2026-08 ("mem0-oss-rest-2026-08" is retired; use "mem0-server-rest-2026-08")\n',
    });
  });

  test('a verdict: exit code 1 for preset-mismatch and the JSON on stdout only', async () => {
    const fake = await polardb({ scope: 'root-only' });
    const result = await probeSpawned([...polardbArgs(fake), '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)['exitCode']).toBe(1);
  });
});
