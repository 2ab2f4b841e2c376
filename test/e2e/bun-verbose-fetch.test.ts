// Regression (issue 11 canary hunting): with BUN_CONFIG_VERBOSE_FETCH set in the environment,
// the standalone executable (Bun) printed every provider exchange to stderr — in `curl` mode
// with the `authorization` credential, the query and the body in clear, in the other modes with
// the `x-api-key` credential unredacted — from the stdio server, `check` and even the silent
// auto-recall Hook. src/runtime/fetch-bun.ts now pins `verbose: false` on every request.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFakeServer, type FakeServer } from '../fakes/fake-server.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { CANARY } from '../support/canaries.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

let generic: FakeServer;
let mem0: Mem0ServerFake;
let root: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  generic = await startFakeServer({ handler: () => ({ status: 200, json: { items: [{ id: 'doc-1', content: 'Verbose logging stays off.' }] } }) });
  mem0 = await startMem0ServerFake({ apiKey: CANARY.credential, memories: [{ id: 'mem-1', memory: 'Verbose logging stays off.', user_id: 'u1' }] });
  const dir = await makeTempDir('ec-verbose-fetch-');
  root = dir.path;
  const genericProvider = { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: 'TOKEN' };
  files['generic'] = await writeConfigFile({ version: 1, provider: genericProvider }, { dir: root, name: 'generic.json' });
  files['genericV2'] = await writeConfigFile({ version: 2, provider: genericProvider, autoRecall: { repositoryRoot: root } }, { dir: root, name: 'generic-v2.json' });
  files['mem0'] = await writeConfigFile(
    {
      version: 1,
      provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: 'TOKEN', scope: { userId: 'u1' } },
      write: { enabled: true },
    },
    { dir: root, name: 'mem0.json' },
  );
});
afterAll(async () => {
  await generic.close();
  await mem0.close();
  await removeTempDirs();
});

describe.each(['curl', 'true', '1'])('BUN_CONFIG_VERBOSE_FETCH=%s', (mode) => {
  const env = (): Record<string, string> => cleanEnv({ TOKEN: CANARY.credential, BUN_CONFIG_VERBOSE_FETCH: mode });

  test('check --search and the auto-recall Hook write nothing to stderr', async () => {
    const check = await runProcess(exePath(), ['check', '--config', files['generic'] as string, '--search', CANARY.query], { env: env() });
    expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
    const hook = await runProcess(exePath(), ['hook', 'auto-recall', '--config', files['genericV2'] as string], {
      env: env(),
      stdin: JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: CANARY.query, cwd: root }),
    });
    expect({ code: hook.code, stderr: hook.stderr }).toEqual({ code: 0, stderr: '' });
    expect(hook.stdout).toContain('additionalContext');
  });

  test('the stdio server logs neither the x-api-key credential nor the content of a search and a write', async () => {
    const server = await spawnServer(exePath(), ['serve', '--config', files['mem0'] as string], env());
    try {
      expect((await server.client.callTool({ name: 'context_search', arguments: { query: CANARY.query } })).isError).toBeUndefined();
      expect((await server.client.callTool({ name: 'context_remember', arguments: { content: CANARY.content } })).isError).toBeUndefined();
    } finally {
      await server.close();
    }
    expect(server.stderr()).toBe('');
  });
});
