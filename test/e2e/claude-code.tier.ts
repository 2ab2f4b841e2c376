// Claude Code 2.1.332 as the real agent, offline (agents.md §4; issue 19): `claude -p` with the
// shipped managed files (contracts/examples/claude-code/), the compiled executable as its stdio
// MCP server, a loopback fake of the Anthropic Messages API (streaming) and strict provider
// fakes. Covers the connected server and its one tool, a search turn whose tool result reaches
// the model byte for byte, auto-recall once per user prompt, the headless write denial, and no
// credential in Claude Code's output or files.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { readExample, substitute } from '../contracts/examples-files.ts';
import { type AnthropicModelFake, blocksOf, type MessagesRequest, startAnthropicModelFake, toolResultText } from '../fakes/anthropic-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { TAG_CHARACTER } from '../support/planted-instruction.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { AGENT_FIXTURES, agentBin, agentTier, exampleWithPaths, filesContaining, newAgentSession, occurrences, useAgentTierServices } from './agents-harness.ts';
import { AGENT_SEARCH } from './agents-harness.ts';

const FIXTURE = AGENT_FIXTURES.claude;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);

const TOKEN = 'e2e-claude-provider-token';
const SEARCH_TOOL = 'mcp__external-context__context_search';
const REMEMBER_TOOL = 'mcp__external-context__context_remember';
const MEMORY = 'Deploy with the reviewed workflow.';
// Its content ends with a planted tag-character instruction (issue 27).
const { ITEM, ENVELOPE_TEXT, RUN_TIMEOUT_MS, TEST_TIMEOUT_MS } = AGENT_SEARCH;

/** Every text the model received in one request: text blocks and tool results, in order. */
function texts(request: MessagesRequest | undefined): string[] {
  if (request === undefined) return [];
  return request.messages.flatMap((message) => blocksOf(message.content).map((block) => (block.type === 'tool_result' ? toolResultText(block) : typeof block.text === 'string' ? block.text : '')));
}

/** The tool_result text in the model's last request. */
function lastToolResult(model: AnthropicModelFake): string | undefined {
  const last = model.messageRequests().at(-1);
  const block = last?.messages.flatMap((message) => blocksOf(message.content)).find((item) => item.type === 'tool_result');
  return block === undefined ? undefined : toolResultText(block);
}

/** The records `--output-format stream-json --verbose` prints, one JSON object a line. */
function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(!tier.installed)(`Claude Code ${FIXTURE.version} with the compiled executable`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-claude-'), startModel: startAnthropicModelFake });
  const { searchConfig, writeConfig } = setup;
  const file = (name: string, example: string, paths: { config?: string; pinned?: string } = {}): string =>
    setup.session.writeJson(name, exampleWithPaths(example, { executable: setup.exe, ...paths }));

  function runClaude(args: readonly string[], prompt: string): Promise<ProcessResult> {
    const env = setup.session.env({
      ANTHROPIC_BASE_URL: setup.model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-offline-dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      CONTEXT_API_TOKEN: TOKEN,
      MEM0_API_KEY: TOKEN,
    });
    return runProcess(agentBin(FIXTURE), ['-p', '--output-format', 'stream-json', '--verbose', ...args, prompt], { cwd: setup.session.work, env, timeoutMs: RUN_TIMEOUT_MS });
  }

  /** Nothing of the credential in Claude Code's output or in any file it wrote under HOME. */
  function expectNoCredential(result: ProcessResult): void {
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stderr).not.toContain(TOKEN);
    expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
  }

  test(
    'the managed search files: external-context connected with exactly context_search; a turn calls it and the envelope reaches the model byte for byte',
    async () => {
      const mcp = file('mcp.json', 'claude-code/managed-search-mcp.json', { config: searchConfig(), pinned: '/etc/external-context/search.json' });
      const settings = file('settings.json', 'claude-code/managed-search-settings.json');
      const result = await runClaude(['--mcp-config', mcp, '--strict-mcp-config', '--settings', settings], `CALL ${SEARCH_TOOL} {"query":"deployment policy"}`);
      expect(result.code).toBe(0);
      const init = records(result.stdout).find((record) => record['type'] === 'system' && record['subtype'] === 'init') as { tools: string[]; mcp_servers: unknown[]; claude_code_version?: string };
      expect(init.mcp_servers).toEqual([{ name: 'external-context', source: 'dynamic', status: 'connected' }]);
      expect(init.tools.filter((tool) => tool.startsWith('mcp__'))).toEqual([SEARCH_TOOL]);
      // alwaysLoad: the tool is declared to the model itself, not deferred behind tool search.
      expect((setup.model.messageRequests()[0]?.tools ?? []).filter((tool) => tool.name.startsWith('mcp__')).map((tool) => tool.name)).toEqual([SEARCH_TOOL]);
      expect(setup.generic.requests).toHaveLength(1);
      expect(setup.generic.requests[0]?.json).toEqual({ query: 'deployment policy', limit: 5 });
      expect(lastToolResult(setup.model)).toBe(ENVELOPE_TEXT);
      // Issue 27: the planted tag-character instruction reached the model only escaped.
      expect(TAG_CHARACTER.test(JSON.stringify(setup.model.messageRequests()))).toBe(false);
      const final = records(result.stdout).findLast((record) => record['type'] === 'result') as { result: string; permission_denials: unknown[] };
      expect(final.result.startsWith('FINAL: tool said ')).toBe(true);
      expect(final.permission_denials).toEqual([]);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'auto-recall (--host claude, the managed Hook): the context reaches the model exactly once per user prompt, not again after a tool result',
    async () => {
      const recall = setup.session.writeJson(
        'auto-recall.json',
        substitute(readExample('auto-recall-generic-http.json'), { 'https://context.example.com': setup.generic.origin, '/absolute/path/to/repository': setup.session.work }),
      );
      const settings = file('settings.json', 'claude-code/managed-auto-recall-settings.json', { config: recall, pinned: '/etc/external-context/auto-recall.json' });
      writeFileSync(join(setup.session.work, 'README.md'), '# Repository\n');
      const prompt = `What is our deployment policy? CALL Read ${JSON.stringify({ file_path: join(setup.session.work, 'README.md') })}`;
      const result = await runClaude(['--strict-mcp-config', '--settings', settings], prompt);
      expect(result.code).toBe(0);
      expect(setup.generic.requests).toHaveLength(1);
      const requests = setup.model.messageRequests().filter((request) => request.stream === true);
      expect(requests.length).toBeGreaterThanOrEqual(2);
      const count = (request: MessagesRequest | undefined): number => texts(request).reduce((sum, text) => sum + occurrences(text, ENVELOPE_TEXT), 0);
      expect(count(requests[0])).toBe(1);
      expect(lastToolResult(setup.model)).toContain('# Repository');
      expect(count(requests.at(-1))).toBe(1);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'write files in headless mode: the managed ask rule declines the call before it runs, zero writes',
    async () => {
      const mcp = file('mcp.json', 'claude-code/managed-write-mcp.json', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
      const settings = file('settings.json', 'claude-code/managed-write-settings.json');
      const result = await runClaude(['--mcp-config', mcp, '--strict-mcp-config', '--settings', settings], `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`);
      expect(result.code).toBe(0);
      expect(setup.mem0.requests).toHaveLength(0);
      expect(lastToolResult(setup.model)).toBe(`Claude requested permissions to use ${REMEMBER_TOOL}, but you haven't granted it yet.`);
      const final = records(result.stdout).findLast((record) => record['type'] === 'result') as { permission_denials: { tool_name: string }[] };
      expect(final.permission_denials.map((denial) => denial.tool_name)).toEqual([REMEMBER_TOOL]);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'write files with context_remember allowed: the confirmation Hook (--host claude) still asks, headless turns it into a denial with our reason, zero writes',
    async () => {
      const mcp = file('mcp.json', 'claude-code/managed-write-mcp.json', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
      const { permissions: _askRule, ...managed } = exampleWithPaths('claude-code/managed-write-settings.json', { executable: setup.exe });
      const settings = setup.session.writeJson('settings.json', { ...managed, permissions: { allow: [SEARCH_TOOL, REMEMBER_TOOL] } });
      const result = await runClaude(['--mcp-config', mcp, '--strict-mcp-config', '--settings', settings], `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`);
      expect(result.code).toBe(0);
      expect(setup.mem0.requests).toHaveLength(0);
      expect(lastToolResult(setup.model)).toBe(`${WRITE_CONFIRMATION_REASONS.ask}\n${JSON.stringify(MEMORY)}`);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );
});
