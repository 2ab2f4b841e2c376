// Qwen Code 0.24.4 with the write variant, offline (qwen-client.md §11, §13; hooks.md §3.2;
// issue 7): what reaches the provider in plan mode and with -y without the confirmation Hook.
// The other half (the Hook with -y, the managed ask rule, the init record) is
// qwen-code-write.tier.ts; the two files run side by side under bun test --parallel.
// Set-up as in qwen-code.tier.ts.
import { describe, expect, test } from 'bun:test';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { MEMORY, REMEMBER_TOOL, toolResultText, useQwenCodeServices } from './qwen-code-services.ts';
import { managedSystemSettings, modelFlags, QWEN_TEST_TIMEOUT_MS, QWEN_VERSION, qwenTier, runQwen } from './qwen-harness.ts';

const tier = qwenTier();
registerFixtureGate(tier);

describe.skipIf(!tier.installed)(`Qwen Code ${QWEN_VERSION} with the compiled executable: the write variant without the confirmation Hook's ask`, () => {
  const q = useQwenCodeServices();

  test(
    'write variant in plan mode: zero writes reach the provider',
    async () => {
      const system = managedSystemSettings('managed-write-system-settings.json', { executable: q.exe });
      const prompt = `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`;
      const result = await runQwen(q.session, ['--mcp-config', q.writeMcp(), ...modelFlags(q.model), '--approval-mode', 'plan', '-o', 'json', '-p', prompt], q.settings(system));
      expect(result.code).toBe(0);
      expect(q.model.chatRequests().length).toBeGreaterThanOrEqual(2);
      expect(q.mem0.requests).toHaveLength(0);
    },
    QWEN_TEST_TIMEOUT_MS,
  );

  test(
    'write variant with -y and no confirmation Hook: exactly one write reaches the provider',
    async () => {
      const { permissions: _rule, hooks: _hook, ...system } = managedSystemSettings('managed-write-system-settings.json', { executable: q.exe });
      const prompt = `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`;
      const result = await runQwen(q.session, ['--mcp-config', q.writeMcp(), ...modelFlags(q.model), '-y', '-o', 'json', '-p', prompt], q.settings(system));
      expect(result.code).toBe(0);
      expect(q.memoryWrites()).toBe(1);
      expect(q.mem0.requests.find((request) => request.path === '/memories')?.json).toMatchObject({ messages: [{ role: 'user', content: MEMORY }], infer: false, user_id: 'u1' });
      expect(JSON.parse(toolResultText(q.model.chatRequests()) ?? '{}')).toMatchObject({ status: 'stored' });
    },
    QWEN_TEST_TIMEOUT_MS,
  );
});
