// Cold start of a stdio MCP server to its first context_search result: spawn, `initialize`
// (waiting for its answer, as a client must), `notifications/initialized`, one `tools/call`.
import { readdirSync, readFileSync } from 'node:fs';
import { assertSearchResult, spawnRpcDriver } from './json-rpc-driver.ts';
import type { Sample } from './process-timing.ts';

/** The query every benchmark search sends. */
export const BENCH_QUERY = 'deployment approval policy';

/**
 * Times one cold start, from spawn to the first context_search result, then ends stdin and
 * waits for the exit (not timed) so runs never overlap.
 *
 * @param command Executable or runtime; `args` must make it serve a version 1 configuration.
 * @param env The whole child environment.
 * @param onInitialized Receives the ms from spawn to the parsed initialize answer (the
 *   cold-start breakdown).
 * @returns Milliseconds from spawn to the parsed tools/call response, and the server's CPU
 *   milliseconds up to then (Linux; undefined elsewhere).
 * @throws {Error} If the server answers anything but a search result, or exits early.
 */
export async function timeColdStart(command: string, args: readonly string[], env: Record<string, string>, onInitialized?: (ms: number) => void): Promise<Sample> {
  const started = performance.now();
  const driver = spawnRpcDriver(command, args, env);
  try {
    await driver.initialize();
    onInitialized?.(performance.now() - started);
    const response = await driver.request('tools/call', { name: 'context_search', arguments: { query: BENCH_QUERY } });
    const elapsed = performance.now() - started;
    const cpuMs = cpuSoFarMs(driver.pid);
    assertSearchResult(response, `cold start of ${command}`);
    return { ms: elapsed, cpuMs };
  } finally {
    await driver.close();
  }
}

/**
 * CPU time a running process has used so far, in ms: the sum over its threads of the run time
 * in /proc/<pid>/task/<tid>/schedstat (nanoseconds). Threads that already ended are not
 * counted. Undefined where /proc is missing.
 */
function cpuSoFarMs(pid: number): number | undefined {
  try {
    let nanoseconds = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'latin1').split(' ')[0]);
    }
    return nanoseconds / 1e6;
  } catch {
    return undefined;
  }
}
