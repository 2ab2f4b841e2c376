// Gemini CLI 0.61.0 and Codex 0.169.0 load the shipped configuration examples (agents.md §3, §4):
// the real CLI lists the compiled executable as its MCP server — Gemini CLI starts it and shows
// it Connected; Codex lists it enabled with the credential variable masked. Their model turns
// are not driven here (agents.md §4 says why); their Hook shapes are unit-tested in
// test/hooks/hosts.test.ts.
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readExample, substitute, EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { runProcess } from '../support/run-process.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { AGENT_FIXTURES, agentBin, agentTier, exampleWithPaths, GEMINI_SINGLE_PROCESS, newAgentSession } from './agents-harness.ts';
import { requireExecutable, stripAnsi } from './qwen-harness.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const TOKEN = 'e2e-agents-config-token';
const geminiTier = agentTier(AGENT_FIXTURES.gemini);
const codexTier = agentTier(AGENT_FIXTURES.codex);
registerFixtureGate(geminiTier);
registerFixtureGate(codexTier);

let generic: GenericHttpFake | undefined;
afterAll(async () => {
  await generic?.close();
  await removeTempDirs();
});

async function searchConfig(dir: string): Promise<string> {
  generic ??= await startGenericHttpFake({ token: TOKEN, items: [] });
  const file = join(dir, 'search.json');
  writeFileSync(file, JSON.stringify(substitute(readExample('generic-http.json'), { 'https://context.example.com': generic.origin })));
  return file;
}

describe.skipIf(!geminiTier.installed)(`Gemini CLI ${AGENT_FIXTURES.gemini.version} loads contracts/examples/gemini-cli/`, () => {
  test('gemini mcp list: external-context from managed-search-settings.json is Connected; nothing of the credential is printed', async () => {
    const exe = requireExecutable();
    const session = await newAgentSession('ec-gemini-');
    const config = await searchConfig(session.dir);
    const settings = exampleWithPaths('gemini-cli/managed-search-settings.json', { executable: exe, config, pinned: '/etc/external-context/search.json' });
    const server = (settings['mcpServers'] as Record<string, Record<string, unknown>>)['external-context'] as Record<string, unknown>;
    server['cwd'] = session.dir;
    // Gemini CLI refuses a system settings file below the world-writable /tmp and suppresses
    // servers in untrusted folders, so the test uses the user settings with folder trust off.
    session.writeJson('home/.gemini/settings.json', { ...settings, security: { folderTrust: { enabled: false } } });
    const result = await runProcess(agentBin(AGENT_FIXTURES.gemini), ['mcp', 'list'], {
      cwd: session.work,
      env: session.env({ ...GEMINI_SINGLE_PROCESS, CONTEXT_API_TOKEN: TOKEN, GEMINI_API_KEY: 'offline-dummy' }),
      timeoutMs: LIVENESS_MS,
    });
    expect(stripAnsi(result.stdout + result.stderr)).toContain(`external-context: ${exe} serve --config ${config} (stdio) - Connected`);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  }, 120_000);
});

describe.skipIf(!codexTier.installed)(`Codex ${AGENT_FIXTURES.codex.version} loads contracts/examples/codex/`, () => {
  test('codex mcp list: external-context from search-config.toml is enabled with the pinned executable, configuration and masked credential variable', async () => {
    const exe = requireExecutable();
    const session = await newAgentSession('ec-codex-');
    const config = await searchConfig(session.dir);
    const toml = readFileSync(join(EXAMPLES_DIR, 'codex', 'search-config.toml'), 'utf8')
      .replaceAll('/opt/external-context/bin/external-context', exe)
      .replaceAll('/etc/external-context/search.json', config)
      .replaceAll('cwd = "/opt/external-context"', `cwd = "${session.dir}"`);
    writeFileSync(join(session.home, 'config.toml'), toml);
    const result = await runProcess(agentBin(AGENT_FIXTURES.codex), ['mcp', 'list'], {
      cwd: session.work,
      env: session.env({ CODEX_HOME: session.home, CONTEXT_API_TOKEN: TOKEN }),
      timeoutMs: LIVENESS_MS,
    });
    expect(result.code).toBe(0);
    const line = result.stdout.split('\n').find((text) => text.startsWith('external-context '));
    expect(line?.split(/\s{2,}/)).toEqual(['external-context', exe, `serve --config ${config}`, 'CONTEXT_API_TOKEN=*****', session.dir, 'enabled', 'Unsupported']);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  }, 120_000);
});
