// Codex 0.169.0 with the shipped files in its managed paths (agents.md §4; issue 29 items 1 and 4):
// inside a private mount namespace (managed-namespace.ts) `/etc/codex/managed_config.toml`,
// `/etc/codex/requirements.toml`, `/etc/external-context/*.json` and the executable at
// `/opt/external-context/bin/external-context` are the examples, unedited; the user's
// `$CODEX_HOME/config.toml` holds only the fake model provider, and no run passes
// `--dangerously-bypass-hook-trust` (Codex runs managed Hooks without the user's review).
// Covers the modes in which Codex's automatic reviewer model would approve a write
// (`--approve-for-me`, a user's `approvals_reviewer = "auto_review"`): with the shipped
// requirements Codex falls back to the user; without them the Hook cannot tell that a person
// will confirm and denies. Zero writes in every row.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { codexProviderTable, outputText, type ResponsesModelFake, startResponsesModelFake } from '../fakes/responses-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, AGENT_SEARCH, agentBin, agentTier, filesContaining, newAgentSession, useAgentTierServices } from './agents-harness.ts';
import { inManagedNamespace, MANAGED_EXECUTABLE, managedNamespaceTier } from './managed-namespace.ts';

const FIXTURE = AGENT_FIXTURES.codex;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);
const namespace = managedNamespaceTier(`Codex ${FIXTURE.version} in its managed paths`);
registerToolGate(namespace);

const TOKEN = 'e2e-codex-managed-token';
const SEARCH_CALL = 'mcp__external_context.context_search';
const REMEMBER_CALL = 'mcp__external_context.context_remember';
const MEMORY = 'Deploy with the reviewed workflow.';
const { ITEM, ENVELOPE_TEXT, RUN_TIMEOUT_MS, TEST_TIMEOUT_MS } = AGENT_SEARCH;
/** What Codex says when the requirements overrule a user's reviewer choice. */
const REVIEWER_FALLBACK = 'Configured value for `approvals_reviewer` is disallowed by requirements; falling back to required value User.';

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

/** The function_call_output text in the model's last request. */
function lastOutput(model: ResponsesModelFake): string | undefined {
  const item = model
    .responseRequests()
    .at(-1)
    ?.input.find((entry) => entry.type === 'function_call_output');
  return item === undefined ? undefined : outputText(item);
}

describe.skipIf(!tier.installed || namespace.missing !== undefined)(`Codex ${FIXTURE.version} with the examples in /etc/codex`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: () => newAgentSession('ec-codex-managed-'), startModel: startResponsesModelFake });

  /**
   * `codex exec --json` in the namespace with `files` placed unedited; the user configuration
   * names only the fake model provider.
   */
  function runCodex(files: Record<string, string>, prompt: string, flags: readonly string[] = []): Promise<ProcessResult> {
    const provider = ['model = "gpt-fake"', 'model_provider = "fake"', '', ...codexProviderTable(setup.model.baseUrl)];
    writeFileSync(join(setup.session.home, 'config.toml'), provider.join('\n'));
    const env = setup.session.env({ CODEX_HOME: setup.session.home, FAKE_MODEL_KEY: 'offline-dummy', CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN });
    const { command, args } = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(FIXTURE), [
      'exec',
      '--json',
      '--skip-git-repo-check',
      ...flags,
      prompt,
    ]);
    return runProcess(command, args, { cwd: setup.session.work, env, timeoutMs: RUN_TIMEOUT_MS, stdin: '' });
  }

  /** The shipped write-config.toml without its `approvals_reviewer = "user"` line (as shipped before issue 29). */
  const withoutReviewer = (): string => example('codex/write-config.toml').replace(/^approvals_reviewer = "user"\n/mu, '');

  /** The write profile's managed files: the managed configuration, and the requirements when given. */
  function writeFiles(managed: string, requirements: boolean): Record<string, string> {
    return {
      '/etc/codex/managed_config.toml': managed,
      ...(requirements ? { '/etc/codex/requirements.toml': example('codex/write-requirements.toml') } : {}),
      '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8'),
    };
  }

  const blocked = (reason: string): string => `Tool call blocked by PreToolUse hook: ${reason}. Tool: mcp__external_context__context_remember`;
  const remember = `CALL ${REMEMBER_CALL} ${JSON.stringify({ content: MEMORY })}`;

  function expectNoCredential(result: ProcessResult): void {
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stderr).not.toContain(TOKEN);
    expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
  }

  /** The run ended normally, the Hook's no-person deny reached the model, nothing was written. */
  function expectDenied(result: ProcessResult): void {
    expect(result.code).toBe(0);
    expect(lastOutput(setup.model)).toBe(blocked(WRITE_CONFIRMATION_REASONS.unsupportedMode));
    expect(setup.mem0.requests).toHaveLength(0);
    expectNoCredential(result);
  }

  test(
    'search-config.toml as managed_config.toml: context_search is the one tool, the envelope reaches the model byte for byte',
    async () => {
      const files = { '/etc/codex/managed_config.toml': example('codex/search-config.toml'), '/etc/external-context/search.json': readFileSync(setup.searchConfig(), 'utf8') };
      const result = await runCodex(files, `CALL ${SEARCH_CALL} {"query":"deployment policy"}`);
      expect(result.code).toBe(0);
      const tools = setup.model.responseRequests()[0]?.tools?.find((tool) => tool.name === 'mcp__external_context') as { tools: { name: string }[] } | undefined;
      expect(tools?.tools.map((tool) => tool.name)).toEqual(['context_search']);
      expect(setup.generic.requests).toHaveLength(1);
      const output = lastOutput(setup.model) ?? '';
      expect(output.slice(output.indexOf('Output:\n') + 'Output:\n'.length)).toBe(ENVELOPE_TEXT);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  // Three layers, each tested alone: the shipped files (managed reviewer and requirements), the
  // requirements alone, the managed reviewer line alone, neither (then only the Hook's own check
  // stands), and none of the three (the write goes through: the mode is real).
  for (const [label, flags] of [
    ['--approve-for-me', ['--approve-for-me']],
    ['a user\'s -c approvals_reviewer="auto_review" with approval_policy="on-request"', ['-c', 'approval_policy="on-request"', '-c', 'approvals_reviewer="auto_review"']],
  ] as const) {
    test(
      `the shipped write-config.toml and write-requirements.toml, ${label}: the reviewer stays the user, so codex exec cannot ask and the Hook denies; zero writes`,
      async () => {
        const result = await runCodex(writeFiles(example('codex/write-config.toml'), true), remember, flags);
        expectDenied(result);
      },
      TEST_TIMEOUT_MS,
    );
  }

  test(
    'write-requirements.toml alone (managed configuration without the reviewer line), a user\'s approvals_reviewer="auto_review": Codex refuses it and falls back to the user; the Hook denies; zero writes',
    async () => {
      const result = await runCodex(writeFiles(withoutReviewer(), true), remember, ['-c', 'approval_policy="on-request"', '-c', 'approvals_reviewer="auto_review"']);
      expect(result.stdout).toContain(REVIEWER_FALLBACK);
      expectDenied(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'the managed approvals_reviewer = "user" alone (no requirements), --approve-for-me: the managed layer keeps the user as reviewer, the Hook denies; zero writes',
    async () => {
      const result = await runCodex(writeFiles(example('codex/write-config.toml'), false), remember, ['--approve-for-me']);
      expectDenied(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the mode itself, without any of the three (no reviewer line, no requirements, no Hook), --approve-for-me: Codex's reviewer model approves and the memory reaches Mem0 (why each layer exists)",
    async () => {
      const noHook = withoutReviewer().split('[[hooks.PreToolUse]]')[0]!;
      const result = await runCodex(writeFiles(noHook, false), remember, ['--approve-for-me']);
      expect(result.code).toBe(0);
      expect(setup.mem0.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'neither the reviewer line nor requirements.toml, --approve-for-me (Codex sends permission_mode "default" and its reviewer model would decide): the Hook cannot tell that a person confirms and denies; zero writes',
    async () => {
      const result = await runCodex(writeFiles(withoutReviewer(), false), remember, ['--approve-for-me']);
      expect(result.code).toBe(0);
      expect(lastOutput(setup.model)).toBe(blocked(WRITE_CONFIRMATION_REASONS.noPerson));
      expect(setup.mem0.requests).toHaveLength(0);
      expectNoCredential(result);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the Hook alone under the managed paths: with write-requirements.toml, default and acceptEdits pass to Codex's own prompt (and check --host codex says ok); with a requirements file that also allows auto_review, they are denied",
    async () => {
      const hook = (files: Record<string, string>, mode: string): Promise<ProcessResult> => {
        const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', permission_mode: mode, tool_name: 'mcp__external_context__context_remember', tool_input: { content: MEMORY } });
        const { command, args } = inManagedNamespace(join(setup.session.dir, `hook-${mode}-${Object.keys(files).length}`), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, MANAGED_EXECUTABLE, [
          'hook',
          'write-confirmation',
          '--host',
          'codex',
        ]);
        return runProcess(command, args, { stdin, env: { PATH: '/usr/bin:/bin' } });
      };
      const shipped = { '/etc/codex/requirements.toml': example('codex/write-requirements.toml') };
      const loose = { '/etc/codex/requirements.toml': 'allowed_approvals_reviewers = ["user", "auto_review"]\n', '/etc/codex/unused': '' };
      for (const mode of ['default', 'acceptEdits']) {
        expect(await hook(shipped, mode)).toMatchObject({ code: 0, stdout: '{}', stderr: '' });
        expect(JSON.parse((await hook(loose, mode)).stdout)).toMatchObject({ decision: 'block', reason: WRITE_CONFIRMATION_REASONS.noPerson });
      }
      // check --host codex reads the same file by the Hook's rule: ok with the shipped one.
      const { command, args } = inManagedNamespace(
        join(setup.session.dir, 'check'),
        { files: { ...writeFiles(example('codex/write-config.toml'), true) }, binds: { [MANAGED_EXECUTABLE]: setup.exe } },
        MANAGED_EXECUTABLE,
        ['check', '--config', '/etc/external-context/write.json', '--host', 'codex', '--mcp-config', '/etc/codex/managed_config.toml', '--settings', '/etc/codex/managed_config.toml', '--json'],
      );
      const checked = await runProcess(command, args, { env: { PATH: '/usr/bin:/bin', MEM0_API_KEY: TOKEN } });
      const items = (JSON.parse(checked.stdout) as { items: { id: string; status: string }[] }).items;
      expect(items.find((entry) => entry.id === 'settings.approvals-reviewer')?.status).toBe('ok');
      // The whole shipped deployment in its real paths: every Codex item of config.md §11 passes.
      const codexItems = items.filter((entry) => entry.id.startsWith('mcp-config') || entry.id.startsWith('settings'));
      expect(codexItems.filter((entry) => entry.status !== 'ok')).toEqual([]);
      expect(codexItems.map((entry) => entry.id)).toEqual(
        expect.arrayContaining(['mcp-config.args', 'mcp-config.enabled-tools', 'mcp-config.approval-mode', 'settings.config-reviewer', 'settings.write-hook', 'settings.other-hooks']),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
