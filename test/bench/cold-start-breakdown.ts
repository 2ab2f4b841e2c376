// The cold-start breakdown of `npm run bench` (issue 18, item 3): where the time from spawn to
// the first context_search result goes. Two sources, timed in the same interleaved rounds as
// the floor: the product's own cold start seen by the client (spawn → initialize answered →
// first result, cold-start.ts), and startup/cold-path-main.ts, the stdio server's cold path
// run in-process step by step and compiled like the product, which prints each step's ms.
import path from 'node:path';
import { ms } from './bench-table.ts';
import { compileLikeProduct } from './compile-like-product.ts';
import type { Subject } from './interleaved.ts';
import { timeProcess } from './process-timing.ts';
import { median } from './stats.ts';

const COLD_PATH_MAIN = path.join(import.meta.dir, 'startup', 'cold-path-main.ts');

/** Per-step samples (ms) of the in-process cold path, in step order, filled by the subject. */
export type ColdPathSamples = Map<string, number[]>;

/**
 * Compiles the in-process cold path into `dir` and returns its subject for the interleaved
 * rounds; each run adds its steps to `samples` and returns its wall time.
 *
 * @param serveConfig The version 1 configuration the product's cold start serves.
 * @param env The bench fixture's child environment (carries the credential).
 */
export async function coldPathSubject(dir: string, commit: string | undefined, serveConfig: string, env: Record<string, string>, samples: ColdPathSamples): Promise<Subject> {
  const exe = await compileLikeProduct(COLD_PATH_MAIN, path.join(dir, 'cold-path'), { commit });
  return {
    key: 'coldPath',
    async once() {
      const run = await timeProcess(exe, [serveConfig], '', env);
      const steps = JSON.parse(run.stdout) as Record<string, number>;
      for (const [step, value] of Object.entries(steps)) {
        const list = samples.get(step) ?? [];
        list.push(value);
        samples.set(step, list);
      }
      return { ms: run.ms, cpuMs: run.cpuMs };
    },
  };
}

/**
 * Prints the breakdown: the client's view of the product's cold start, then the in-process
 * steps (median ms of each; the first, warm-up round is left out).
 *
 * @param client Medians of the product's cold start: initialize answered and first result, ms after spawn.
 * @param floorMs The floor's median from the same rounds.
 * @param rounds Timed rounds; the subject also ran in the untimed warm-up round.
 */
export function printColdStartBreakdown(client: { readonly initializeMs: number; readonly firstResultMs: number }, floorMs: number, samples: ColdPathSamples, rounds: number): void {
  console.log('\nCold start → first result, broken down (medians of the same rounds)');
  console.log('  seen by the client (the product, dist/):');
  console.log(`    ${'floor: the runtime starts, prints and exits'.padEnd(64)} ${ms(floorMs).padStart(8)}`);
  console.log(`    ${'spawn → initialize answered'.padEnd(64)} ${ms(client.initializeMs).padStart(8)}`);
  console.log(`    ${'initialize answered → first context_search result'.padEnd(64)} ${ms(client.firstResultMs - client.initializeMs).padStart(8)}`);
  console.log('  in-process steps (startup/cold-path-main.ts, compiled like the product):');
  let total = 0;
  for (const [step, values] of samples) {
    const value = median(values.slice(values.length - rounds));
    if (!step.includes('(warm')) total += value;
    console.log(`    ${step.padEnd(64)} ${ms(value).padStart(8)}`);
  }
  console.log(`    ${'sum of the cold steps'.padEnd(64)} ${ms(total).padStart(8)}`);
}
