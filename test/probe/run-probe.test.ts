// The probe against bad endpoints (issue 6, "Bad input"; probe.md §2 detail texts): unreachable
// and redirecting origins, 401, 404 on the search path, HTML error pages, huge or malformed
// OpenAPI documents, echoed credentials and terminal escapes. Each gives clear report lines, the
// right exit code, nothing on stderr, no stack trace and no secret.
import { afterEach, describe, expect, test } from 'bun:test';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startMem0ServerFake, type Mem0ServerFake, type Mem0ServerFakeOptions } from '../fakes/mem0-server.ts';
import { expectNoCanary } from '../support/canaries.ts';
import { KEY, probe, requestLines, type ProbeRun } from './probe-harness.ts';

const POLARDB = 'polardb-mysql-2026-08';
const SERVER = 'mem0-server-rest-2026-08';
const MEMORIES = [
  { id: 'm1', memory: 'one', user_id: 'u1' },
  { id: 'm2', memory: 'two', user_id: 'u1' },
];
const ONE_MIB = 1024 * 1024;
const open: { close(): Promise<void> }[] = [];

async function fakeOf(options: Partial<Mem0ServerFakeOptions> = {}): Promise<Mem0ServerFake> {
  const fake = await startMem0ServerFake({ routes: 'polardb', apiKey: KEY, scope: 'merge', openapi: true, memories: MEMORIES, ...options });
  open.push(fake);
  return fake;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** Nothing on stderr, no stack trace, no canary anywhere. */
function expectClean(result: ProbeRun): void {
  expect(result.stderr).toBe('');
  expect(result.stdout).not.toMatch(/^\s+at /m);
  expect(result.stdout).not.toContain('Error');
  expectNoCanary(result.stdout + result.stderr);
}

const args = (origin: string, ...extra: string[]): string[] => ['--preset', POLARDB, '--origin', origin, '--user-id', 'u1', ...extra];

describe('probe against unreachable and redirecting origins', () => {
  test('nothing listening: not served, connection-refused, status 0 "request did not complete", unreachable (never preset-mismatch), exit 1', async () => {
    const gone = await startFakeServer();
    const origin = gone.origin;
    await gone.close();
    const result = await probe(args(origin));
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('\n1. Declared schema\n  not served\n');
    expect(result.stdout).toContain('\n  failed: connection-refused\n');
    expect(result.stdout).toContain('\n3. Unknown-field policy\n  inconclusive (HTTP 0) request did not complete\n');
    expect(result.stdout).not.toContain('MISMATCH');
    expect(result.stdout).toContain(
      '\nVerdict\n  UNREACHABLE: the probe could not reach this endpoint; the preset was not tested.\n  Cause: connection-refused\n  Hint: Nothing accepts connections at that host and port',
    );
  });

  test('a redirecting origin: statuses reported, no redirect followed, the target never contacted', async () => {
    const target = await startFakeServer();
    open.push(target);
    const fake = await fakeOf();
    fake.override({ kind: 'redirect', status: 302, location: `${target.origin}/elsewhere` });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  not served (HTTP 302)\n');
    expect(result.stdout).toContain('  failed: redirect 302\n');
    expect(result.stdout).toContain('  inconclusive (HTTP 302)\n');
    expect(requestLines(fake.requests)).toEqual(['GET /openapi.json', 'POST /v2/memories/search', 'POST /v2/memories/search']);
    expect(target.requests).toEqual([]);
  });
});

describe('probe against rejecting endpoints', () => {
  test('401: the baseline fails with http-status 401, verdict unauthorized, and the unknown-field row shows the 401 body', async () => {
    const fake = await fakeOf({ routes: 'stock', scope: 'merge' });
    const result = await probe(['--preset', SERVER, '--origin', fake.origin, '--user-id', 'u1'], { MEM0_API_KEY: 'a-wrong-key' });
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  failed: http-status 401\n');
    expect(result.stdout).toContain('  inconclusive (HTTP 401) {"detail":"Invalid API key."}\n');
    expect(result.stdout).toContain('\n  UNAUTHORIZED: this endpoint refused the credential; the preset was not tested.\n');
  });

  test('404 on the search path (a wrong base path): not served (HTTP 404), failed: http-status 404, the 404 body, preset-mismatch', async () => {
    const fake = await fakeOf();
    const result = await probe(args(fake.origin, '--base-path', '/wrong/'));
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Endpoint: ${fake.origin}/wrong/v2/memories/search  (read-only)\n`);
    expect(result.stdout).toContain('  not served (HTTP 404)\n');
    expect(result.stdout).toContain('  failed: http-status 404\n');
    expect(result.stdout).toContain('  inconclusive (HTTP 404) {"detail":"Not Found"}\n');
    expect(requestLines(fake.requests)).toEqual(['GET /wrong/openapi.json', 'POST /wrong/v2/memories/search', 'POST /wrong/v2/memories/search']);
  });

  test('an HTML error page: one line, whitespace collapsed, cut to 300 code points', async () => {
    const fake = await fakeOf();
    const html = `<!DOCTYPE html>\n<html>\n  <head><title>502 Bad Gateway</title></head>\n\t<body>\r\n${'<p>upstream   unavailable</p>\n'.repeat(40)}</body>\n</html>\n`;
    fake.override({ kind: 'reply', status: 502, body: html, headers: { 'content-type': 'text/html' } });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  not served (HTTP 502)\n');
    expect(result.stdout).toContain('  failed: http-status 502\n');
    const line = result.stdout.split('\n').find((row) => row.startsWith('  inconclusive (HTTP 502) '))!;
    const detail = line.slice('  inconclusive (HTTP 502) '.length);
    expect(detail).toStartWith('<!DOCTYPE html> <html> <head><title>502 Bad Gateway</title></head> <body> <p>upstream unavailable</p> <p>');
    expect([...detail].length).toBe(300);
    expect(detail).not.toMatch(/\s{2}|[\t\r\n]/);
  });

  test('the credential echoed in an error body is printed as [redacted]', async () => {
    const fake = await fakeOf();
    fake.override({ kind: 'reply', status: 400, json: { detail: `Invalid key ${KEY}; expected Token ${KEY}` } }, { method: 'POST' });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('  rejected (HTTP 400) {"detail":"Invalid key [redacted]; expected Token [redacted]"}\n');
    const json = await probe(args(fake.origin, '--json'));
    expectNoCanary(json.stdout);
    expect(JSON.parse(json.stdout)['unknownFieldPolicy']['detail']).toBe('{"detail":"Invalid key [redacted]; expected Token [redacted]"}');
  });

  test('ANSI escape sequences, C1 controls and bidi overrides in an error body are removed', async () => {
    const fake = await fakeOf();
    fake.override({ kind: 'reply', status: 500, body: '\u001b[31mred\u001b[0m \u009b2J\u202egnp.exe\u200b\u0007 done\u007f' }, { method: 'POST' });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('  inconclusive (HTTP 500) [31mred[0m 2Jgnp.exe done\n');
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
  });
});

describe('probe with a huge or malformed OpenAPI document', () => {
  test('a declared content-length over 1 MiB: not served, the probe goes on', async () => {
    const fake = await fakeOf();
    fake.override({ kind: 'reply', status: 200, body: 'x', headers: { 'content-length': String(ONE_MIB + 1) } }, { method: 'GET' });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('\n1. Declared schema\n  not served\n\n');
    expect(result.code).toBe(0);
  });

  test('a streamed document over 1 MiB without content-length: not served', async () => {
    const fake = await fakeOf();
    const chunk = ' '.repeat(256 * 1024);
    fake.override({ kind: 'chunked', chunks: ['{"components":', chunk, chunk, chunk, chunk, chunk, '{}}'] }, { method: 'GET' });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('\n1. Declared schema\n  not served\n\n');
  });

  test('malformed JSON, a wrong shape, and a schema without properties: not served', async () => {
    const fake = await fakeOf();
    for (const body of ['{not json', '[]', '{"components":{"schemas":{"SearchRequest":{"type":"object"}}}}', '{"components":{"schemas":{"SearchRequest":{"properties":[]}}}}']) {
      fake.reset();
      fake.override({ kind: 'reply', status: 200, body }, { method: 'GET' });
      const result = await probe(args(fake.origin));
      expectClean(result);
      expect(result.stdout).toContain('\n1. Declared schema\n  not served\n\n');
    }
  });

  test('SearchMemoryRequest is used when SearchRequest has no properties; hostile field names are cleaned', async () => {
    const fake = await fakeOf();
    const document = {
      components: {
        schemas: {
          SearchRequest: { type: 'object' },
          SearchMemoryRequest: { properties: { query: {}, '\u001b[2Jtop_k': {}, [KEY]: {} }, additionalProperties: { type: 'string' } },
        },
      },
    };
    fake.override({ kind: 'reply', status: 200, json: document }, { method: 'GET' });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('\n  SearchMemoryRequest: query, [2Jtop_k, [redacted]\n  additionalProperties: {"type":"string"}\n');
  });
});

describe('probe with unusable 2xx answers', () => {
  test('not JSON, no results array and an unreadable body each get their fixed detail', async () => {
    const fake = await fakeOf();
    const search = { method: 'POST', path: '/v2/memories/search', times: 1 } as const;
    fake.override({ kind: 'invalid-utf8', template: '{"results":[{"id":"@@INVALID@@"}]}' }, search); // both
    fake.override({ kind: 'reply', status: 200, json: { data: [] } }, search); // request root only
    fake.override({ kind: 'reply', status: 200, body: 'ok' }, search); // filters only
    fake.override({ kind: 'passthrough' }, { ...search, times: 2 }); // baseline, unknown field
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain(
      [
        '4. Scope placement',
        '  filters only (preset)   HTTP 200 response was not valid JSON',
        '  request root only       HTTP 200 response had no results array',
        '  both                    HTTP 200 response body was unreadable',
      ].join('\n'),
    );
    // A 2xx without ids is no evidence: the filters-only row decides empty-corpus.
    expect(result.stdout).toContain('INCONCLUSIVE: the baseline search matched no memories.');
    expect(result.code).toBe(1);
  });

  test('a baseline answer without a results array fails with the invalid-response message', async () => {
    const fake = await fakeOf();
    fake.override({ kind: 'reply', status: 200, json: [] }, { method: 'POST', path: '/v2/memories/search', times: 1 });
    const result = await probe(args(fake.origin));
    expectClean(result);
    expect(result.stdout).toContain('  failed: invalid-envelope\n');
    expect(result.code).toBe(1);
  });
});
