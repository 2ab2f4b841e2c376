// Claude Code 2.1.332 and Gemini CLI 0.61.0 with the shipped files in their managed paths (agents.md
// §4; issue 29 items 4 and 6): inside a private mount namespace (managed-namespace.ts) the examples
// are placed unedited as `/etc/claude-code/managed-mcp.json` and `managed-settings.json`, and as
// `/etc/gemini-cli/settings.json`, with the configuration at `/etc/external-context/*.json` and
// the executable at `/opt/external-context/bin/external-context`. No run passes `--mcp-config`,
// `--settings` or `--strict-mcp-config` for the product's files: the managed paths are what is
// tested. Claude Code: `managed-mcp.json` has exclusive control of MCP servers (a user-scope
// server is ignored and a `--mcp-config` refused, stricter than `--strict-mcp-config`). Gemini CLI: the working
// folder is trusted through `~/.gemini/trustedFolders.json`, not by turning folder trust off.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { type AnthropicModelFake, blocksOf, startAnthropicModelFake, toolResultText } from '../fakes/anthropic-model.ts';
import { declaredFunctions, type GeminiModelFake, type GenerateRequest, startGeminiModelFake } from '../fakes/gemini-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, AGENT_SEARCH, agentBin, agentTier, filesContaining, GEMINI_SINGLE_PROCESS, newAgentSession, useAgentTierServices } from './agents-harness.ts';
import { inManagedNamespace, MANAGED_EXECUTABLE, managedNamespaceTier } from './managed-namespace.ts';

const CLAUDE = AGENT_FIXTURES.claude;
const GEMINI = AGENT_FIXTURES.gemini;
const claudeTier = agentTier(CLAUDE);
const geminiTier = agentTier(GEMINI);
registerFixtureGate(claudeTier);
registerFixtureGate(geminiTier);
const namespace = managedNamespaceTier('Claude Code and Gemini CLI in their managed paths');
registerToolGate(namespace);

const TOKEN = 'e2e-managed-paths-token';
const MEMORY = 'Deploy with the reviewed workflow.';
const { ITEM, ENVELOPE_TEXT, RUN_TIMEOUT_MS, TEST_TIMEOUT_MS } = AGENT_SEARCH;

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

function expectNoCredential(result: ProcessResult, home: string): void {
  expect(result.stdout).not.toContain(TOKEN);
  expect(result.stderr).not.toContain(TOKEN);
  expect(filesContaining(home, TOKEN)).toEqual([]);
}

describe.skipIf(!claudeTier.installed || namespace.missing !== undefined)(`Claude Code ${CLAUDE.version} with the examples in /etc/claude-code`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-claude-managed-'), startModel: startAnthropicModelFake });

  function runClaude(files: Record<string, string>, args: readonly string[], prompt: string): Promise<ProcessResult> {
    const env = setup.session.env({
      ANTHROPIC_BASE_URL: setup.model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-offline-dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      CONTEXT_API_TOKEN: TOKEN,
      MEM0_API_KEY: TOKEN,
    });
    const { command, args: wrapped } = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(CLAUDE), [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      ...args,
      '--',
      prompt,
    ]);
    return runProcess(command, wrapped, { cwd: setup.session.work, env, timeoutMs: RUN_TIMEOUT_MS });
  }

  const lastToolResult = (model: AnthropicModelFake): string | undefined => {
    const block = model
      .messageRequests()
      .at(-1)
      ?.messages.flatMap((message) => blocksOf(message.content))
      .find((item) => item.type === 'tool_result');
    return block === undefined ? undefined : toolResultText(block);
  };
  const records = (stdout: string): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  test(
    'managed-search-mcp.json and managed-search-settings.json: only the managed server (a user-scope server is ignored, a --mcp-config refused), exactly context_search, the envelope byte for byte',
    async () => {
      const files = {
        '/etc/claude-code/managed-mcp.json': example('claude-code/managed-search-mcp.json'),
        '/etc/claude-code/managed-settings.json': example('claude-code/managed-search-settings.json'),
        '/etc/external-context/search.json': readFileSync(setup.searchConfig(), 'utf8'),
      };
      const extra = { mcpServers: { 'user-extra': { type: 'stdio', command: '/bin/true' } } };
      // managed-mcp.json does what --strict-mcp-config does, for every session: a dynamic server is refused outright.
      const refused = await runClaude(files, ['--mcp-config', setup.session.writeJson('user-mcp.json', extra)], 'hello');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('You cannot dynamically configure MCP servers when an enterprise MCP config is present');
      expect(setup.model.messageRequests()).toHaveLength(0);
      setup.session.writeJson('home/.claude.json', extra);
      const result = await runClaude(files, [], 'CALL mcp__external-context__context_search {"query":"deployment policy"}');
      expect(result.code).toBe(0);
      const init = records(result.stdout).find((record) => record['type'] === 'system' && record['subtype'] === 'init') as { tools: string[]; mcp_servers: { name: string; status: string }[] };
      expect(init.mcp_servers.map((server) => [server.name, server.status])).toEqual([['external-context', 'connected']]);
      expect(init.tools.filter((tool) => tool.startsWith('mcp__'))).toEqual(['mcp__external-context__context_search']);
      expect(setup.generic.requests).toHaveLength(1);
      expect(lastToolResult(setup.model)).toBe(ENVELOPE_TEXT);
      expectNoCredential(result, setup.session.home);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'managed-write-mcp.json and managed-write-settings.json in -p: the managed ask rule declines context_remember, zero writes',
    async () => {
      const files = {
        '/etc/claude-code/managed-mcp.json': example('claude-code/managed-write-mcp.json'),
        '/etc/claude-code/managed-settings.json': example('claude-code/managed-write-settings.json'),
        '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8'),
      };
      const result = await runClaude(files, [], `CALL mcp__external-context__context_remember ${JSON.stringify({ content: MEMORY })}`);
      expect(result.code).toBe(0);
      expect(setup.mem0.requests).toHaveLength(0);
      expect(lastToolResult(setup.model)).toBe("Claude requested permissions to use mcp__external-context__context_remember, but you haven't granted it yet.");
      expectNoCredential(result, setup.session.home);
    },
    TEST_TIMEOUT_MS,
  );
});

describe.skipIf(!geminiTier.installed || namespace.missing !== undefined)(`Gemini CLI ${GEMINI.version} with the examples in /etc/gemini-cli`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-gemini-managed-'), startModel: startGeminiModelFake });

  /** The user's own files: the API key auth and the trusted working folder, nothing of the product. */
  function runGemini(files: Record<string, string>, flags: readonly string[], prompt: string): Promise<ProcessResult> {
    setup.session.writeJson('home/.gemini/settings.json', { security: { auth: { selectedType: 'gemini-api-key' } } });
    setup.session.writeJson('home/.gemini/trustedFolders.json', { [setup.session.work]: 'TRUST_FOLDER' });
    const env = setup.session.env({ ...GEMINI_SINGLE_PROCESS, GOOGLE_GEMINI_BASE_URL: setup.model.baseUrl, GEMINI_API_KEY: 'offline-dummy', CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN });
    const { command, args } = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(GEMINI), [
      '-m',
      'gemini-2.5-flash',
      '--output-format',
      'json',
      ...flags,
      '-p',
      prompt,
    ]);
    return runProcess(command, args, { cwd: setup.session.work, env, timeoutMs: RUN_TIMEOUT_MS });
  }

  const lastFunctionResponse = (model: GeminiModelFake): Record<string, unknown> | undefined =>
    model
      .contentRequests()
      .at(-1)
      ?.contents.flatMap((content) => content.parts ?? [])
      .find((part) => part.functionResponse !== undefined)?.functionResponse?.response as Record<string, unknown> | undefined;

  test(
    "managed-search-settings.json as the system settings, the folder trusted in trustedFolders.json: context_search declared, the envelope inside Gemini's wrapper",
    async () => {
      const files = { '/etc/gemini-cli/settings.json': example('gemini-cli/managed-search-settings.json'), '/etc/external-context/search.json': readFileSync(setup.searchConfig(), 'utf8') };
      const result = await runGemini(files, [], 'CALL mcp_external-context_context_search {"query":"deployment policy"}');
      expect(result.code).toBe(0);
      expect(declaredFunctions(setup.model.contentRequests()[0] as GenerateRequest).filter((name) => name.startsWith('mcp_'))).toEqual(['mcp_external-context_context_search']);
      expect(setup.generic.requests).toHaveLength(1);
      expect(lastFunctionResponse(setup.model)).toEqual({ output: `<untrusted_context>\n${ENVELOPE_TEXT}\n</untrusted_context>` });
      expectNoCredential(result, setup.session.home);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'the managed search settings without tools.allowed, external-context-policy.toml in /etc/gemini-cli/policies/: the Policy Engine rule replaces the deprecated allow-list',
    async () => {
      const { tools: _deprecated, ...settings } = JSON.parse(example('gemini-cli/managed-search-settings.json')) as Record<string, unknown>;
      const files = {
        '/etc/gemini-cli/settings.json': JSON.stringify(settings),
        '/etc/gemini-cli/policies/external-context.toml': example('gemini-cli/external-context-policy.toml'),
        '/etc/external-context/search.json': readFileSync(setup.searchConfig(), 'utf8'),
      };
      const result = await runGemini(files, [], 'CALL mcp_external-context_context_search {"query":"deployment policy"}');
      expect(result.code).toBe(0);
      expect(declaredFunctions(setup.model.contentRequests()[0] as GenerateRequest).filter((name) => name.startsWith('mcp_'))).toEqual(['mcp_external-context_context_search']);
      expect(lastFunctionResponse(setup.model)).toEqual({ output: `<untrusted_context>\n${ENVELOPE_TEXT}\n</untrusted_context>` });
      expectNoCredential(result, setup.session.home);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'managed-write-settings.json as the system settings with --yolo: the BeforeTool Hook denies with its no-person reason, no hang, zero writes',
    async () => {
      const files = { '/etc/gemini-cli/settings.json': example('gemini-cli/managed-write-settings.json'), '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8') };
      const result = await runGemini(files, ['--yolo'], `CALL mcp_external-context_context_remember ${JSON.stringify({ content: MEMORY })}`);
      expect(result.timedOut).toBe(false);
      expect(result.code).toBe(0);
      expect(JSON.stringify(lastFunctionResponse(setup.model))).toContain(WRITE_CONFIRMATION_REASONS.noPerson);
      expect(setup.mem0.requests).toHaveLength(0);
      expectNoCredential(result, setup.session.home);
    },
    TEST_TIMEOUT_MS,
  );
});
