// `eval` against the real Mem0 engine tier (docs/design/eval.md §1, mem0-services.md §4): two
// memories written through the executable's context_remember, then scored by their ids.
// Needs `npm run fixtures` (test/services/mem0-engine) and `npm run build`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoCanary } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { exePath, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { mem0EngineTier, startMem0Engine, type Mem0EngineService } from './mem0-engine-service.ts';

const tier = mem0EngineTier();
registerFixtureGate(tier);

const API_KEY = 'ec-canary-credential-Q7xK2m9P';
const CREDENTIAL_ENV = 'MEM0_ENGINE_TEST_KEY';
const MEMORIES = ['Use pnpm for installs in this repository.', 'Release tags are signed with the team GPG key.'];

describe.skipIf(!tier.installed)('eval against the real Mem0 engine', () => {
  let engine: Mem0EngineService;

  beforeAll(async () => {
    engine = await startMem0Engine(API_KEY);
  });

  afterAll(async () => {
    await engine?.close();
    await removeTempDirs();
  });

  test('scores searches through the mem0-server-rest-2026-08 preset by memory id', async () => {
    const exe = requireBuilt(exePath());
    const config = await writeConfigFile({
      version: 1,
      provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: engine.origin }, credentialEnv: CREDENTIAL_ENV, scope: { userId: 'eval-user' } },
      write: { enabled: true },
    });
    const env = cleanEnv({ [CREDENTIAL_ENV]: API_KEY });
    const server = await spawnServer(exe, ['serve', '--config', config], env);
    const ids: string[] = [];
    try {
      for (const content of MEMORIES) {
        const result = await server.client.callTool({ name: 'context_remember', arguments: { content } });
        const text = (result.content as { text: string }[])[0]?.text ?? '';
        ids.push((JSON.parse(text) as { providerOperationId: string }).providerOperationId);
      }
    } finally {
      await server.close();
    }
    const dir = await makeTempDir('ec-eval-mem0-');
    const questions = join(dir.path, 'questions.jsonl');
    writeFileSync(questions, [JSON.stringify({ query: 'pnpm installs', relevant: [ids[0]] }), JSON.stringify({ query: 'signed release tags GPG', relevant: [ids[1]] })].join('\n'));
    const result = await runProcess(exe, ['eval', '--config', config, '--questions', questions, '--json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const figures = JSON.parse(result.stdout) as Record<string, number>;
    expect(figures).toMatchObject({ questions: 2, failed: 0, noItems: 0 });
    expect(figures['mrr']).toBeGreaterThan(0);
    expectNoCanary(result.stdout + result.stderr);
  });
});
