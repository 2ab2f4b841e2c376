// The set-up the Qwen Code tier's files share (qwen-client.md §11, §13): the compiled executable,
// the strict provider fakes and the fake model for the whole file, a fresh isolated session
// before each test, and the administrator files built from the shipped examples. The tier is
// split over several files (qwen-code.test.ts, qwen-code-write.test.ts,
// qwen-extension-settings.test.ts) so `bun test --parallel` runs them side by side.
import { afterAll, beforeAll, beforeEach } from 'bun:test';
import { NOTICE } from '../../src/contract/envelope.ts';
import { readExample, substitute } from '../contracts/examples-files.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type ChatRequest, messageText, startOpenAiModelFake, type OpenAiModelFake } from '../fakes/openai-model.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { managedMcpConfig, newQwenSession, requireExecutable, type QwenSession } from './qwen-harness.ts';

/** The provider credential the fakes accept. */
export const TOKEN = 'e2e-provider-token';
export const SEARCH_TOOL = 'mcp__external-context__context_search';
export const REMEMBER_TOOL = 'mcp__external-context__context_remember';
/** The content the write tests ask the model to save. */
export const MEMORY = 'Deploy with the reviewed workflow.';
/** The item the generic fake returns. */
export const ITEM = { id: 'policy-1', content: 'Use the reviewed deployment workflow.', title: 'Deployment policy', uri: 'https://context.example.com/policies/1', score: 0.91, updated_at: '2026-08-13T00:00:00Z' };
/** The envelope text T the server returns for ITEM (no angle brackets, so Qwen passes it alone). */
export const ENVELOPE_TEXT = JSON.stringify({
  untrusted_external_context: { notice: NOTICE, items: [{ id: ITEM.id, content: ITEM.content, title: ITEM.title, uri: ITEM.uri, score: ITEM.score, updatedAt: ITEM.updated_at }] },
});
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
  let exe: string;
  let generic: GenericHttpFake;
  let mem0: Mem0ServerFake;
  let model: OpenAiModelFake;
  let session: QwenSession;

  beforeAll(async () => {
    exe = requireExecutable();
    generic = await startGenericHttpFake({ token: TOKEN, items: [ITEM] });
    mem0 = await startMem0ServerFake({ apiKey: TOKEN, routes: 'stock' });
    model = await startOpenAiModelFake();
  });
  afterAll(async () => {
    await Promise.all([generic.close(), mem0.close(), model.close()]);
    await removeTempDirs();
  });
  beforeEach(async () => {
    session = await newQwenSession();
    generic.reset();
    mem0.reset();
    model.reset();
  });

  const searchConfig = (): string => session.writeJson('search.json', substitute(readExample('generic-http.json'), { 'https://context.example.com': generic.origin }));
  const writeConfig = (): string =>
    session.writeJson('write.json', substitute(readExample('mem0-server-write.json'), { 'https://<your-mem0-endpoint>': mem0.origin, '<your-user-id>': 'u1' }));
  return {
    get exe() {
      return exe;
    },
    get generic() {
      return generic;
    },
    get mem0() {
      return mem0;
    },
    get model() {
      return model;
    },
    get session() {
      return session;
    },
    searchConfig,
    writeConfig,
    searchMcp: () => session.writeJson('mcp.json', managedMcpConfig('managed-search-mcp.json', { executable: exe, config: searchConfig() })),
    writeMcp: () => session.writeJson('mcp.json', managedMcpConfig('managed-write-mcp.json', { executable: exe, config: writeConfig() })),
    settings: (value) => ({ QWEN_CODE_SYSTEM_SETTINGS_PATH: session.writeJson('system-settings.json', value), ...CREDENTIALS }),
    memoryWrites: () => mem0.requests.filter((request) => request.path === '/memories').length,
  };
}
