// `external-context gateway discover|call` (frontend-mcp.md §1.2): in-process through the
// dispatch table with a memory Io, plus spawned runs for the process contract (exit codes,
// SIGINT, and Node's abort listeners on the ESM bundle). The Node.js proxy refusal of both
// subcommands and a loopback server reached directly with proxy variables set run on every
// runtime in test/e2e/proxy-matrix.test.ts; gateway call on Node.js also in gateway-memory.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { run } from '../../src/cli/dispatch.ts';
import { UNTRUSTED_NOTICE } from '../../src/gateway/result/bound-result.ts';
import { eventually } from '../gateway/gateway-fixtures.ts';
import { startMcpServer, textResult, type TestServer, waitForAbort } from '../gateway/mcp-test-server.ts';
import { createTempFiles } from '../gateway/temp-files.ts';
import { expectNoCanary, CANARY } from '../support/canaries.ts';
import { cleanEnv } from '../support/env.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';
import { bundlePath, exePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { runProcess } from '../support/run-process.ts';

const files = createTempFiles('ec-gateway-cli-');
let docs: TestServer;
let slow: TestServer;

beforeAll(() => {
  docs = startMcpServer({
    tools: [{ name: 'search', description: 'Find <b>documents</b>.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'create_issue' }, { name: 'broken' }],
    onCall: (name, args) => (name === 'broken' ? textResult('failed <x>', { isError: true }) : textResult(`found <it> for ${JSON.stringify(args)}`)),
  });
  slow = startMcpServer({ tools: [{ name: 'wait' }], onCall: (_name, _args, context) => waitForAbort(context.signal) });
});
afterAll(async () => {
  await docs.close();
  await slow.close();
  files.remove();
});

function docsFile(extra: Record<string, unknown> = {}): string {
  return files.write({
    version: 1,
    servers: {
      documents: {
        enabled: true,
        url: docs.url,
        tools: {
          search: { enabled: true, readOnly: true, maxResultBytes: 4096 },
          create_issue: { enabled: true, readOnly: false, approval: 'required', description: 'Create an issue.' },
          broken: { enabled: true, readOnly: true },
        },
      },
      off: { enabled: false, url: 'https://off.example/mcp', headers: { authorization: '${OFF_TOKEN}' } },
      ...extra,
    },
  });
}

function cli(args: string[], env: Record<string, string> = {}): Promise<CapturedRun> {
  return runInMemory(run, args, { env });
}

const logLines = (stderr: string): unknown[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('gateway discover', () => {
  test('prints the Servers and Tools blocks and exits 0 when every enabled server is ready', async () => {
    const result = await cli(['gateway', 'discover', '--config', docsFile()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'Servers',
        '  documents  ready     3 tools',
        '  off        disabled',
        'Tools',
        '  mcp__documents__search        read-only          documents/search',
        '  mcp__documents__create_issue  approval-required  documents/create_issue',
        '  mcp__documents__broken        read-only          documents/broken',
        '',
      ].join('\n'),
    );
    expect(logLines(result.stderr)).toEqual([{ event: 'frontend_mcp.connected', server: 'documents', tools: 3 }]);
  });

  test('--json prints health entries and tools with their limits, angle brackets escaped', async () => {
    const result = await cli(['gateway', 'discover', '--json', '--config', docsFile()]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[<>]/);
    expect(result.stdout).toContain('Find \\u003cb\\u003edocuments\\u003c/b\\u003e.');
    expect(result.stdout.startsWith('{\n  "servers": [')).toBe(true);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.servers).toEqual([
      { key: 'documents', enabled: true, status: 'ready', tools: 3 },
      { key: 'off', enabled: false, status: 'disabled', tools: 0 },
    ]);
    expect(parsed.tools[0]).toEqual({
      name: 'mcp__documents__search',
      server: 'documents',
      remoteName: 'search',
      readOnly: true,
      approval: 'none',
      timeoutMs: 8000,
      maxResultBytes: 4096,
      maxCallsPerTurn: 2,
      description: 'Find <b>documents</b>.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    });
    expect(parsed.tools[1]).toMatchObject({ name: 'mcp__documents__create_issue', readOnly: false, approval: 'required', description: 'Create an issue.' });
  });

  test('exits 1 when an enabled server fails, showing its error in the Servers block', async () => {
    const file = docsFile({ missing: { enabled: true, url: docs.url, tools: { nope: { enabled: true, readOnly: true } } } });
    const result = await cli(['gateway', 'discover', '--config', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  missing    error     Enabled Frontend MCP tool is missing: missing/nope\n');
    expect(logLines(result.stderr)).toContainEqual({ event: 'frontend_mcp.connection_failed', server: 'missing', error: 'Enabled Frontend MCP tool is missing: missing/nope' });
  });

  test('reads QWEN_AUDIO_FRONTEND_MCP_CONFIG when --config is absent', async () => {
    expect((await cli(['gateway', 'discover'], { QWEN_AUDIO_FRONTEND_MCP_CONFIG: docsFile() })).code).toBe(0);
  });

  test('exits 2 with the spec message when there is no configuration at all (discover and call)', async () => {
    for (const args of [
      ['gateway', 'discover'],
      ['gateway', 'call', 'mcp__documents__search'],
    ]) {
      const result = await cli(args, { QWEN_AUDIO_FRONTEND_MCP_CONFIG: '' });
      expect(result).toEqual({ code: 2, stdout: '', stderr: '[external-context] gateway commands require --config <file> or QWEN_AUDIO_FRONTEND_MCP_CONFIG.\n' });
    }
  });

  test('exits 1 for a relative or empty --config and for an invalid or unreadable file', async () => {
    const cases: Array<[string, string]> = [
      ['frontend-mcp.json', 'Frontend MCP configuration path must be absolute.'],
      ['', 'Frontend MCP configuration path must be absolute.'],
      [files.write({ version: 2 }), 'Frontend MCP configuration version must be 1.'],
      [path.join(files.dir, 'absent.json'), 'Unable to read Frontend MCP configuration: the file does not exist'],
    ];
    for (const [config, message] of cases) {
      for (const sub of [['discover'], ['call', 'mcp__documents__search']]) {
        const result = await cli(['gateway', ...sub, '--config', config]);
        expect(result).toEqual({ code: 1, stdout: '', stderr: `[external-context] ${message}\n` });
      }
    }
  });

  test('never prints a header secret from ${VAR}, even when the server fails', async () => {
    const file = files.write({
      version: 1,
      servers: { remote: { enabled: true, url: 'https://127.0.0.1:1/mcp', connectTimeoutMs: 2000, headers: { authorization: '${DOC_TOKEN}' }, tools: { search: { enabled: true, readOnly: true } } } },
    });
    const result = await cli(['gateway', 'discover', '--json', '--config', file], { DOC_TOKEN: CANARY.credential });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).servers[0]).toEqual({ key: 'remote', enabled: true, status: 'error', tools: 0, error: 'Frontend MCP connection failed: remote' });
    expectNoCanary(result.stdout + result.stderr);
    const missing = await cli(['gateway', 'discover', '--config', file], {});
    expect(missing.stderr).toBe('[external-context] Frontend MCP environment variable is missing: DOC_TOKEN\n');
  });

  test('rejects unknown flags, stray arguments and unknown subcommands with exit 2', async () => {
    expect(await cli(['gateway', 'discover', '--bogus'])).toMatchObject({ code: 2, stderr: '[external-context] Unknown option --bogus. Run "external-context gateway discover --help".\n' });
    expect(await cli(['gateway', 'discover', 'extra', '--config', docsFile()])).toMatchObject({ code: 2 });
    expect(await cli(['gateway', 'frobnicate'])).toMatchObject({ code: 2, stderr: '[external-context] Unknown gateway subcommand. Run "external-context gateway --help".\n' });
    expect(await cli(['gateway'])).toMatchObject({ code: 2 });
  });

  test('prints help for gateway, gateway discover and gateway call', async () => {
    for (const [args, usage] of [
      [['gateway', '--help'], 'external-context gateway discover [--config <file>] [--json]'],
      [['gateway', 'discover', '--help'], 'external-context gateway discover [--config <file>] [--json]'],
      [['gateway', 'call', '-h'], 'external-context gateway call <model-visible name> [--args <json object>] [--config <file>]'],
    ] as const) {
      const result = await cli([...args]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      for (const heading of ['USAGE', 'OPTIONS', 'ENVIRONMENT', 'EXIT CODES', 'EXAMPLES']) expect(result.stdout).toContain(`\n${heading}\n`);
      expect(result.stdout).toContain(usage);
      expect(result.stdout.startsWith('external-context ')).toBe(true);
    }
  });
});

describe('gateway call', () => {
  test('prints the bounded envelope of a read-only tool, escaping angle brackets, and exits 0', async () => {
    const result = await cli(['gateway', 'call', 'mcp__documents__search', '--args', '{"q":"x"}', '--config', docsFile()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('found \\u003cit\\u003e');
    expect(result.stdout).not.toMatch(/[<>]/);
    expect(JSON.parse(result.stdout)).toEqual({ status: 'ok', notice: UNTRUSTED_NOTICE, text: 'found <it> for {"q":"x"}' });
    expect(result.stdout).toBe(`${JSON.stringify(JSON.parse(result.stdout), null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}\n`);
  });

  test('a remote result carrying tag characters and bidi controls prints them only as visible escapes (issue 27)', async () => {
    const planted = 'x\u{E0049}\u{E0067}\u202e\u2066';
    const result = await cli(['gateway', 'call', 'mcp__documents__search', '--args', JSON.stringify({ q: planted }), '--config', docsFile()]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u{E0000}-\u{E007F}\u202a-\u202e\u2066-\u2069]/u);
    // The envelope's text carries the escapes as visible text (frontend-mcp.md §7 step 1).
    expect((JSON.parse(result.stdout) as { text: string }).text).toBe('found <it> for {"q":"x\\udb40\\udc49\\udb40\\udc67\\u202e\\u2066"}');
  });

  test('defaults --args to {}', async () => {
    const before = docs.calls.length;
    expect((await cli(['gateway', 'call', 'mcp__documents__search', '--config', docsFile()])).code).toBe(0);
    expect(docs.calls.slice(before)).toEqual([{ name: 'search', args: {} }]);
  });

  test('exits 1 with the error envelope when the server reports an error', async () => {
    const result = await cli(['gateway', 'call', 'mcp__documents__broken', '--config', docsFile()]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'error', untrusted_error_text: 'failed <x>' });
  });

  test('refuses a writable tool without calling it, and an unknown name', async () => {
    const before = docs.calls.length;
    const writable = await cli(['gateway', 'call', 'mcp__documents__create_issue', '--args', '{"title":"t"}', '--config', docsFile()]);
    expect(writable.code).toBe(1);
    expect(writable.stdout).toBe('');
    expect(writable.stderr).toContain('[external-context] Frontend MCP tool requires approval and cannot be called from the command line.\n');
    const unknown = await cli(['gateway', 'call', 'mcp__documents__nope', '--config', docsFile()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[external-context] Frontend MCP tool is not enabled.\n');
    expect(docs.calls.length).toBe(before);
  });

  test('exits 2 for --args that is not a JSON object, and for a missing or extra name', async () => {
    for (const args of ['[1]', '"x"', 'null', 'not json', '']) {
      expect(await cli(['gateway', 'call', 'mcp__documents__search', '--args', args, '--config', docsFile()])).toEqual({
        code: 2,
        stdout: '',
        stderr: '[external-context] --args must be a JSON object.\n',
      });
    }
    expect((await cli(['gateway', 'call', '--config', docsFile()])).code).toBe(2);
    expect((await cli(['gateway', 'call', 'a', 'b', '--config', docsFile()])).code).toBe(2);
  });
});

describe('gateway as a process', () => {
  const exe = requireBuilt(exePath());

  test('external-context gateway discover exits 0, 1 and 2', async () => {
    const ok = await runProcess(exe, ['gateway', 'discover', '--config', docsFile()]);
    expect([ok.code, ok.stdout.split('\n')[0]]).toEqual([0, 'Servers']);
    const failed = await runProcess(exe, ['gateway', 'discover', '--config', 'relative.json']);
    expect([failed.code, failed.stderr]).toEqual([1, '[external-context] Frontend MCP configuration path must be absolute.\n']);
    const usage = await runProcess(exe, ['gateway', 'discover']);
    expect([usage.code, usage.stderr]).toEqual([2, '[external-context] gateway commands require --config <file> or QWEN_AUDIO_FRONTEND_MCP_CONFIG.\n']);
  });

  test('gateway call reaches a loopback server directly even with proxy variables set', async () => {
    const env = cleanEnv({ HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' });
    const result = await runProcess(exe, ['gateway', 'call', 'mcp__documents__search', '--args', '{"q":"exe"}', '--config', docsFile()], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'ok', text: 'found <it> for {"q":"exe"}' });
  });

  test('SIGINT aborts gateway call; the server receives notifications/cancelled', async () => {
    const file = files.write({ version: 1, servers: { slow: { enabled: true, url: slow.url, tools: { wait: { enabled: true, readOnly: true, timeoutMs: 30000 } } } } });
    const child = spawn(exe, ['gateway', 'call', 'mcp__slow__wait', '--config', file], { env: cleanEnv(), stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await eventually(() => slow.calls.length === 1, 'the slow server received one call');
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(stderr).toContain('[external-context] Frontend MCP tool timed out or was interrupted.\n');
    await eventually(() => slow.received.some((message) => message['method'] === 'notifications/cancelled'), 'the slow server received notifications/cancelled');
  });
});

const ABORT_LISTENERS = proves('node-abort-listeners', ['node-bundle']);

describe(`gateway on Node.js (ESM bundle) ${ABORT_LISTENERS('node-bundle')}`, () => {
  const bundle = requireBuilt(bundlePath());

  test('discover reads 12 tools/list pages without leaving an abort listener per page (no MaxListeners warning)', async () => {
    const paged = startMcpServer({ tools: Array.from({ length: 12 }, (_, i) => ({ name: `t${i}` })), pageSize: 1 });
    try {
      const file = files.write({ version: 1, servers: { paged: { enabled: true, url: paged.url, tools: { t11: { enabled: true, readOnly: true } } } } });
      const result = await runProcess('node', [bundle, 'gateway', 'discover', '--config', file], { env: cleanEnv({}) });
      expect(result.code).toBe(0);
      expect(paged.received.filter((message) => message['method'] === 'tools/list')).toHaveLength(12);
      expect(result.stderr).not.toContain('MaxListeners');
    } finally {
      await paged.close();
    }
  });
});
