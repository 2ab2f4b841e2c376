// The real Mem0 engine tier (mem0-services.md §4): the mem0-server-rest-2026-08 preset searches
// and writes (Direct Import, infer:false, stored with the returned id) end to end through the
// compiled executable under the SDK client, and the probe reaches a verdict against it.
// Needs `npm run fixtures` (test/services/mem0-engine) and `npm run build` (dist/external-context).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { mem0EngineTier, startMem0Engine, type Mem0EngineService } from './mem0-engine-service.ts';

const tier = mem0EngineTier();
registerFixtureGate(tier);

const API_KEY = 'ec-canary-credential-Q7xK2m9P';
const CREDENTIAL_ENV = 'MEM0_ENGINE_TEST_KEY';
const PRESET = 'mem0-server-rest-2026-08';
const CONTENT = 'Use pnpm for installs in this repository.';

function requireExecutable(): string {
  const exe = requireBuilt(exePath());
  return exe;
}

function serverConfig(origin: string, userId: string): Record<string, unknown> {
  return {
    version: 1,
    provider: {
      type: 'mem0',
      preset: PRESET,
      endpoint: { origin },
      credentialEnv: CREDENTIAL_ENV,
      scope: { userId, agentId: 'qwen-code' },
    },
    write: { enabled: true },
  };
}

interface ToolText {
  readonly text: string;
  readonly isError: boolean;
  readonly structured: unknown;
}

function toolText(result: Awaited<ReturnType<Awaited<ReturnType<typeof spawnServer>>['client']['callTool']>>): ToolText {
  const content = result.content as readonly { type: string; text?: string }[];
  return { text: content[0]?.text ?? '', isError: result.isError === true, structured: result.structuredContent };
}

describe.skipIf(!tier.installed)('the real Mem0 engine behind the stock REST routes', () => {
  let engine: Mem0EngineService;

  beforeAll(async () => {
    engine = await startMem0Engine(API_KEY);
  });

  afterAll(async () => {
    await engine?.close();
    await removeTempDirs();
  });

  test('dist/external-context writes with Direct Import, gets stored with the returned id, and finds it by search', async () => {
    const config = await writeConfigFile(serverConfig(engine.origin, 'engine-user-1'));
    const server = await spawnServer(requireExecutable(), ['serve', '--config', config], cleanEnv({ [CREDENTIAL_ENV]: API_KEY }));
    try {
      const { tools } = await server.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['context_search', 'context_remember']);

      const stored = toolText(await server.client.callTool({ name: 'context_remember', arguments: { content: CONTENT } }));
      expect(stored.isError).toBe(false);
      const parsed = JSON.parse(stored.text) as { status: string; providerOperationId: string };
      expect(Object.keys(parsed)).toEqual(['status', 'providerOperationId']);
      expect(parsed.status).toBe('stored');
      expect(parsed.providerOperationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

      const found = toolText(await server.client.callTool({ name: 'context_search', arguments: { query: 'pnpm installs' } }));
      expect(found.isError).toBe(false);
      const envelope = found.structured as { untrusted_external_context: { items: { id: string; content: string; score?: number }[] } };
      expect(JSON.parse(found.text)).toEqual(envelope);
      const items = envelope.untrusted_external_context.items;
      expect(items.map((item) => [item.id, item.content])).toEqual([[parsed.providerOperationId, CONTENT]]);
    } finally {
      await server.close();
    }
    expectNoCanary(server.stderr());
  });

  test('a search bound to another userId does not see the memory', async () => {
    const config = await writeConfigFile(serverConfig(engine.origin, 'engine-user-2'));
    const server = await spawnServer(requireExecutable(), ['serve', '--config', config], cleanEnv({ [CREDENTIAL_ENV]: API_KEY }));
    try {
      const found = toolText(await server.client.callTool({ name: 'context_search', arguments: { query: 'pnpm installs' } }));
      expect(found.isError).toBe(false);
      expect((found.structured as { untrusted_external_context: { items: unknown[] } }).untrusted_external_context.items).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('probe with flags reaches the already-dual-placement verdict and reads the served schema', async () => {
    const result = await runProcess(
      requireExecutable(),
      ['probe', '--preset', PRESET, '--origin', engine.origin, '--user-id', 'engine-user-1', '--agent-id', 'qwen-code', '--credential-env', CREDENTIAL_ENV],
      { env: cleanEnv({ [CREDENTIAL_ENV]: API_KEY }) },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Endpoint: ${engine.origin}/search  (read-only)\n`);
    expect(result.stdout).toContain('  SearchRequest: query, user_id, run_id, agent_id, filters, top_k, threshold, explain, show_expired\n  additionalProperties: (unset)\n');
    expect(result.stdout).toMatch(/\n2\. This preset, through the real adapter\n {2}ok: \d+ usable items?\n/);
    expect(result.stdout).toContain('\n3. Unknown-field policy\n  ignored (HTTP 200)\n');
    expect(result.stdout).not.toContain('4. Scope placement');
    expect(result.stdout.endsWith('\nVerdict\n  ALREADY DUAL: this preset already sends scope at the request root and under "filters".\n')).toBe(true);
    expectNoCanary(result.stdout + result.stderr);
  });

  test('probe --config --json reports the same verdict as one JSON object', async () => {
    const config = await writeConfigFile(serverConfig(engine.origin, 'engine-user-1'));
    const result = await runProcess(requireExecutable(), ['probe', '--config', config, '--json'], {
      env: cleanEnv({ [CREDENTIAL_ENV]: API_KEY }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['preset', 'endpoint', 'declaredSchema', 'baseline', 'unknownFieldPolicy', 'placements', 'verdict', 'exitCode']);
    expect(report['verdict']).toBe('already-dual-placement');
    expect(report['exitCode']).toBe(0);
    expect(report['placements']).toBeNull();
    expect(report['unknownFieldPolicy']).toEqual({ result: 'ignored', status: 200 });
    expect((report['declaredSchema'] as { name: string; additionalProperties: unknown }).additionalProperties).toBeNull();
    expectNoCanary(result.stdout);
  });

  test('probe with a wrong key gets the unauthorized verdict naming HTTP 401, never preset-mismatch, without the key', async () => {
    const wrongKey = `${API_KEY}-wrong`;
    const result = await runProcess(requireExecutable(), ['probe', '--preset', PRESET, '--origin', engine.origin, '--user-id', 'engine-user-1', '--credential-env', CREDENTIAL_ENV], {
      env: cleanEnv({ [CREDENTIAL_ENV]: wrongKey }),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('UNAUTHORIZED: this endpoint refused the credential; the preset was not tested.\n  Cause: http-status 401\n');
    expect(result.stdout).not.toContain('MISMATCH');
    expectNoCanary(result.stdout + result.stderr);
  });
});
