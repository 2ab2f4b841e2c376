// What a hostile remote server can put into tool definitions and results (frontend-mcp.md §5,
// §6, §2.3): controls and bidirectional overrides in descriptions are removed, a 5,000-level
// input schema is a schema error on every runtime, a result whose content is not an array is a
// failure, and connectTimeoutMs: 1e400 is an out-of-range value, not invalid JSON.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { normalizeInputSchema, toolDescription } from '../../src/gateway/discovery/build-tool-candidates.ts';
import { connectServer } from '../../src/gateway/discovery/connect-server.ts';
import { callRemoteTool } from '../../src/gateway/result/call-remote-tool.ts';
import { finalizeTool } from '../../src/gateway/gateway-tool.ts';
import { type BundleLauncher, launchers } from '../support/launchers.ts';
import { runProcess } from '../support/run-process.ts';
import { cleanEnv } from '../support/env.ts';
import { server } from './gateway-fixtures.ts';
import { startRawMcpServer } from './raw-mcp-server.ts';
import { createTempFiles } from './temp-files.ts';

const files = createTempFiles('ec-hostile-definitions-');
afterAll(() => files.remove());

function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

test('toolDescription() removes NUL, other controls and bidirectional overrides and isolates from a remote description', () => {
  const remote = 'Safe\u0000 text \u202Eevil\u202C and \u2066isolate\u2069\u0007 end\u007f';
  expect(toolDescription(undefined, remote, 's/t', true)).toBe('Safe text evil and isolate end');
});

test('normalizeInputSchema() reports a 5,000-level schema as over the limit, not a stack overflow', () => {
  expect(() => normalizeInputSchema(deepSchema(5000))).toThrow('Frontend MCP tool input schema exceeds the limit.');
  expect(normalizeInputSchema(deepSchema(20))).toMatchObject({ type: 'object' });
});

test('a tools/call result whose content is not an array fails instead of reporting ok with no text', async () => {
  const raw = startRawMcpServer('search', '{"content":"not an array"}');
  try {
    const connection = await connectServer(server('docs', raw.url, {}), { signal: AbortSignal.timeout(8000), onToolsChanged: () => {} });
    const tool = finalizeTool(
      {
        serverKey: 'docs',
        remoteName: 'search',
        description: 'S.',
        parameters: { type: 'object' },
        policy: { mode: 'inline', readOnly: true, approval: 'none', timeoutMs: 8000, maxResultBytes: 4096, maxCallsPerTurn: 2 },
      },
      'mcp__docs__search',
    );
    await expect(callRemoteTool(connection, tool, {}, undefined)).rejects.toMatchObject({ code: 'frontend_mcp_tool_failed' });
    await connection.close();
  } finally {
    await raw.close();
  }
});

describe('gateway discover on every runtime', () => {
  let deep: { url: string; stop(): void };
  beforeAll(() => {
    const schema = JSON.stringify(deepSchema(5000));
    const bun = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(request) {
        if (request.method !== 'POST') return new Response(null, { status: 405 });
        const message = (await request.json()) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
        if (message.id === undefined) return new Response(null, { status: 202 });
        const result =
          message.method === 'initialize'
            ? JSON.stringify({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1' } })
            : `{"tools":[{"name":"search","inputSchema":${schema}}]}`;
        return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`, { headers: { 'content-type': 'application/json' } });
      },
    });
    deep = { url: `http://127.0.0.1:${bun.port}/mcp`, stop: () => void bun.stop(true) };
  });
  afterAll(() => deep.stop());

  const runtimes: BundleLauncher[] = launchers();
  for (const runtime of runtimes) {
    test(`${runtime.label}: a 5,000-level schema is a schema error; connectTimeoutMs 1e400 is out of range`, async () => {
      const config = files.write({ version: 1, servers: { d: { enabled: true, url: deep.url, tools: { search: { enabled: true, readOnly: true } } } } });
      const result = await runProcess(runtime.command, [...runtime.args, 'gateway', 'discover', '--config', config], { env: cleanEnv() });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('  d  error     Frontend MCP tool input schema exceeds the limit.\n');
      const huge = files.write('{"version":1,"servers":{"d":{"enabled":true,"url":"http://127.0.0.1:9/mcp","connectTimeoutMs":1e400,"tools":{}}}}');
      const invalid = await runProcess(runtime.command, [...runtime.args, 'gateway', 'discover', '--config', huge], { env: cleanEnv() });
      expect({ code: invalid.code, stderr: invalid.stderr }).toEqual({ code: 1, stderr: '[external-context] Frontend MCP policy value must be 100-30000.\n' });
    });
  }
});
