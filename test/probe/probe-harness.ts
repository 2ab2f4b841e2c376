// Runs `probe` in-process through its run() with a captured Io, and spawned as the real program
// (the compiled executable), for the probe tests.
import { run } from '../../src/cli/probe.ts';
import type { RecordedRequest } from '../fakes/fake-server.ts';
import { CANARY } from '../support/canaries.ts';
import { cleanEnv } from '../support/env.ts';
import { type CapturedRun, runInMemory } from '../support/memory-io.ts';
import { exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';

/** The credential every probe test uses: a canary that must never be printed. */
export const KEY = CANARY.credential;
/** The probe's default credential variable. */
export const KEY_ENV = 'MEM0_API_KEY';

/** The outcome of one probe run. */
export type ProbeRun = CapturedRun;

/**
 * Runs `probe <args>` in-process.
 *
 * @param env The complete environment (default: only `MEM0_API_KEY` set to the canary key).
 */
export function probe(args: readonly string[], env: Record<string, string | undefined> = { [KEY_ENV]: KEY }): Promise<ProbeRun> {
  return runInMemory(run, args, { env, cwd: REPO_ROOT });
}

/** Runs the compiled executable's `probe <args>` with a clean environment plus `extra` (no source row: CONTRIBUTING.md). */
export function probeSpawned(args: readonly string[], extra: Record<string, string | undefined> = { [KEY_ENV]: KEY }): Promise<ProbeRun> {
  return runProcess(requireBuilt(exePath()), ['probe', ...args], { env: cleanEnv(extra) }).then((result) => ({
    code: result.code ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
  }));
}

/** `METHOD path` of every recorded request, in order. */
export function requestLines(requests: readonly RecordedRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.path}`);
}

/** True when a recorded request carries any credential header. */
export function carriesCredential(request: RecordedRequest): boolean {
  return request.headers['authorization'] !== undefined || request.headers['x-api-key'] !== undefined;
}
