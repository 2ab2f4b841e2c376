// The stdio server keeps nothing per call (issue 18 item 5, issue 20 item 10): the heap in use
// after a forced full garbage collection is flat between a warmed-up point and 10,000 calls
// later, on the bundle under Bun, Node.js and Deno (test/memory/heap-probe.mjs forces the
// collection). RSS is not judged: it follows the collector's own sizing, not what is live.
// A long tier (45,000 calls, about two minutes): `npm run test:long` runs it (`.ci/run` after
// `npm test`); the `.long.ts` name keeps a bare `bun test` from picking it up.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type BenchFixture, startBenchFixture } from '../bench/bench-fixture.ts';
import { bundlePath, requireBuilt } from '../support/paths.ts';
import { formatSample, measureStdioMemory } from './stdio-memory.ts';

/**
 * After this many calls the JIT has compiled the call path (V8 still adds ~0.6 MiB of code
 * between 1,000 and 3,000 calls, then < 0.1 MiB per 10,000).
 */
const WARM = 5000;
/** Calls measured after the warm-up. */
const MEASURED = 10_000;

let fixture: BenchFixture;
beforeAll(async () => {
  fixture = await startBenchFixture();
});
afterAll(async () => {
  await fixture.close();
});

// A leak of one small object per call grows the heap by ≥ 0.6 MiB over the measured calls
// (one AbortController kept per call, injected to check this test, added per 5,000 calls:
// Node +0.30 MiB, Deno +0.68 MiB, Bun +5,000 objects). Without a leak V8 still moves by up to
// ~0.15 MiB (code the JIT compiles); it runs with --no-flush-bytecode, as flushing old
// bytecode otherwise moves the figure by ±0.5 MiB either way.
const BOUND_MIB = 0.3;

requireBuilt(bundlePath());

for (const subject of ['bun', 'node', 'deno'] as const) {
  test(`${subject}: heap after GC is flat over ${MEASURED} context_search calls`, async () => {
    const [warm, end] = await measureStdioMemory(subject, [WARM, WARM + MEASURED], fixture);
    if (warm === undefined || end === undefined) throw new Error('missing samples');
    console.log(`[memory] ${subject} ${formatSample(warm)} → ${formatSample(end)}`);
    expect(warm.heapMiB).toBeDefined();
    expect((end.heapMiB ?? 0) - (warm.heapMiB ?? 0)).toBeLessThanOrEqual(BOUND_MIB);
    // Bun counts live objects: fewer than one per 40 calls may appear (JIT code blocks).
    if (subject === 'bun') expect((end.objects ?? 0) - (warm.objects ?? 0)).toBeLessThanOrEqual(MEASURED / 40);
  }, 300_000);
}
