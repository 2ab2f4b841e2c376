// Codex 0.169.0 as the real agent, offline (agents.md §4; issue 19): `codex exec --json` with the
// shipped config.toml tables (contracts/examples/codex/), a custom model provider pointing at a
// loopback fake of the OpenAI Responses API, the compiled executable as its stdio MCP server and
// strict provider fakes. Covers the search turn (byte-for-byte envelope after Codex's own
// prefix), auto-recall once per user prompt (UserPromptSubmit, --host codex), the headless write
// (Codex's approval cannot be given; with approvals bypassed our Hook denies with our reason),
// and no credential in Codex's output or files.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR, readExample, substitute } from '../contracts/examples-files.ts';
import { codexProviderTable, contentTexts, outputText, type ResponsesModelFake, type ResponsesRequest, startResponsesModelFake } from '../fakes/responses-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { TAG_CHARACTER } from '../support/planted-instruction.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { AGENT_FIXTURES, agentBin, agentTier, filesContaining, newAgentSession, occurrences, useAgentTierServices } from './agents-harness.ts';
import { AGENT_SEARCH } from './agents-harness.ts';

const FIXTURE = AGENT_FIXTURES.codex;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);

const TOKEN = 'e2e-codex-provider-token';
/** Codex groups each MCP server's tools in a namespace tool; the fake's `namespace.tool` form. */
const SEARCH_CALL = 'mcp__external_context.context_search';
const REMEMBER_CALL = 'mcp__external_context.context_remember';
const MEMORY = 'Deploy with the reviewed workflow.';
// Its content ends with a planted tag-character instruction (issue 27).
const { ITEM, ENVELOPE_TEXT, RUN_TIMEOUT_MS, TEST_TIMEOUT_MS } = AGENT_SEARCH;

/** The function_call_output text in the model's last request. */
function lastOutput(model: ResponsesModelFake): string | undefined {
  const item = model
    .responseRequests()
    .at(-1)
    ?.input.find((entry) => entry.type === 'function_call_output');
  return item === undefined ? undefined : outputText(item);
}

/** Every input text of one request (messages and tool outputs). */
function texts(request: ResponsesRequest | undefined): string[] {
  return (request?.input ?? []).flatMap((item) => (item.type === 'function_call_output' ? [outputText(item)] : contentTexts(item)));
}

describe.skipIf(!tier.installed)(`Codex ${FIXTURE.version} with the compiled executable`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-codex-'), startModel: startResponsesModelFake });
  const { searchConfig, writeConfig } = setup;

  /** `$CODEX_HOME/config.toml`: the fake model provider, then the shipped example with real paths. */
  function installConfig(example: string, paths: { config: string; pinned: string }): void {
    const toml = readFileSync(join(EXAMPLES_DIR, 'codex', example), 'utf8')
      .replaceAll('/opt/external-context/bin/external-context', setup.exe)
      .replaceAll(paths.pinned, paths.config)
      .replaceAll('cwd = "/opt/external-context"', `cwd = "${setup.session.dir}"`);
    // The example's own top-level keys (write-config.toml's approvals_reviewer) must come before any table.
    const provider = codexProviderTable(setup.model.baseUrl);
    writeFileSync(join(setup.session.home, 'config.toml'), `model = "gpt-fake"\nmodel_provider = "fake"\n${toml}\n${provider.join('\n')}`);
  }

  /**
   * `codex exec --json`. `--dangerously-bypass-hook-trust` stands in for the managed
   * configuration, whose Hooks Codex runs without the per-user review (agents.md §2).
   */
  function runCodex(prompt: string, flags: readonly string[] = []): Promise<ProcessResult> {
    const env = setup.session.env({ CODEX_HOME: setup.session.home, FAKE_MODEL_KEY: 'offline-dummy', CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN });
    return runProcess(agentBin(FIXTURE), ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', ...flags, prompt], {
      cwd: setup.session.work,
      env,
      timeoutMs: RUN_TIMEOUT_MS,
      stdin: '',
    });
  }

  function expectNoCredential(result: ProcessResult): void {
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stderr).not.toContain(TOKEN);
    expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
  }

  test(
    'search-config.toml: context_search is declared in the external-context namespace; a turn calls it and the envelope reaches the model byte for byte',
    async () => {
      installConfig('search-config.toml', { config: searchConfig(), pinned: '/etc/external-context/search.json' });
      const result = await runCodex(`CALL ${SEARCH_CALL} {"query":"deployment policy"}`);
      expect(result.code).toBe(0);
      const namespace = setup.model.responseRequests()[0]?.tools?.find((tool) => tool.name === 'mcp__external_context') as { type: string; tools: { name: string }[] } | undefined;
      expect(namespace?.type).toBe('namespace');
      expect(namespace?.tools.map((tool) => tool.name)).toEqual(['context_search']);
      expect(setup.generic.requests).toHaveLength(1);
      expect(setup.generic.requests[0]?.json).toEqual({ query: 'deployment policy', limit: 5 });
      // Codex prefixes every tool output with its wall time; the rest is the envelope, unchanged.
      const output = lastOutput(setup.model) ?? '';
      expect(output).toMatch(/^Wall time: [0-9.]+ seconds\nOutput:\n/);
      expect(output.slice(output.indexOf('Output:\n') + 'Output:\n'.length)).toBe(ENVELOPE_TEXT);
      // Issue 27: the planted tag-character instruction reached the model only escaped.
      expect(TAG_CHARACTER.test(JSON.stringify(setup.model.responseRequests()))).toBe(false);
      expect(result.stdout).toContain('"type":"mcp_tool_call","server":"external-context","tool":"context_search"');
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'auto-recall-config.toml (UserPromptSubmit, --host codex): the context reaches the model exactly once per user prompt, not again after a tool result',
    async () => {
      const recall = setup.session.writeJson(
        'auto-recall.json',
        substitute(readExample('auto-recall-generic-http.json'), { 'https://context.example.com': setup.generic.origin, '/absolute/path/to/repository': setup.session.work }),
      );
      installConfig('auto-recall-config.toml', { config: recall, pinned: '/etc/external-context/auto-recall.json' });
      const result = await runCodex('What is our deployment policy? CALL list_mcp_resources {}');
      expect(result.code).toBe(0);
      expect(setup.generic.requests).toHaveLength(1);
      const requests = setup.model.responseRequests();
      expect(requests.length).toBeGreaterThanOrEqual(2);
      const count = (request: ResponsesRequest | undefined): number => texts(request).reduce((sum, text) => sum + occurrences(text, ENVELOPE_TEXT), 0);
      expect(count(requests[0])).toBe(1);
      expect(requests.at(-1)?.input.some((item) => item.type === 'function_call_output')).toBe(true);
      expect(count(requests.at(-1))).toBe(1);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'write-config.toml in codex exec (headless, approval policy never): the PreToolUse Hook (--host codex) denies with our reason; zero writes',
    async () => {
      installConfig('write-config.toml', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
      const result = await runCodex(`CALL ${REMEMBER_CALL} ${JSON.stringify({ content: MEMORY })}`);
      expect(result.code).toBe(0);
      expect(lastOutput(setup.model)).toBe(`Tool call blocked by PreToolUse hook: ${WRITE_CONFIRMATION_REASONS.unsupportedMode}. Tool: mcp__external_context__context_remember`);
      expect(setup.mem0.requests).toHaveLength(0);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'write-config.toml with approvals and sandbox bypassed: the PreToolUse Hook (--host codex) denies with our reason; zero writes',
    async () => {
      installConfig('write-config.toml', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
      const result = await runCodex(`CALL ${REMEMBER_CALL} ${JSON.stringify({ content: MEMORY })}`, ['--dangerously-bypass-approvals-and-sandbox']);
      expect(result.code).toBe(0);
      expect(lastOutput(setup.model)).toBe(`Tool call blocked by PreToolUse hook: ${WRITE_CONFIRMATION_REASONS.unsupportedMode}. Tool: mcp__external_context__context_remember`);
      expect(setup.mem0.requests).toHaveLength(0);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );
});
