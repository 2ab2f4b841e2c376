// Shared machinery of the real-agent tiers for Claude Code, Gemini CLI and Codex (agents.md §4):
// the fixture gate per host, an isolated HOME and workspace per test, the shipped examples with
// the executable and configuration paths replaced, the provider and model fakes of one tier,
// and a scan of every file the agent wrote.
import { afterAll, beforeAll, beforeEach } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readExample, substitute } from '../contracts/examples-files.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import type { FixtureTier } from '../support/fixture-tier.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { agentNodeEnv, withAgentNode } from './agent-node.ts';
import { requireExecutable } from './qwen-harness.ts';
import { makeSessionDirs } from './session-dirs.ts';
import { NOTICE } from '../../src/contract/envelope.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { PLANTED_TAGS, withPlantedEscaped } from '../support/planted-instruction.ts';

const AGENT_ITEM = {
  id: 'policy-1',
  // Its content ends with a planted tag-character instruction (issue 27).
  content: `Use the reviewed deployment workflow.${PLANTED_TAGS}`,
  title: 'Deployment policy',
  uri: 'https://context.example.com/policies/1',
  score: 0.91,
  updated_at: '2026-08-13T00:00:00Z',
};

/**
 * The one provider item of the Claude Code, Gemini CLI and Codex search runs, the envelope text
 * the model must see for it (the planted characters escaped), and the runs' hang guards.
 */
export const AGENT_SEARCH = {
  ITEM: AGENT_ITEM,
  ENVELOPE_TEXT: withPlantedEscaped(
    JSON.stringify({
      untrusted_external_context: {
        notice: NOTICE,
        items: [{ id: AGENT_ITEM.id, content: AGENT_ITEM.content, title: AGENT_ITEM.title, uri: AGENT_ITEM.uri, score: AGENT_ITEM.score, updatedAt: AGENT_ITEM.updated_at }],
      },
    }),
  ),
  RUN_TIMEOUT_MS: LIVENESS_MS,
  TEST_TIMEOUT_MS: 2 * LIVENESS_MS,
} as const;

/** A host fixture: folder, package, pinned version and binary. */
export interface AgentFixture {
  readonly folder: string;
  readonly packageName: string;
  readonly version: string;
  readonly bin: string;
}

/** The three pinned hosts (package.json of each fixture folder). */
export const AGENT_FIXTURES = {
  claude: { folder: 'test/fixtures/claude-code', packageName: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  gemini: { folder: 'test/fixtures/gemini-cli', packageName: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  codex: { folder: 'test/fixtures/codex', packageName: '@openai/codex', version: '0.169.0', bin: 'codex' },
} as const satisfies Record<string, AgentFixture>;

/**
 * One Node.js process per `gemini` run. Gemini CLI 0.61.0 starts itself a second time in a
 * child Node.js only to raise the heap limit, passing this variable to that child; setting it up
 * front runs the same code once, in the first process. Nothing the tests observe depends on
 * the heap limit.
 */
export const GEMINI_SINGLE_PROCESS: Readonly<Record<string, string>> = { GEMINI_CLI_NO_RELAUNCH: 'true' };

/** The absolute path of a fixture's binary. */
export function agentBin(fixture: AgentFixture): string {
  return join(REPO_ROOT, fixture.folder, 'node_modules', '.bin', fixture.bin);
}

/** Whether the fixture is installed at the pinned version, and the Node.js it runs on (agent-node.ts). */
export function agentTier(fixture: AgentFixture): FixtureTier {
  const manifest = join(REPO_ROOT, fixture.folder, 'node_modules', ...fixture.packageName.split('/'), 'package.json');
  let installed = existsSync(agentBin(fixture)) && existsSync(manifest);
  if (installed) installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === fixture.version;
  return withAgentNode({ installed, folder: fixture.folder });
}

/** One isolated agent set-up: HOME and workspace under a fresh temporary folder. */
export interface AgentSession {
  readonly dir: string;
  readonly home: string;
  readonly work: string;
  /** Writes a JSON file into `dir` (or a path below it) and returns its path. */
  writeJson(name: string, value: unknown): string;
  /** The minimal environment of an agent run: the agent Node.js (PATH, compile cache), HOME, LANG, and `extra`. */
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
}

/** Creates a session (removed by `removeTempDirs()`). */
export async function newAgentSession(prefix: string): Promise<AgentSession> {
  const { dir, home, work } = await makeSessionDirs(prefix);
  return {
    dir,
    home,
    work,
    writeJson(name, value) {
      const file = join(dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
      return file;
    },
    env(extra = {}) {
      return { ...agentNodeEnv(), HOME: home, LANG: 'C.UTF-8', ...extra };
    },
  };
}

/** The executable, the fakes and the session of one agent tier (read them inside tests and hooks). */
/** What the tier set-up needs of a session: its folders and a JSON writer. */
export type SessionFiles = Pick<AgentSession, 'dir' | 'home' | 'work' | 'writeJson'>;

export interface AgentTierServices<M, S extends SessionFiles = AgentSession> {
  /** The compiled executable. */
  readonly exe: string;
  /** The generic HTTP provider fake (search). */
  readonly generic: GenericHttpFake;
  /** The Mem0 server fake (write). */
  readonly mem0: Mem0ServerFake;
  /** The host's model fake. */
  readonly model: M;
  /** This test's session. */
  readonly session: S;
  /** Writes the shipped generic-http.json pointed at `generic` into the session; returns its path. */
  searchConfig(): string;
  /** Writes the shipped mem0-server-write.json pointed at `mem0` into the session; returns its path. */
  writeConfig(): string;
}

/**
 * Registers the hooks of one agent tier (call inside its describe): the executable, the generic
 * and Mem0 fakes answering `token` (the generic one with `items`) and the model fake from
 * `startModel` for the whole file, all reset and a fresh session from `newSession` before each
 * test, closed and the temporary folders removed afterwards. The returned object's properties are set once the hooks have run.
 */
export function useAgentTierServices<M extends { close(): Promise<void>; reset(): void }, S extends SessionFiles = AgentSession>(options: {
  readonly token: string;
  readonly items: readonly unknown[];
  readonly startModel: () => Promise<M>;
  readonly newSession: () => Promise<S>;
}): AgentTierServices<M, S> {
  let exe: string;
  let generic: GenericHttpFake;
  let mem0: Mem0ServerFake;
  let model: M;
  let session: S;

  beforeAll(async () => {
    exe = requireExecutable();
    generic = await startGenericHttpFake({ token: options.token, items: options.items });
    mem0 = await startMem0ServerFake({ apiKey: options.token, routes: 'stock' });
    model = await options.startModel();
  });
  afterAll(async () => {
    await Promise.all([generic.close(), mem0.close(), model.close()]);
    await removeTempDirs();
  });
  beforeEach(async () => {
    session = await options.newSession();
    generic.reset();
    mem0.reset();
    model.reset();
  });

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
    searchConfig: () => session.writeJson('search.json', substitute(readExample('generic-http.json'), { 'https://context.example.com': generic.origin })),
    writeConfig: () => session.writeJson('write.json', substitute(readExample('mem0-server-write.json'), { 'https://<your-mem0-endpoint>': mem0.origin, '<your-user-id>': 'u1' })),
  };
}

/**
 * A shipped example with the placeholder executable and configuration paths replaced inside
 * every string (commands, args, Hook command lines).
 */
export function exampleWithPaths(name: string, paths: { readonly executable: string; readonly config?: string; readonly pinned?: string }): Record<string, unknown> {
  let text = JSON.stringify(readExample(name)).replaceAll('/opt/external-context/bin/external-context', paths.executable);
  if (paths.config !== undefined && paths.pinned !== undefined) text = text.replaceAll(paths.pinned, paths.config);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Every regular file below `root` whose text contains `needle` (the agent's logs, transcripts,
 * caches). A file or folder removed between listing and reading is skipped: an agent killed a
 * moment ago may still be removing its temporary files (seen once for Claude Code's).
 */
export function filesContaining(root: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of unlessRemoved(() => readdirSync(dir, { withFileTypes: true })) ?? []) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && unlessRemoved(() => statSync(path).size < 64 * 1024 * 1024 && readFileSync(path).includes(needle))) found.push(path);
    }
  };
  walk(root);
  return found;
}

/** `read()`, or undefined when what it reads was removed meanwhile (ENOENT). */
function unlessRemoved<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** How often `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
