// Qwen Code 0.24.4 with the write variant, offline (qwen-client.md §11, §13; hooks.md §3.2;
// issue 7): the init record of the managed write files, and what reaches the provider under the
// confirmation Hook with -y (headless turns ask into a denial carrying our reason), the managed
// ask rule (plan mode and -y without the Hook: qwen-code-write-modes.tier.ts, a file of its own
// so bun test --parallel runs the two halves side by side). Set-up as in qwen-code.tier.ts.
import { describe, expect, test } from 'bun:test';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { MEMORY, REMEMBER_TOOL, SEARCH_TOOL, toolResultText, useQwenCodeServices } from './qwen-code-services.ts';
import { managedSystemSettings, modelFlags, parseJsonRun, QWEN_TEST_TIMEOUT_MS, QWEN_VERSION, qwenTier, runQwen } from './qwen-harness.ts';

const tier = qwenTier();
registerFixtureGate(tier);

const ASK_REASON = `Save this exact content to the bound Mem0 repository memory? Nothing has been saved yet. If no person approves this, it stays unsaved: do not retry; tell the user the memory was not saved.\n${JSON.stringify(MEMORY)}`;

describe.skipIf(!tier.installed)(`Qwen Code ${QWEN_VERSION} with the compiled executable: the write variant`, () => {
  const q = useQwenCodeServices();

  test(
    'write variant with the confirmation Hook and -y: headless turns ask into a denial carrying our reason, zero writes',
    async () => {
      const { permissions: _managedAskRule, ...system } = managedSystemSettings('managed-write-system-settings.json', { executable: q.exe });
      const prompt = `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`;
      const result = await runQwen(q.session, ['--mcp-config', q.writeMcp(), ...modelFlags(q.model), '-y', '-o', 'json', '-p', prompt], q.settings(system));
      expect(result.code).toBe(0);
      expect(toolResultText(q.model.chatRequests())).toBe(ASK_REASON);
      expect(parseJsonRun(result.stdout).result.permission_denials).toHaveLength(1);
      expect(q.mem0.requests).toHaveLength(0);
    },
    QWEN_TEST_TIMEOUT_MS,
  );

  test(
    'the init record lists context_search and context_remember for the managed write files; with the managed ask rule headless declines the call before the Hook, zero writes',
    async () => {
      const system = managedSystemSettings('managed-write-system-settings.json', { executable: q.exe });
      const prompt = `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`;
      const result = await runQwen(q.session, ['--mcp-config', q.writeMcp(), ...modelFlags(q.model), '-o', 'json', '-p', prompt], q.settings(system));
      expect(result.code).toBe(0);
      // The init record, written before the first model request: both tools, connected.
      const run = parseJsonRun(result.stdout);
      expect(run.init.tools.filter((tool) => tool.startsWith('mcp__external-context__'))).toEqual([SEARCH_TOOL, REMEMBER_TOOL]);
      expect(run.init.mcp_servers).toEqual([{ name: 'external-context', status: 'connected' }]);
      expect(q.memoryWrites()).toBe(0);
      expect(toolResultText(q.model.chatRequests())).toBe(
        `Qwen Code requires permission to use "${REMEMBER_TOOL}", but that permission was declined (non-interactive mode cannot prompt for confirmation).`,
      );
      expect(q.mem0.requests).toHaveLength(0);
    },
    QWEN_TEST_TIMEOUT_MS,
  );
});
