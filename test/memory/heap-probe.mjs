// Test-only wrapper (issue 20 item 10, issue 18 item 5): runs dist/external-context.mjs with its
// own arguments and, on SIGUSR2, forces a full garbage collection and writes one line
// `HEAP-PROBE {json}` to stderr: heap bytes in use after the collection, RSS, and under Bun the
// JSC object counts by type. The product has no such hook; this file is never bundled.
//
//   bun  test/memory/heap-probe.mjs serve --config …
//   node --expose-gc test/memory/heap-probe.mjs serve --config …
//   deno run --v8-flags=--expose-gc <permissions> test/memory/heap-probe.mjs serve --config …
import { writeSync } from 'node:fs';
import process from 'node:process';

const isBun = typeof globalThis.Bun !== 'undefined';
const isDeno = typeof globalThis.Deno !== 'undefined';
const jsc = isBun ? await import('bun:jsc') : undefined;

/** A few turns of the event loop, so FinalizationRegistry callbacks queued by a GC can run. */
async function settle() {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

async function snapshot() {
  if (isBun) {
    globalThis.Bun.gc(true);
    await settle();
    globalThis.Bun.gc(true);
    const stats = jsc.heapStats();
    const counts = stats.objectTypeCounts;
    return { heapBytes: stats.heapSize, objects: stats.objectCount, rssBytes: process.memoryUsage.rss(), counts };
  }
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc (node) or --v8-flags=--expose-gc (deno)');
  // undici's fetch unlinks each Request from its signal in a FinalizationRegistry callback,
  // which V8 runs in a task after the collection that found the Request dead: collect, let
  // those callbacks run, collect again.
  globalThis.gc();
  await settle();
  globalThis.gc();
  const usage = isDeno ? globalThis.Deno.memoryUsage() : process.memoryUsage();
  return { heapBytes: usage.heapUsed, heapTotalBytes: usage.heapTotal, externalBytes: usage.external, rssBytes: usage.rss };
}

// HEAP_PROBE_SNAPSHOTS=<dir> (Node only): also write a V8 heap snapshot there at each probe.
const snapshots = process.env.HEAP_PROBE_SNAPSHOTS;
let probes = 0;
const report = async () => {
  const line = JSON.stringify(await snapshot());
  if (snapshots !== undefined && !isBun && !isDeno) {
    const v8 = await import('node:v8');
    v8.writeHeapSnapshot(`${snapshots}/probe-${probes++}.heapsnapshot`);
  }
  writeSync(2, `HEAP-PROBE ${line}\n`);
};
if (isDeno) globalThis.Deno.addSignalListener('SIGUSR2', report);
else process.on('SIGUSR2', report);

// The bundle reads its arguments from process.argv.slice(2), as when started directly.
await import(new URL('../../dist/external-context.mjs', import.meta.url).href);
