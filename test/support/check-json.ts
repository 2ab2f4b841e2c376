// `check ... --json` in-process through the dispatch table, for the checklist tests: the exit
// code, the parsed items and the raw streams. Assertions on them stay in each test.
import type { CheckItem } from '../../src/check/check-item.ts';
import { run as runDispatch } from '../../src/cli/dispatch.ts';
import { runInMemory } from './memory-io.ts';
import { REPO_ROOT } from './paths.ts';

export type { CheckItem };

/** One `check --json` run. */
export interface CheckJsonRun {
  readonly code: number;
  /** The top-level `ok` of the JSON. */
  readonly ok: boolean;
  readonly items: CheckItem[];
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `check ...args --json` with `env` as the whole environment, in the repository root. */
export async function runCheckJson(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<CheckJsonRun> {
  const result = await runInMemory(runDispatch, ['check', ...args, '--json'], { env, cwd: REPO_ROOT });
  const parsed = JSON.parse(result.stdout) as { ok: boolean; items: CheckItem[] };
  return { code: result.code, ok: parsed.ok, items: parsed.items, stdout: result.stdout, stderr: result.stderr };
}
