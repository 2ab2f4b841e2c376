// Shared machinery of the real-agent tiers for Claude Code, Gemini CLI and Codex (agents.md §4):
// the fixture gate per host, an isolated HOME and workspace per test, the shipped examples with
// the executable and configuration paths replaced, and a scan of every file the agent wrote.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readExample } from '../contracts/examples-files.ts';
import { findNode } from '../launch/launch-fixture.ts';
import type { FixtureTier } from '../support/fixture-tier.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';

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

/** The absolute path of a fixture's binary. */
export function agentBin(fixture: AgentFixture): string {
  return join(REPO_ROOT, fixture.folder, 'node_modules', '.bin', fixture.bin);
}

/** Whether the fixture is installed at the pinned version. */
export function agentTier(fixture: AgentFixture): FixtureTier {
  const manifest = join(REPO_ROOT, fixture.folder, 'node_modules', ...fixture.packageName.split('/'), 'package.json');
  let installed = existsSync(agentBin(fixture)) && existsSync(manifest);
  if (installed) installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === fixture.version;
  return { installed, folder: fixture.folder };
}

/** One isolated agent set-up: HOME and workspace under a fresh temporary folder. */
export interface AgentSession {
  readonly dir: string;
  readonly home: string;
  readonly work: string;
  /** Writes a JSON file into `dir` (or a path below it) and returns its path. */
  writeJson(name: string, value: unknown): string;
  /** The minimal environment of an agent run: PATH with Node.js, HOME, LANG, and `extra`. */
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
}

/** Creates a session (removed by `removeTempDirs()`). */
export async function newAgentSession(prefix: string): Promise<AgentSession> {
  const { path: dir } = await makeTempDir(prefix);
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
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
      return { PATH: `${dirname(findNode())}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', ...extra };
    },
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

/** Every regular file below `root` whose text contains `needle` (the agent's logs, transcripts, caches). */
export function filesContaining(root: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && statSync(path).size < 64 * 1024 * 1024 && readFileSync(path).includes(needle)) found.push(path);
    }
  };
  walk(root);
  return found;
}

/** How often `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
