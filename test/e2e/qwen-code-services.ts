// The set-up the Qwen Code tier's files share (qwen-client.md §11, §13): the compiled executable,
// the strict provider fakes and the fake model for the whole file, a fresh isolated session
// before each test, and the administrator files built from the shipped examples. The tier is
// split over several files (qwen-code.tier.ts, qwen-code-write.tier.ts,
// qwen-code-write-modes.tier.ts, qwen-extension-settings.tier.ts) so `bun test --parallel` runs them side by side.
import { PLANTED_TAGS, withPlantedEscaped } from '../support/planted-instruction.ts';
import { NOTICE } from '../../src/contract/envelope.ts';
import type { GenericHttpFake } from '../fakes/generic-http.ts';
import type { Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type ChatRequest, messageText, startOpenAiModelFake, type OpenAiModelFake } from '../fakes/openai-model.ts';
import { useAgentTierServices } from './agents-harness.ts';
import { managedMcpConfig, newQwenSession, type QwenSession } from './qwen-harness.ts';

/** The provider credential the fakes accept. */
export const TOKEN = 'e2e-provider-token';
export const SEARCH_TOOL = 'mcp__external-context__context_search';
export const REMEMBER_TOOL = 'mcp__external-context__context_remember';
/** The content the write tests ask the model to save. */
export const MEMORY = 'Deploy with the reviewed workflow.';
/** The item the generic fake returns. */
// Its content ends with a planted tag-character instruction (issue 27), escaped in T.
export const ITEM = {
  id: 'policy-1',
  content: `Use the reviewed deployment workflow.${PLANTED_TAGS}`,
  title: 'Deployment policy',
  uri: 'https://context.example.com/policies/1',
  score: 0.91,
  updated_at: '2026-08-13T00:00:00Z',
};
/** The envelope text T the server returns for ITEM (no angle brackets; the tag characters as `\uXXXX`). */
export const ENVELOPE_TEXT = withPlantedEscaped(
  JSON.stringify({
    untrusted_external_context: { notice: NOTICE, items: [{ id: ITEM.id, content: ITEM.content, title: ITEM.title, uri: ITEM.uri, score: ITEM.score, updatedAt: ITEM.updated_at }] },
  }),
);
const CREDENTIALS = { CONTEXT_API_TOKEN: TOKEN, MEM0_API_KEY: TOKEN };

/** The text of the tool message that answers `call_1` in the model's last request. */
export function toolResultText(requests: readonly ChatRequest[]): string | undefined {
  const last = requests.at(-1);
  const message = last?.messages.find((item) => item.role === 'tool');
  return message === undefined ? undefined : messageText(message);
}

/** The executable, the fakes and the session of one Qwen Code test (read them inside tests). */
export interface QwenCodeServices {
  readonly exe: string;
  readonly generic: GenericHttpFake;
  readonly mem0: Mem0ServerFake;
  readonly model: OpenAiModelFake;
  readonly session: QwenSession;
  /** The shipped generic-http.json pointed at the generic fake, written into the session. */
  searchConfig(): string;
  /** The shipped mem0-server-write.json pointed at the Mem0 fake, written into the session. */
  writeConfig(): string;
  /** The shipped managed search `--mcp-config` file for {@link searchConfig}. */
  searchMcp(): string;
  /** The shipped managed write `--mcp-config` file for {@link writeConfig}. */
  writeMcp(): string;
  /** Qwen's environment with `value` as its system settings file and the provider credentials. */
  settings(value: Record<string, unknown>): Record<string, string>;
  /** How many memory writes reached the Mem0 fake. */
  memoryWrites(): number;
}

/**
 * Registers the hooks of a Qwen Code file (call inside its describe): the fakes for the whole
 * file, all reset and a fresh session before each test, closed and the temporary folders
 * removed afterwards. The returned object's properties are set once the hooks have run.
 */
export function useQwenCodeServices(): QwenCodeServices {
  const base = useAgentTierServices({ token: TOKEN, items: [ITEM], newSession: newQwenSession, startModel: startOpenAiModelFake });
  return Object.assign(base, {
    searchMcp: () => base.session.writeJson('mcp.json', managedMcpConfig('managed-search-mcp.json', { executable: base.exe, config: base.searchConfig() })),
    writeMcp: () => base.session.writeJson('mcp.json', managedMcpConfig('managed-write-mcp.json', { executable: base.exe, config: base.writeConfig() })),
    settings: (value: Record<string, unknown>) => ({ QWEN_CODE_SYSTEM_SETTINGS_PATH: base.session.writeJson('system-settings.json', value), ...CREDENTIALS }),
    memoryWrites: () => base.mem0.requests.filter((request) => request.path === '/memories').length,
  });
}
