// Running the real Qwen Code 0.24.4 client offline for the e2e tier (qwen-client.md §11, §13):
// the fixture gate, an isolated QWEN_HOME and workspace per test, a clean environment, the
// administrator files built from the shipped examples, and readers for Qwen's outputs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { substitute, readExample } from '../contracts/examples-files.ts';
import type { OpenAiModelFake } from '../fakes/openai-model.ts';
import type { FixtureTier } from '../support/fixture-tier.ts';
import { exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { type ProcessResult, runProcess } from '../support/run-process.ts';
import { agentNodeEnv, withAgentNode } from './agent-node.ts';
import { makeSessionDirs } from './session-dirs.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

/** The pinned client version. */
export const QWEN_VERSION = '0.24.4';
/** The fixture package folder. */
export const QWEN_FIXTURE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'qwen-code');
/** The `qwen` binary the fixture installs. */
export const QWEN_BIN = join(QWEN_FIXTURE_DIR, 'node_modules', '.bin', 'qwen');
/** Hang guard for one `qwen` run in ms (a run takes about 5 s, more on a loaded 2-core machine). */
export const QWEN_RUN_TIMEOUT_MS = LIVENESS_MS;
/** Per-test timeout in ms for tests that run `qwen` once or twice. */
export const QWEN_TEST_TIMEOUT_MS = 2 * LIVENESS_MS;

/** Whether the Qwen Code fixture is installed at the pinned version, and the Node.js it runs on (agent-node.ts). */
export function qwenTier(): FixtureTier {
  const manifest = join(QWEN_FIXTURE_DIR, 'node_modules', '@qwen-code', 'qwen-code', 'package.json');
  let installed = existsSync(QWEN_BIN) && existsSync(manifest);
  if (installed) installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === QWEN_VERSION;
  return withAgentNode({ installed, folder: 'test/fixtures/qwen-code' });
}

/** The compiled executable; the tier needs `npm run build` (the pretest steps of npm test, test:agents and test:interactive build it). */
export function requireExecutable(): string {
  const exe = requireBuilt(exePath());
  return exe;
}

/** One isolated Qwen Code set-up: its own QWEN_HOME and workspace under a temporary folder. */
export interface QwenSession {
  /** The temporary folder holding everything below (canonical path). */
  readonly dir: string;
  /** QWEN_HOME (also HOME, so nothing reaches the real home directory). */
  readonly home: string;
  /** Qwen's working directory: the repository. */
  readonly work: string;
  /** Writes a JSON file into `dir` and returns its path. */
  writeJson(name: string, value: unknown): string;
}

/** Creates a fresh session (removed by `removeTempDirs()`). */
export async function newQwenSession(): Promise<QwenSession> {
  const { dir, home, work } = await makeSessionDirs('ec-qwen-');
  return {
    dir,
    home,
    work,
    writeJson(name, value) {
      const file = join(dir, name);
      writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
      return file;
    },
  };
}

/**
 * One Node.js process per `qwen` run. Qwen Code 0.24.4 loads its CLI, then starts itself a
 * second time in a child Node.js (on Node.js < 23.11, which has no `process.execve`) only to
 * raise the heap limit, passing this variable to that child. Setting it up front runs the same
 * code once: the child's run, in the first process, at ~60% of the CPU (2.5 s instead of 4.1 s
 * per run here). Nothing the tests observe depends on the heap limit.
 */
export const QWEN_SINGLE_PROCESS: Readonly<Record<string, string>> = { QWEN_CODE_NO_RELAUNCH: 'true' };

/**
 * The complete environment of a `qwen` run: the agent Node.js ({@link agentNodeEnv}: PATH and
 * its compile cache), HOME and QWEN_HOME in the session, {@link QWEN_SINGLE_PROCESS}, and
 * `extra`. Nothing else of the test runner's environment (no proxies, no tokens).
 */
export function qwenEnv(session: QwenSession, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...agentNodeEnv(), HOME: session.home, QWEN_HOME: session.home, LANG: 'C.UTF-8', ...QWEN_SINGLE_PROCESS, ...extra };
}

/** Runs `qwen args` in the session's workspace with {@link qwenEnv}. */
export function runQwen(session: QwenSession, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<ProcessResult> {
  return runProcess(QWEN_BIN, args, { cwd: session.work, env: qwenEnv(session, env), timeoutMs: QWEN_RUN_TIMEOUT_MS });
}

/** Flags that point Qwen at the fake model with a dummy key. */
export function modelFlags(model: Pick<OpenAiModelFake, 'baseUrl'> | { readonly baseUrl: string }): string[] {
  return ['--auth-type', 'openai', '--openai-api-key', 'dummy', '--openai-base-url', model.baseUrl, '-m', 'fake'];
}

/** The records of an `-o json` run. */
export interface JsonRun {
  readonly init: { tools: string[]; mcp_servers: { name: string; status: string }[]; qwen_code_version: string; [key: string]: unknown };
  readonly result: { subtype: string; is_error: boolean; result: string; permission_denials: unknown[]; [key: string]: unknown };
  readonly records: Record<string, unknown>[];
}

/** Parses the JSON array `qwen -o json` prints on stdout. */
export function parseJsonRun(stdout: string): JsonRun {
  const records = JSON.parse(stdout) as Record<string, unknown>[];
  const init = records.find((record) => record['type'] === 'system' && record['subtype'] === 'init');
  const result = records.findLast((record) => record['type'] === 'result');
  if (init === undefined || result === undefined) throw new Error('qwen -o json printed no init or no result record.');
  return { init: init as JsonRun['init'], result: result as JsonRun['result'], records };
}

/** Removes ANSI colour sequences. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** The status `qwen mcp list` prints for one server, or undefined when it is not listed. */
export function mcpListStatus(stdout: string, server: string): 'Connected' | 'Disconnected' | undefined {
  for (const line of stripAnsi(stdout).split('\n')) {
    const match = /^\S+ ([^:]+): .* - (Connected|Disconnected)\s*$/.exec(line);
    if (match !== null && match[1] === server) return match[2] as 'Connected' | 'Disconnected';
  }
  return undefined;
}

/**
 * A managed `--mcp-config` file from the shipped example, with the executable, its folder and
 * the pinned configuration replaced (examples.md §4).
 */
export function managedMcpConfig(name: 'managed-search-mcp.json' | 'managed-write-mcp.json', paths: { readonly executable: string; readonly config: string }): Record<string, unknown> {
  const pinned = name === 'managed-search-mcp.json' ? '/etc/external-context/search.json' : '/etc/external-context/write.json';
  return substitute(readExample(name), {
    '/opt/external-context/bin/external-context': paths.executable,
    '/opt/external-context': dirname(paths.executable),
    [pinned]: paths.config,
  });
}

/**
 * Managed system settings from a shipped example with its Hook commands pointing at `executable`
 * (and `config` for auto-recall), plus `extra` top-level keys.
 */
export function managedSystemSettings(name: string, paths: { readonly executable: string; readonly config?: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const settings = readExample(name);
  const text = JSON.stringify(settings)
    .replaceAll("'/opt/external-context/bin/external-context'", `'${paths.executable}'`)
    .replaceAll("'/etc/external-context/auto-recall.json'", `'${paths.config ?? ''}'`);
  return { ...(JSON.parse(text) as Record<string, unknown>), ...extra };
}
