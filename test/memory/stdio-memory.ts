// Memory of the stdio server over many calls (issue 18 item 5, issue 20 item 10): RSS from
// /proc and, where the runtime can force a collection, heap in use after a full GC, sampled at
// fixed call counts. RSS alone cannot tell a leak from collector lag: JSC and V8 grow their heap
// and keep freed pages, so only the heap after a forced GC shows what each call keeps.
//
// `bun test/memory/stdio-memory.ts [exe|bun|node|deno|all] [checkpoints…]` prints the figures,
// e.g. `bun test/memory/stdio-memory.ts all 0 10000 50000 100000`. Loopback only, bounded by the
// last checkpoint, one call in flight at a time.
import { binPath, bundlePath, exePath, requireBuilt } from '../support/paths.ts';
import { type BenchFixture, startBenchFixture } from '../bench/bench-fixture.ts';
import { assertSearchResult, spawnRpcDriver } from '../bench/json-rpc-driver.ts';
import { readPeakRssKiB, readRssKiB } from '../bench/peak-rss.ts';
import { DENO_BASE_PERMISSIONS } from '../support/launchers.ts';

/** The wrapper that answers SIGUSR2 with the heap after a forced GC (test-only). */
export const HEAP_PROBE = new URL('./heap-probe.mjs', import.meta.url).pathname;

/**
 * Where the stdio server runs. V8 runs with --no-flush-bytecode, so that bytecode flushed as it
 * ages does not move the heap figure. The compiled executable cannot be told to collect; it runs with
 * `BUN_JSC_logGC=2` (JSC options are read from BUN_JSC_* variables, also by a compiled
 * executable), and its heap figure is the size after the latest full collection it made.
 */
export type MemorySubject = 'exe' | 'bun' | 'node' | 'deno';

/** One sample, taken after `calls` calls. */
export interface MemorySample {
  readonly calls: number;
  /** Current RSS (VmRSS). */
  readonly rssMiB: number | undefined;
  /** Peak RSS so far (VmHWM). */
  readonly peakRssMiB: number | undefined;
  /**
   * Heap in use after a forced full GC (`exe`: after its latest own full collection, undefined
   * before the first).
   */
  readonly heapMiB: number | undefined;
  /** `exe` only: full collections the server made so far. */
  readonly fullGcs?: number;
  /** V8 only (Node, Deno): heap reserved after the GC, used or not. */
  readonly heapTotalMiB?: number;
  /** V8 only: memory held outside the heap (ArrayBuffers, native buffers). */
  readonly externalMiB?: number;
  /** Live heap objects after the GC (Bun only). */
  readonly objects: number | undefined;
  /** Bun only: the object types whose count grew most since the first sample. */
  readonly grown?: readonly string[];
}

interface ProbeLine {
  readonly heapBytes: number;
  /** V8 only: heap reserved (used or not) and memory outside the heap (buffers). */
  readonly heapTotalBytes?: number;
  readonly externalBytes?: number;
  readonly rssBytes: number;
  readonly objects?: number;
  readonly counts?: Record<string, number>;
}

/**
 * The environment that makes a Bun executable log every collection to stderr (a JSC option,
 * read from BUN_JSC_* variables also by a compiled executable). Observes only: the soak uses it.
 */
export const JSC_GC_LOG_ENV = { BUN_JSC_logGC: '2' } as const;

/**
 * JSC_GC_LOG_ENV with generational collection off, so every collection is a full one (about one
 * per 160 calls of the stdio server) and the latest figure is at most that old; with it on,
 * 10,000 calls saw a single full collection. The memory measurement uses it.
 */
export const JSC_FULL_GC_ENV = { ...JSC_GC_LOG_ENV, BUN_JSC_useGenerationalGC: '0' } as const;

/** Reads JSC's GC log (JSC_GC_LOG_ENV) from a server's stderr, line by line. */
export interface JscFullGcLog {
  /** Feeds one stderr line; lines that are not part of a GC record are ignored. */
  onLine(line: string): void;
  /** Heap size after the latest full collection, in MiB; undefined before the first. */
  lastFullMiB(): number | undefined;
  /** Full collections seen so far. */
  fullGcs(): number;
}

/**
 * A parser of JSC's GC log. One record spans lines:
 * `[GC<…>: START M 480kb => FullCollection, … => 122kb, p=1.8ms (max …), cycle … END]`; only
 * full collections count (an eden collection leaves old garbage in place).
 */
export function jscFullGcLog(): JscFullGcLog {
  let record = '';
  let lastKb: number | undefined;
  let count = 0;
  return {
    onLine(line) {
      if (record === '' && !line.includes(' START ')) return;
      record += line;
      if (!line.includes('END]')) return;
      const after = /=> (\d+)kb, p=/u.exec(record);
      if (record.includes('=> FullCollection') && after !== null) {
        lastKb = Number(after[1]);
        count++;
      }
      record = '';
    },
    lastFullMiB: () => (lastKb === undefined ? undefined : lastKb / 1024),
    fullGcs: () => count,
  };
}

function command(subject: MemorySubject, fixture: BenchFixture): [string, string[]] {
  const serve = ['serve', '--config', fixture.serveConfig];
  requireBuilt(bundlePath());
  switch (subject) {
    case 'exe':
      return [requireBuilt(exePath()), serve];
    case 'bun':
      return [binPath('bun'), [HEAP_PROBE, ...serve]];
    case 'node':
      return [Bun.which('node') ?? 'node', ['--expose-gc', '--no-flush-bytecode', HEAP_PROBE, ...serve]];
    case 'deno':
      return [binPath('deno'), ['run', '--v8-flags=--expose-gc,--no-flush-bytecode', ...DENO_BASE_PERMISSIONS, HEAP_PROBE, ...serve]];
  }
}

/**
 * Drives one stdio server with sequential `context_search` calls and samples memory when the
 * count reaches each checkpoint.
 *
 * @param checkpoints Ascending call counts (0 = right after `initialize` and one warm-up call).
 * @param log Progress lines.
 * @param how `asShipped: true` runs the executable without JSC_FULL_GC_ENV, so RSS is the
 *   product's own (no heap figure then); Bun, Node and Deno subjects ignore it.
 */
export async function measureStdioMemory(
  subject: MemorySubject,
  checkpoints: readonly number[],
  fixture: BenchFixture,
  log: (line: string) => void = () => {},
  how: { readonly asShipped?: boolean } = {},
): Promise<MemorySample[]> {
  const [file, args] = command(subject, fixture);
  const probes: ((line: ProbeLine) => void)[] = [];
  const snapshots = process.env['HEAP_PROBE_SNAPSHOTS'];
  const env: Record<string, string> = { ...fixture.env };
  if (snapshots !== undefined) env['HEAP_PROBE_SNAPSHOTS'] = snapshots;
  if (subject === 'exe' && how.asShipped !== true) Object.assign(env, JSC_FULL_GC_ENV);
  const gcLog = jscFullGcLog();
  const driver = spawnRpcDriver(file, args, env, (line) => {
    if (line.startsWith('HEAP-PROBE ')) probes.shift()?.(JSON.parse(line.slice('HEAP-PROBE '.length)) as ProbeLine);
    else if (subject === 'exe') gcLog.onLine(line);
  });
  const call = async (): Promise<void> => {
    assertSearchResult(await driver.request('tools/call', { name: 'context_search', arguments: { query: 'deployment approval policy' } }), `${subject} memory`);
  };
  const samples: MemorySample[] = [];
  let firstCounts: Record<string, number> | undefined;
  try {
    await driver.initialize();
    await call();
    let done = 0;
    for (const target of checkpoints) {
      while (done < target) {
        await call();
        done++;
      }
      let probe: ProbeLine | undefined;
      if (subject !== 'exe') {
        probe = await new Promise<ProbeLine>((resolve) => {
          probes.push(resolve);
          process.kill(driver.pid, 'SIGUSR2');
        });
      }
      const kib = readRssKiB(driver.pid);
      const peakKib = readPeakRssKiB(driver.pid);
      let grown: string[] | undefined;
      if (probe?.counts !== undefined) {
        firstCounts ??= probe.counts;
        const base = firstCounts;
        grown = Object.entries(probe.counts)
          .map(([type, count]) => [type, count - (base[type] ?? 0)] as const)
          .filter(([, delta]) => delta > 0)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([type, delta]) => `${type} +${delta}`);
      }
      const sample: MemorySample = {
        calls: done,
        rssMiB: kib === undefined ? undefined : kib / 1024,
        peakRssMiB: peakKib === undefined ? undefined : peakKib / 1024,
        heapMiB: probe !== undefined ? probe.heapBytes / 1_048_576 : gcLog.lastFullMiB(),
        objects: probe?.objects,
        ...(probe?.heapTotalBytes === undefined ? {} : { heapTotalMiB: probe.heapTotalBytes / 1_048_576 }),
        ...(probe?.externalBytes === undefined ? {} : { externalMiB: probe.externalBytes / 1_048_576 }),
        ...(subject === 'exe' ? { fullGcs: gcLog.fullGcs() } : {}),
        ...(grown === undefined ? {} : { grown }),
      };
      samples.push(sample);
      log(`${subject}: ${formatSample(sample)}`);
    }
    return samples;
  } finally {
    await driver.close();
  }
}

/** `10000 calls: RSS 60.1 MiB, heap after GC 4.2 MiB (41,230 objects)`. */
export function formatSample(sample: MemorySample): string {
  const rss = sample.rssMiB === undefined ? 'n/a' : `${sample.rssMiB.toFixed(1)} MiB`;
  const after = sample.fullGcs === undefined ? 'GC' : `its latest full GC (${sample.fullGcs} so far)`;
  const heap = sample.heapMiB === undefined ? '' : `, heap after ${after} ${sample.heapMiB.toFixed(2)} MiB`;
  const objects = sample.objects === undefined ? '' : ` (${sample.objects.toLocaleString('en-US')} objects)`;
  const v8 = sample.heapTotalMiB === undefined ? '' : ` (heap reserved ${sample.heapTotalMiB.toFixed(1)} MiB, external ${(sample.externalMiB ?? 0).toFixed(2)} MiB)`;
  const grown = sample.grown === undefined || sample.grown.length === 0 ? '' : `; grew: ${sample.grown.join(', ')}`;
  return `${sample.calls} calls: RSS ${rss}${heap}${objects}${v8}${grown}`;
}

if (import.meta.main) {
  const [which = 'all', ...rest] = process.argv.slice(2);
  const checkpoints = rest.length > 0 ? rest.map(Number) : [0, 10_000, 50_000, 100_000];
  const subjects: MemorySubject[] = which === 'all' ? ['exe', 'bun', 'node', 'deno'] : [which as MemorySubject];
  const fixture = await startBenchFixture();
  try {
    for (const subject of subjects) await measureStdioMemory(subject, checkpoints, fixture, (line) => console.log(line));
  } finally {
    await fixture.close();
  }
}
