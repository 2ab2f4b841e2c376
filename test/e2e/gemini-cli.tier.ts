// Gemini CLI 0.61.0 as the real agent, offline (agents.md §4; issue 19): `gemini -p` with the
// shipped settings (contracts/examples/gemini-cli/), the compiled executable as its stdio MCP
// server, a loopback fake of the Gemini API (GOOGLE_GEMINI_BASE_URL) and strict provider fakes.
// Covers the declared tool, a search turn whose result reaches the model byte for byte inside
// Gemini's own wrapper, auto-recall once per user prompt (BeforeAgent, --host gemini), the
// headless write, and no credential in Gemini CLI's output or files.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { readExample, substitute } from '../contracts/examples-files.ts';
import { declaredFunctions, type GeminiModelFake, type GenerateRequest, startGeminiModelFake } from '../fakes/gemini-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { TAG_CHARACTER } from '../support/planted-instruction.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { AGENT_FIXTURES, agentBin, agentTier, exampleWithPaths, filesContaining, GEMINI_SINGLE_PROCESS, newAgentSession, occurrences, useAgentTierServices } from './agents-harness.ts';
import { AGENT_SEARCH } from './agents-harness.ts';

const FIXTURE = AGENT_FIXTURES.gemini;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);

const TOKEN = 'e2e-gemini-provider-token';
const SEARCH_TOOL = 'mcp_external-context_context_search';
const REMEMBER_TOOL = 'mcp_external-context_context_remember';
const MEMORY = 'Deploy with the reviewed workflow.';
// Its content ends with a planted tag-character instruction (issue 27).
const { ITEM, ENVELOPE_TEXT, RUN_TIMEOUT_MS, TEST_TIMEOUT_MS } = AGENT_SEARCH;

/** The functionResponse payload in the model's last request. */
function lastFunctionResponse(model: GeminiModelFake): Record<string, unknown> | undefined {
  const last = model.contentRequests().at(-1);
  const part = last?.contents.flatMap((content) => content.parts ?? []).find((item) => item.functionResponse !== undefined);
  return part?.functionResponse?.response as Record<string, unknown> | undefined;
}

/** Every text part the model received in one request. */
function texts(request: GenerateRequest | undefined): string[] {
  return (request?.contents ?? []).flatMap((content) => (content.parts ?? []).map((part) => part.text ?? ''));
}

describe.skipIf(!tier.installed)(`Gemini CLI ${FIXTURE.version} with the compiled executable`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-gemini-'), startModel: startGeminiModelFake });
  const { searchConfig, writeConfig } = setup;

  /**
   * Installs a shipped example as the user settings: Gemini CLI skips a system settings file
   * below the world-writable /tmp and suppresses servers in untrusted folders (agents.md §4).
   */
  function installSettings(example: string, paths: { config?: string; pinned?: string } = {}): void {
    const settings = exampleWithPaths(example, { executable: setup.exe, ...paths });
    const server = (settings['mcpServers'] as Record<string, Record<string, unknown>> | undefined)?.['external-context'];
    if (server !== undefined) server['cwd'] = setup.session.dir;
    setup.session.writeJson('home/.gemini/settings.json', { ...settings, security: { folderTrust: { enabled: false }, auth: { selectedType: 'gemini-api-key' } } });
  }

  function runGemini(prompt: string, flags: readonly string[] = []): Promise<ProcessResult> {
    const env = setup.session.env({ ...GEMINI_SINGLE_PROCESS, GOOGLE_GEMINI_BASE_URL: setup.model.baseUrl, GEMINI_API_KEY: 'offline-dummy', CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN });
    // An explicit model skips the router's classifier request.
    return runProcess(agentBin(FIXTURE), ['-m', 'gemini-2.5-flash', '--output-format', 'json', ...flags, '-p', prompt], { cwd: setup.session.work, env, timeoutMs: RUN_TIMEOUT_MS });
  }

  function expectNoCredential(result: ProcessResult): void {
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stderr).not.toContain(TOKEN);
    expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
  }

  test(
    'the managed search settings: context_search is declared and allowed; a turn calls it and the envelope reaches the model byte for byte',
    async () => {
      installSettings('gemini-cli/managed-search-settings.json', { config: searchConfig(), pinned: '/etc/external-context/search.json' });
      const result = await runGemini(`CALL ${SEARCH_TOOL} {"query":"deployment policy"}`);
      expect(result.code).toBe(0);
      const first = setup.model.contentRequests()[0] as GenerateRequest;
      expect(declaredFunctions(first).filter((name) => name.startsWith('mcp_'))).toEqual([SEARCH_TOOL]);
      expect(setup.generic.requests).toHaveLength(1);
      expect(setup.generic.requests[0]?.json).toEqual({ query: 'deployment policy', limit: 5 });
      // Gemini CLI wraps every MCP result in its own <untrusted_context> element.
      expect(lastFunctionResponse(setup.model)).toEqual({ output: `<untrusted_context>\n${ENVELOPE_TEXT}\n</untrusted_context>` });
      // Issue 27: the planted tag-character instruction reached the model only escaped.
      expect(TAG_CHARACTER.test(JSON.stringify(setup.model.contentRequests()))).toBe(false);
      expect((JSON.parse(result.stdout) as { response: string }).response.startsWith('FINAL: tool said ')).toBe(true);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'auto-recall (BeforeAgent, --host gemini): the context reaches the model exactly once per user prompt, not again after a tool result',
    async () => {
      const recall = setup.session.writeJson(
        'auto-recall.json',
        substitute(readExample('auto-recall-generic-http.json'), { 'https://context.example.com': setup.generic.origin, '/absolute/path/to/repository': setup.session.work }),
      );
      installSettings('gemini-cli/managed-auto-recall-settings.json', { config: recall, pinned: '/etc/external-context/auto-recall.json' });
      writeFileSync(join(setup.session.work, 'README.md'), '# Repository\n');
      const result = await runGemini(`What is our deployment policy? CALL read_file ${JSON.stringify({ file_path: join(setup.session.work, 'README.md') })}`);
      expect(result.code).toBe(0);
      expect(setup.generic.requests).toHaveLength(1);
      const requests = setup.model.contentRequests();
      expect(requests.length).toBeGreaterThanOrEqual(2);
      const count = (request: GenerateRequest | undefined): number => texts(request).reduce((sum, text) => sum + occurrences(text, ENVELOPE_TEXT), 0);
      expect(count(requests[0])).toBe(1);
      expect(JSON.stringify(lastFunctionResponse(setup.model))).toContain('# Repository');
      expect(count(requests.at(-1))).toBe(1);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'the managed write settings in headless mode: Gemini CLI does not offer context_remember to the model (its policy denies unconfirmed tools), zero writes',
    async () => {
      installSettings('gemini-cli/managed-write-settings.json', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
      const result = await runGemini(`CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`);
      expect(result.code).toBe(0);
      expect(declaredFunctions(setup.model.contentRequests()[0] as GenerateRequest).filter((name) => name.startsWith('mcp_'))).toEqual([SEARCH_TOOL]);
      expect(lastFunctionResponse(setup.model)?.['error']).toStartWith(`Tool "${REMEMBER_TOOL}" not found.`);
      expect(setup.mem0.requests).toHaveLength(0);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  // Issue 29 item 2: in YOLO mode headless Gemini CLI offers context_remember, and an `ask` from
  // the BeforeTool Hook would wait forever for a person. The Hook denies with its reason instead;
  // RUN_TIMEOUT_MS (minutes) is the liveness guard that catches a hang.
  for (const flags of [['--yolo'], ['--approval-mode', 'yolo']]) {
    test(
      `the managed write settings headless with ${flags.join(' ')}: the BeforeTool Hook (--host gemini) denies with its no-person reason, no hang, zero writes`,
      async () => {
        installSettings('gemini-cli/managed-write-settings.json', { config: writeConfig(), pinned: '/etc/external-context/write.json' });
        const result = await runGemini(`CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`, flags);
        expect(result.timedOut).toBe(false);
        expect(result.code).toBe(0);
        expect(declaredFunctions(setup.model.contentRequests()[0] as GenerateRequest).filter((name) => name.startsWith('mcp_'))).toEqual([SEARCH_TOOL, REMEMBER_TOOL]);
        expect(JSON.stringify(lastFunctionResponse(setup.model))).toContain(WRITE_CONFIRMATION_REASONS.noPerson);
        expect(setup.mem0.requests).toHaveLength(0);
        expectNoCredential(result);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
