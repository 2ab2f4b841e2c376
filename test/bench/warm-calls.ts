// Warm per-call overhead: sequential context_search calls through one running server versus
// the same number of direct fetch calls to the same loopback provider, plus the server's
// peak RSS over the whole run.
import type { BenchFixture } from './bench-fixture.ts';
import { BENCH_QUERY } from './cold-start.ts';
import { assertSearchResult, spawnRpcDriver } from './json-rpc-driver.ts';
import { cpuMs, readPeakRssKiB } from './peak-rss.ts';

/** Untimed calls of each kind before the timed ones (JIT, connection pool). */
const WARM_UP_CALLS = 50;

/** One run's figures. */
export interface WarmRun {
  /** Total ms of the sequential context_search calls. */
  readonly serverMs: number;
  /** Total ms of the sequential direct fetch calls. */
  readonly fetchMs: number;
  /** The serving process's VmHWM after the run in KiB, or undefined off Linux. */
  readonly peakRssKiB: number | undefined;
  /** The serving process's CPU time during the timed calls, in ms; undefined off Linux. */
  readonly serverCpuMs: number | undefined;
}

/**
 * Starts one server, warms both paths up, then times `calls` context_search calls and `calls`
 * direct fetch calls (each awaited before the next, the body read and parsed as JSON).
 *
 * @param command Executable; `args` make it serve the fixture's version 1 configuration.
 * @param calls Calls of each kind, in items.
 * @throws {Error} If any call fails.
 */
export async function timeWarmCalls(command: string, args: readonly string[], fixture: BenchFixture, calls: number): Promise<WarmRun> {
  const driver = spawnRpcDriver(command, args, fixture.env);
  try {
    await driver.initialize();
    const search = async (): Promise<void> => {
      const response = await driver.request('tools/call', { name: 'context_search', arguments: { query: BENCH_QUERY } });
      assertSearchResult(response, 'warm context_search');
    };
    const direct = async (): Promise<void> => {
      const response = await fetch(fixture.fake.url, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${fixture.token}` },
        body: JSON.stringify({ query: BENCH_QUERY, limit: 5 }),
      });
      if (response.status !== 200) throw new Error(`direct fetch answered ${response.status}`);
      await response.json();
    };
    for (let call = 0; call < WARM_UP_CALLS; call++) {
      await search();
      await direct();
    }
    fixture.fake.reset();
    const cpuBefore = cpuMs(driver.pid);
    const serverMs = await timeSequential(search, calls);
    const cpuAfter = cpuMs(driver.pid);
    fixture.fake.reset();
    const fetchMs = await timeSequential(direct, calls);
    fixture.fake.reset();
    const serverCpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    return { serverMs, fetchMs, peakRssKiB: readPeakRssKiB(driver.pid), serverCpuMs };
  } finally {
    await driver.close();
  }
}

async function timeSequential(call: () => Promise<void>, count: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index++) await call();
  return performance.now() - started;
}
