// Start-to-exit timing of one child process, stdin written in one piece and stdout captured,
// with the child's CPU time (all its threads, user + system) from its resource usage: under
// load, wall time swings with the machine while CPU time stays with the program.

/** One timed run. */
export interface TimedRun {
  /** Wall-clock time from spawn to exit with stdout read to its end, in ms. */
  readonly ms: number;
  /** CPU time of the child (user + system, every thread), in ms. */
  readonly cpuMs: number | undefined;
  readonly stdout: string;
  readonly code: number | null;
}

/** What a benchmark subject measures in one run: wall time and, where known, CPU time (ms). */
export interface Sample {
  readonly ms: number;
  readonly cpuMs?: number | undefined;
}

/**
 * Spawns `command args`, writes `stdin` and ends it, and waits for the process to exit.
 *
 * @param env The whole child environment.
 * @returns Elapsed ms, CPU ms, captured stdout (UTF-8) and the exit code; stderr is discarded.
 */
export async function timeProcess(command: string, args: readonly string[], stdin: string, env: Record<string, string>): Promise<TimedRun> {
  const started = performance.now();
  const child = Bun.spawn([command, ...args], { env, stdin: new TextEncoder().encode(stdin), stdout: 'pipe', stderr: 'ignore' });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  const ms = performance.now() - started;
  const usage = child.resourceUsage();
  return { ms, cpuMs: usage === undefined ? undefined : Number(usage.cpuTime.total) / 1000, stdout, code };
}
