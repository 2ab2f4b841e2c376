// `npm run bench` (issues 10 and 18): builds dist/ when stale, then measures start-up against a
// bare compiled executable (and the bundles against `node -e 0` and `deno eval 0`), a start-up
// breakdown from builds that differ in one thing at a time, a cold-start breakdown
// (cold-start-breakdown.ts), warm per-call overhead against
// direct fetch and a minimal stdio relay, peak RSS, the worst-case render, which commands
// evaluate the SDK's type module, the corpus service, `serve --http`, and how cost grows
// (scaling.ts). Prints every figure with its target and PASS/MISS and writes
// dist/bench-results.json; the process exits 0 whatever the verdicts (figures, not a test).
// Options: --runs <n> (start-up rounds, 20), --calls <n> (warm calls, 1000), --skip-extras (no
// corpus, serve --http, SDK check or scaling), --skip-bundles (no Deno/Node.js),
// --skip-breakdown, --skip-scaling, --quick-scaling (small sizes), --only-scaling (nothing but
// how cost grows), --scaling-parts <corpus,http,stdio,gateway> (which parts of it), --no-build
// (measure dist/ as it is), --exe <path> (measure another compiled executable in place of
// dist/external-context; serve --http keeps dist/), --baseline-exe <path> (also measure an older
// executable in the same run: its --version, Hooks and cold start in the same interleaved
// start-up rounds, rows "… (baseline)" and a before/after table, and its `serve --http`, the
// reference of that throughput target).
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildArtifacts } from '../../build/build.ts';
import { readBuildCommit } from '../../build/commit.ts';
import { timeAutoRecall, timeWriteConfirmation } from './auto-recall-hook.ts';
import { type BenchFixture, startBenchFixture } from './bench-fixture.ts';
import { formatTable, ms, ratio, type TableRow } from './bench-table.ts';
import { timeColdStart } from './cold-start.ts';
import { type ColdPathSamples, coldPathSubject, printColdStartBreakdown } from './cold-start-breakdown.ts';
import { type BundleStep, printBundleBreakdown, writeBundleSteps } from './bundle-breakdown.ts';
import { compileLikeProduct, REFERENCE_PROGRAMS } from './compile-like-product.ts';
import { benchCorpus, type CorpusBenchResult } from './corpus.ts';
import { parseScalingParts, printScaling, QUICK_SCALING, runScaling, DEFAULT_SCALING, type ScalingPart, type ScalingResults } from './scaling.ts';
import { BREAKDOWN_STEPS, compileBreakdown, type BreakdownFigure } from './startup-breakdown.ts';
import { cpuKey, sampleInterleaved, type Subject } from './interleaved.ts';
import { timeProcess } from './process-timing.ts';
import { benchWorstCaseRender, type RenderFigures } from './render-worst-case.ts';
import { benchRuleCost, RULE_COST_TARGET_MS, type RuleCostFigures } from './render-rule-cost.ts';
import { checkSdkEvaluation, type SdkEvaluation } from './sdk-evaluation.ts';
import { benchServeHttp, littlesLaw, type PathFigures, type ServeHttpBenchResult } from './serve-http.ts';
import { median, summarize, type Summary } from './stats.ts';
import { timeWarmCalls, type WarmRun } from './warm-calls.ts';
import { binPath, bundlePath, exePath, REPO_ROOT } from '../support/paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';

/** Targets of issue 18 (start-up, warm calls, bundles, serve --http) and issue 10 (RSS, render). */
const TARGETS = {
  versionRatio: 1.25,
  writeConfirmationRatio: 1.35,
  autoRecallRatio: 1.6,
  coldStartRatio: 3,
  /** Per-call overhead over the bare stdio relay's per-call overhead. */
  warmOverheadRatio: 1.5,
  /** Bundle --version and write-confirmation Hook over their runtime's own floor. */
  bundleRatio: 2,
  /** serve --http throughput over the baseline's, same run. */
  serveHttpThroughputGain: 2,
  serveHttpP50OverheadMs: 3,
  peakRssMiB: 60,
  worstCaseRenderMs: 5,
} as const;

/**
 * serve --http's baseline when no --baseline-exe is measured: issue 18's figures (commit
 * 1fc9d92, quiet machine), 2,433 searches/s against the provider alone at 18,331/s, so the
 * share of the provider's own throughput stands in for a same-run measurement.
 */
const SERVE_HTTP_BASELINE_SHARE = 2433 / 18331;

const DEFAULT_RUNS = 20;
const DEFAULT_CALLS = 1000;
const WARM_RUNS = 5;
const RENDER_RUNS = 50;
/** Interleaved runs of each side of the rule-cost comparison (issue 27). */
const RULE_COST_RUNS = 2000;
const DENO_ARGS = ['run', '--no-prompt', '--allow-read', '--allow-env', '--allow-net'] as const;
const RESULTS_FILE = path.join(REPO_ROOT, 'dist', 'bench-results.json');

/** A start-up figure with its ratio to the floor measured in the same rounds. */
export interface StartupFigure extends Summary {
  /** Median of this figure divided by the floor's median. */
  readonly ratioToFloor: number;
  /** Median of the per-round ratios (each sample over the floor sample of its round). */
  readonly pairedRatioToFloor: number;
  readonly targetRatio?: number;
  readonly met?: boolean;
}

/** One server's warm runs against its own direct fetch runs. */
export interface WarmPair {
  readonly server: Summary;
  readonly directFetch: Summary;
  readonly ratio: number;
  readonly perCallOverheadMs: number;
  readonly serverCpuMsPerCall: number | undefined;
}

/** Warm-call figures: totals of `calls` sequential calls per run, over `runs` runs. */
export interface WarmFigures {
  readonly calls: number;
  readonly runs: number;
  /** context_search through the product's server. */
  readonly server: Summary;
  /** Direct fetch to the same provider, measured in the same runs as `server`. */
  readonly directFetch: Summary;
  /** Median of `server` over median of `directFetch`. */
  readonly ratio: number;
  /** (median server − median direct fetch) / calls, in ms. */
  readonly perCallOverheadMs: number;
  /** perCallOverheadMs over the relay's perCallOverheadMs (issue 18, item 2). */
  readonly overheadRatioToRelay: number;
  readonly targetRatio: number;
  readonly met: boolean;
  /** The minimal stdio relay (stdio-relay-main.ts) and its own direct fetch runs. */
  readonly relay: WarmPair;
  /** The SDK's stdio server relaying with one fetch (sdk-floor-main.ts stdio-sdk): the floor with the SDK kept. */
  readonly sdk: WarmPair;
  /** Median CPU time of the serving process per call (Linux), less disturbed by load than wall time. */
  readonly serverCpuMsPerCall: number | undefined;
}

/** Everything `dist/bench-results.json` holds. */
export interface BenchResults {
  readonly date: string;
  readonly commit: string | undefined;
  /** The executable measured (dist/external-context unless --exe named another). */
  readonly executable: string;
  readonly environment: {
    readonly platform: string;
    readonly arch: string;
    readonly cpus: number;
    readonly loadAverageAtStart: readonly number[];
    readonly loadAverageAtEnd: readonly number[];
    readonly bun: string;
    readonly node: string | undefined;
    readonly deno: string | undefined;
  };
  readonly rounds: number;
  readonly floor: Summary;
  readonly coldStart: StartupFigure;
  readonly autoRecallHook: StartupFigure;
  readonly writeConfirmationHook: StartupFigure;
  readonly version: StartupFigure;
  readonly check: StartupFigure;
  /** --baseline-exe measured in the same start-up rounds, each figure over the same floor. */
  readonly baseline: BaselineFigures | undefined;
  readonly coldStartDeno: StartupFigure | undefined;
  readonly coldStartNode: StartupFigure | undefined;
  /** Each runtime's own floor and the bundle's figures as ratios to it (issue 18, item 4). */
  readonly bundles: {
    readonly node: { readonly floor: Summary; readonly version: StartupFigure; readonly writeConfirmation: StartupFigure; readonly coldStart: StartupFigure } | undefined;
    readonly deno: { readonly floor: Summary; readonly version: StartupFigure; readonly writeConfirmation: StartupFigure; readonly coldStart: StartupFigure } | undefined;
  };
  /** Start-up breakdown: builds and programs that differ in one thing, same rounds as the floor. */
  readonly breakdown: readonly BreakdownFigure[] | undefined;
  /** Cold start broken down: the client's initialize answer (ms after spawn) and the in-process steps' medians (ms). */
  readonly coldStartBreakdown: { readonly initializeAnsweredMs: number; readonly steps: Readonly<Record<string, number>> } | undefined;
  /** Median CPU ms per run (user + system, all threads) of every start-up subject, by sample key. */
  readonly cpuMs: Readonly<Record<string, number>>;
  /** Medians (ms) of the programs derived from the bundle (bundle-breakdown.ts), keyed `<runtime>Bundle-<step>`. */
  readonly bundleBreakdown: Readonly<Record<string, number>> | undefined;
  readonly warmCalls: WarmFigures;
  readonly peakRss: { readonly mib: number | undefined; readonly targetMiB: number; readonly met: boolean | undefined };
  readonly worstCaseRender: RenderFigures & { readonly targetMs: number; readonly met: boolean };
  /** Issue 27: rendering a 5-item answer before and after the rule of model-visible text. */
  readonly ruleCost: RuleCostFigures;
  readonly sdkTypesEvaluatedBy: readonly SdkEvaluation[] | undefined;
  readonly corpus: CorpusBenchResult | undefined;
  readonly serveHttp: ServeHttpBenchResult | undefined;
  /** serve --http of --baseline-exe in the same run, when given. */
  readonly serveHttpBaseline: ServeHttpBenchResult | undefined;
  readonly serveHttpTargets: ServeHttpVerdicts | undefined;
  readonly scaling: ScalingResults | undefined;
  readonly elapsedSeconds: number;
}

/** The baseline executable's start-up figures, measured in the same rounds as the product's. */
export interface BaselineFigures {
  readonly executable: string;
  readonly version: StartupFigure;
  readonly writeConfirmationHook: StartupFigure;
  readonly autoRecallHook: StartupFigure;
  readonly coldStart: StartupFigure;
}

/** Start-up subjects measured for the product and, with `--baseline-exe`, for the baseline. */
const BASELINE_KEYS = {
  version: 'baselineVersion',
  writeConfirmationHook: 'baselineWriteConfirmation',
  autoRecallHook: 'baselineAutoRecall',
  coldStart: 'baselineColdStart',
} as const;

/** serve --http against its targets (issue 18, item 3). */
export interface ServeHttpVerdicts {
  /** What the throughput is compared with: a same-run baseline executable or issue 18's share. */
  readonly reference: string;
  readonly noAuthGain: number;
  readonly jwtGain: number | undefined;
  readonly targetGain: number;
  readonly noAuthP50OverheadMs: number;
  readonly jwtP50OverheadMs: number | undefined;
  readonly targetP50OverheadMs: number;
}

function versionOf(command: string, args: readonly string[]): string | undefined {
  const result = spawnSync(command, [...args], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\n')[0]?.trim() : undefined;
}

function loadAverage(): number[] {
  return os.loadavg().map((value) => Math.round(value * 100) / 100);
}

function startupFigure(samples: readonly number[], floor: readonly number[], targetRatio?: number): StartupFigure {
  const summary = summarize(samples);
  const ratioToFloor = summary.medianMs / median(floor);
  const pairedRatioToFloor = median(samples.map((sample, round) => sample / (floor[round] as number)));
  return {
    ...summary,
    ratioToFloor,
    pairedRatioToFloor,
    ...(targetRatio === undefined ? {} : { targetRatio, met: ratioToFloor <= targetRatio }),
  };
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** A subject that spawns `command args`, checks its output and returns the elapsed ms. */
function processSubject(key: string, command: string, args: readonly string[], env: Record<string, string>, expect: (stdout: string) => boolean): Subject {
  return {
    key,
    async once() {
      const run = await timeProcess(command, args, '', env);
      if (!expect(run.stdout)) throw new Error(`${key}: unexpected output ${run.stdout.slice(0, 80)}`);
      return { ms: run.ms, cpuMs: run.cpuMs };
    },
  };
}

async function measureStartup(
  exe: string,
  fixture: BenchFixture,
  floorExe: string,
  rounds: number,
  runtimes: { node: boolean; deno: boolean },
  breakdown: readonly { key: string; command: string; args: readonly string[] }[],
  baselineExe: string | undefined,
  coldPath: Subject | undefined,
  bundleSteps: readonly BundleStep[],
): Promise<Map<string, number[]>> {
  const serveArgs = ['serve', '--config', fixture.serveConfig];
  const initialized: number[] = [];
  // The same spawn machinery for every subject, so only the child differs.
  const subjects: Subject[] = [
    processSubject('floor', floorExe, [], fixture.env, (stdout) => stdout === 'floor\n'),
    { key: 'coldStart', once: () => timeColdStart(exe, serveArgs, fixture.env, (ms) => initialized.push(ms)) },
    { key: 'autoRecall', once: () => timeAutoRecall(exe, fixture) },
    { key: 'writeConfirmation', once: () => timeWriteConfirmation(exe, fixture) },
    processSubject('version', exe, ['--version'], fixture.env, (stdout) => stdout.startsWith('external-context ')),
    processSubject('check', exe, ['check', '--config', fixture.serveConfig], fixture.env, (stdout) => stdout.startsWith('Configuration is valid')),
  ];
  if (baselineExe !== undefined) {
    // Right after the product's own subjects, so before and after share every round's load.
    subjects.push(
      processSubject(BASELINE_KEYS.version, baselineExe, ['--version'], fixture.env, (stdout) => stdout.startsWith('external-context ')),
      { key: BASELINE_KEYS.writeConfirmationHook, once: () => timeWriteConfirmation(baselineExe, fixture) },
      { key: BASELINE_KEYS.autoRecallHook, once: () => timeAutoRecall(baselineExe, fixture) },
      { key: BASELINE_KEYS.coldStart, once: () => timeColdStart(baselineExe, serveArgs, fixture.env) },
    );
  }
  if (runtimes.deno) {
    const deno = binPath('deno');
    const bundle = [...DENO_ARGS, bundlePath()];
    subjects.push(
      processSubject('denoFloor', deno, ['eval', '0'], fixture.env, (stdout) => stdout === ''),
      processSubject('denoVersion', deno, [...bundle, '--version'], fixture.env, (stdout) => stdout.startsWith('external-context ')),
      { key: 'denoWriteConfirmation', once: () => timeWriteConfirmation(deno, fixture, bundle) },
      { key: 'deno', once: () => timeColdStart(deno, [...bundle, ...serveArgs], fixture.env) },
      ...bundleSteps.map((step) => processSubject(`denoBundle-${step.key}`, deno, [...DENO_ARGS, step.file], fixture.env, (stdout) => stdout === '')),
    );
  }
  if (runtimes.node) {
    subjects.push(
      processSubject('nodeFloor', 'node', ['-e', '0'], fixture.env, (stdout) => stdout === ''),
      processSubject('nodeVersion', 'node', [bundlePath(), '--version'], fixture.env, (stdout) => stdout.startsWith('external-context ')),
      { key: 'nodeWriteConfirmation', once: () => timeWriteConfirmation('node', fixture, [bundlePath()]) },
      { key: 'node', once: () => timeColdStart('node', [bundlePath(), ...serveArgs], fixture.env) },
      ...bundleSteps.map((step) => processSubject(`nodeBundle-${step.key}`, 'node', [step.file], fixture.env, (stdout) => stdout === '')),
    );
  }
  for (const step of breakdown) subjects.push(processSubject(step.key, step.command, step.args, fixture.env, (stdout) => stdout.length > 0 || step.key === 'bd-empty'));
  if (coldPath !== undefined) subjects.push(coldPath);
  const samples = await sampleInterleaved(subjects, rounds, (round) => {
    if (round % 5 === 0 || round === rounds) log(`start-up round ${round}/${rounds}`);
    fixture.fake.reset();
  });
  // The warm-up round's figure is left out, as sampleInterleaved does for the subjects.
  samples.set('coldStartInitialized', initialized.slice(1));
  return samples;
}

async function measureWarm(exe: string, fixture: BenchFixture, relayExe: string, sdkFloorExe: string, calls: number): Promise<{ figures: WarmFigures; peakRssKiB: number | undefined }> {
  const product: WarmRun[] = [];
  const relay: WarmRun[] = [];
  const sdk: WarmRun[] = [];
  for (let run = 0; run < WARM_RUNS; run++) {
    product.push(await timeWarmCalls(exe, ['serve', '--config', fixture.serveConfig], fixture, calls));
    relay.push(await timeWarmCalls(relayExe, [fixture.fake.url], fixture, calls));
    sdk.push(await timeWarmCalls(sdkFloorExe, ['stdio-sdk', fixture.fake.url], fixture, calls));
    log(`warm run ${run + 1}/${WARM_RUNS}`);
  }
  const pair = (runs: readonly WarmRun[]): WarmPair => {
    const server = summarize(runs.map((run) => run.serverMs));
    const directFetch = summarize(runs.map((run) => run.fetchMs));
    const cpu = runs.map((run) => run.serverCpuMs).filter((value): value is number => value !== undefined);
    return {
      server,
      directFetch,
      ratio: server.medianMs / directFetch.medianMs,
      perCallOverheadMs: (server.medianMs - directFetch.medianMs) / calls,
      serverCpuMsPerCall: cpu.length === 0 ? undefined : median(cpu) / calls,
    };
  };
  const ours = pair(product);
  const bare = pair(relay);
  const overheadRatioToRelay = ours.perCallOverheadMs / bare.perCallOverheadMs;
  const peaks = product.map((run) => run.peakRssKiB).filter((value): value is number => value !== undefined);
  return {
    figures: {
      calls,
      runs: WARM_RUNS,
      ...ours,
      overheadRatioToRelay,
      targetRatio: TARGETS.warmOverheadRatio,
      // A negative overhead means load disturbed the run (direct fetch slower than the server): no PASS.
      met: ours.perCallOverheadMs > 0 && bare.perCallOverheadMs > 0 && overheadRatioToRelay <= TARGETS.warmOverheadRatio,
      relay: bare,
      sdk: pair(sdk),
    },
    peakRssKiB: peaks.length === 0 ? undefined : Math.max(...peaks),
  };
}

/** Runs one supporting benchmark; a failure is logged and leaves its figures out. */
async function extra<T>(label: string, measure: () => Promise<T>): Promise<T | undefined> {
  log(label);
  try {
    return await measure();
  } catch (error) {
    log(`${label} failed, left out: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function rows(results: BenchResults): TableRow[] {
  const startup = (item: string, label: string, figure: StartupFigure): TableRow => ({
    item,
    label,
    median: ms(figure.medianMs),
    min: ms(figure.minMs),
    ratio: ratio(figure.ratioToFloor, 'floor'),
    ...(figure.targetRatio === undefined ? {} : { target: `≤ ${figure.targetRatio}×`, met: figure.met }),
  });
  const warm = results.warmCalls;
  const render = results.worstCaseRender;
  const table: TableRow[] = [
    { item: '1', label: 'Floor: bare compiled executable, print and exit', median: ms(results.floor.medianMs), min: ms(results.floor.minMs) },
    startup('1', '--version', results.version),
    startup('1', 'write-confirmation Hook: stdin → stdout (no network)', results.writeConfirmationHook),
    startup('1', 'auto-recall Hook: stdin → stdout (loopback search)', results.autoRecallHook),
    startup('1', 'Cold start: executable → first context_search result', results.coldStart),
    ...(results.baseline === undefined
      ? []
      : [
          startup('', '--version (baseline)', results.baseline.version),
          startup('', 'write-confirmation Hook (baseline)', results.baseline.writeConfirmationHook),
          startup('', 'auto-recall Hook (baseline)', results.baseline.autoRecallHook),
          startup('', 'Cold start → first result (baseline)', results.baseline.coldStart),
        ]),
    startup('', 'check --config (no network)', results.check),
    {
      item: '2',
      label: 'Warm: overhead per context_search call',
      median: `${warm.perCallOverheadMs.toFixed(3)} ms`,
      ratio: ratio(warm.overheadRatioToRelay, 'relay'),
      target: `≤ ${warm.targetRatio}×`,
      met: warm.met,
    },
    { item: '', label: `Warm: ${warm.calls} context_search calls, one server`, median: ms(warm.server.medianMs), min: ms(warm.server.minMs), ratio: ratio(warm.ratio, 'fetch') },
    { item: '', label: `Warm: ${warm.calls} direct fetch calls, same provider`, median: ms(warm.directFetch.medianMs), min: ms(warm.directFetch.minMs) },
    {
      item: '',
      label: `Warm reference: ${warm.calls} calls through a bare stdio relay`,
      median: ms(warm.relay.server.medianMs),
      min: ms(warm.relay.server.minMs),
      ratio: ratio(warm.relay.ratio, 'fetch'),
    },
    { item: '', label: 'Warm reference: overhead per relayed call', median: `${warm.relay.perCallOverheadMs.toFixed(3)} ms` },
    {
      item: '2',
      label: 'Warm floor with the SDK kept: its stdio server relaying, overhead per call',
      median: `${warm.sdk.perCallOverheadMs.toFixed(3)} ms`,
      ratio: ratio(warm.sdk.perCallOverheadMs / warm.relay.perCallOverheadMs, 'relay'),
    },
    ...(warm.serverCpuMsPerCall === undefined || warm.relay.serverCpuMsPerCall === undefined
      ? []
      : [
          {
            item: '2',
            label: 'Warm: server CPU per call (product / bare relay)',
            median: `${warm.serverCpuMsPerCall.toFixed(3)} ms`,
            min: `${warm.relay.serverCpuMsPerCall.toFixed(3)} ms`,
            ratio: ratio(warm.serverCpuMsPerCall / warm.relay.serverCpuMsPerCall, 'relay'),
          },
          ...(warm.sdk.serverCpuMsPerCall === undefined
            ? []
            : [
                {
                  item: '2',
                  label: 'Warm floor with the SDK kept: server CPU per call',
                  median: `${warm.sdk.serverCpuMsPerCall.toFixed(3)} ms`,
                  ratio: ratio(warm.sdk.serverCpuMsPerCall / warm.relay.serverCpuMsPerCall, 'relay'),
                },
              ]),
        ]),
    {
      item: '',
      label: 'Peak RSS (VmHWM) of the server during 4',
      median: results.peakRss.mib === undefined ? 'n/a' : `${results.peakRss.mib.toFixed(1)} MiB`,
      target: `≤ ${results.peakRss.targetMiB} MiB`,
      ...(results.peakRss.met === undefined ? {} : { met: results.peakRss.met }),
    },
    {
      item: '',
      label: `Worst-case render: ${render.bodyBytes} bytes, 5 items, parse+bound+render`,
      median: `${render.total.medianMs.toFixed(2)} ms`,
      min: `${render.total.minMs.toFixed(2)} ms`,
      target: `≤ ${render.targetMs} ms`,
      met: render.met,
    },
    { item: '', label: 'Worst-case render: first (cold) run', median: `${render.firstRunMs.toFixed(2)} ms` },
    { item: '', label: '5-item render before the model-visible text rule (issue 27)', median: `${results.ruleCost.beforeP50Ms.toFixed(3)} ms` },
    {
      item: '',
      label: '5-item render after the rule (ordinary text)',
      median: `${results.ruleCost.afterP50Ms.toFixed(3)} ms`,
      target: `≤ before + ${RULE_COST_TARGET_MS} ms`,
      met: results.ruleCost.met,
    },
    { item: '', label: '5-item render after the rule (hostile text, slow path)', median: `${results.ruleCost.hostileAfterP50Ms.toFixed(3)} ms` },
  ];
  for (const [name, bundle] of [
    ['Node.js', results.bundles.node],
    ['Deno', results.bundles.deno],
  ] as const) {
    if (bundle === undefined) continue;
    const floorName = name === 'Deno' ? 'deno eval 0' : 'node -e 0';
    const own = (label: string, figure: StartupFigure): TableRow => ({ ...startup('4', label, figure), ratio: ratio(figure.ratioToFloor, floorName) });
    table.push(
      { item: '4', label: `Floor: ${floorName}`, median: ms(bundle.floor.medianMs), min: ms(bundle.floor.minMs) },
      own(`${name} + bundle: --version`, bundle.version),
      own(`${name} + bundle: write-confirmation Hook`, bundle.writeConfirmation),
      own(`${name} + bundle: cold start → first result`, bundle.coldStart),
    );
  }
  const http = results.serveHttp;
  const verdicts = results.serveHttpTargets;
  if (http !== undefined && verdicts !== undefined) {
    const cpu = (figures: { serverCpuMsPerSearch?: number | undefined }): string => (figures.serverCpuMsPerSearch === undefined ? '—' : `${figures.serverCpuMsPerSearch.toFixed(3)} ms CPU`);
    /** The throughput and p50 rows of one auth mode, each with its issue-18 target. */
    const serveRows = (
      mode: string,
      figures: { searchesPerSecond: number; serverCpuMsPerSearch?: number | undefined },
      gain: number,
      p50OverheadMs: number,
      reference = verdicts.reference,
    ): TableRow[] => [
      {
        item: '3',
        label: `serve --http, ${mode}: throughput`,
        median: `${figures.searchesPerSecond.toFixed(0)}/s`,
        min: cpu(figures),
        ratio: ratio(gain, reference),
        target: `≥ ${verdicts.targetGain}×`,
        met: gain >= verdicts.targetGain,
      },
      {
        item: '3',
        label: `serve --http, ${mode}: p50 over the provider`,
        median: `+${p50OverheadMs.toFixed(2)} ms`,
        target: `≤ ${verdicts.targetP50OverheadMs} ms`,
        met: p50OverheadMs <= verdicts.targetP50OverheadMs,
      },
    ];
    table.push(
      { item: '3', label: `serve --http, ${http.clients} clients, provider alone`, median: `${http.provider.searchesPerSecond.toFixed(0)}/s`, min: `p50 ${http.provider.p50Ms.toFixed(2)} ms` },
      ...(http.references === undefined
        ? []
        : [
            { item: '3', label: 'serve --http reference: bare relay, no SDK', median: `${http.references.bare.searchesPerSecond.toFixed(0)}/s`, min: cpu(http.references.bare) },
            { item: '3', label: 'serve --http reference: SDK per request, no-op tool', median: `${http.references.sdkNoop.searchesPerSecond.toFixed(0)}/s`, min: cpu(http.references.sdkNoop) },
            { item: '3', label: 'serve --http floor with the SDK kept: SDK + one fetch', median: `${http.references.sdk.searchesPerSecond.toFixed(0)}/s`, min: cpu(http.references.sdk) },
          ]),
      (() => {
        const implied = littlesLaw(http.clients, http.provider.p50Ms, TARGETS.serveHttpP50OverheadMs);
        return {
          item: '3',
          label: `p50 target by Little's law (${http.clients} clients): needed`,
          median: `${implied.searchesPerSecond.toFixed(0)}/s`,
          min: `${implied.cpuMsPerSearch.toFixed(3)} ms CPU`,
        };
      })(),
      ...serveRows('no auth', http.noAuth, verdicts.noAuthGain, verdicts.noAuthP50OverheadMs),
      // Issue 30 §2: counting costs at most 3% of the throughput.
      ...(http.noAuthMetrics === undefined
        ? []
        : [
            {
              item: '30',
              label: 'serve --http, no auth, --metrics-listen: throughput',
              median: `${http.noAuthMetrics.searchesPerSecond.toFixed(0)}/s`,
              min: cpu(http.noAuthMetrics),
              // Median of the per-round ratios: both servers ran in the same interleaved rounds.
              ratio: `${((http.interleaved.metricsOverOff ?? Number.NaN) * 100).toFixed(1)}% of off`,
              target: '≥ 97% of off',
              met: (http.interleaved.metricsOverOff ?? 0) >= 0.97,
            },
          ]),
    );
    if (http.jwt !== undefined && verdicts.jwtGain !== undefined && verdicts.jwtP50OverheadMs !== undefined) {
      // Only the no-auth path runs interleaved with the baseline; the JWT one is set against the baseline's earlier run.
      const jwtReference = verdicts.reference === 'baseline' ? 'baseline run before' : verdicts.reference;
      table.push(...serveRows('JWT', http.jwt, verdicts.jwtGain, verdicts.jwtP50OverheadMs, jwtReference));
    }
  }
  return table;
}

/**
 * CPU time per run (user + system, all threads; the cold start up to its first result) with
 * its ratio to the same runtime's floor: steadier than wall time on a loaded machine.
 */
function printCpu(cpu: Readonly<Record<string, number>>): void {
  const groups: [string, string, [string, string][]][] = [
    [
      'floor',
      'floor',
      [
        ['version', '--version'],
        ['writeConfirmation', 'write-confirmation Hook'],
        ['autoRecall', 'auto-recall Hook'],
        ['coldStart', 'cold start → first result'],
        ['check', 'check --config'],
      ],
    ],
    [
      'floor',
      'floor',
      [
        [BASELINE_KEYS.version, '--version (baseline)'],
        [BASELINE_KEYS.writeConfirmationHook, 'write-confirmation Hook (baseline)'],
        [BASELINE_KEYS.autoRecallHook, 'auto-recall Hook (baseline)'],
        [BASELINE_KEYS.coldStart, 'cold start → first result (baseline)'],
      ],
    ],
    [
      'nodeFloor',
      'node -e 0',
      [
        ['nodeVersion', 'Node.js + bundle: --version'],
        ['nodeWriteConfirmation', 'Node.js + bundle: write-confirmation Hook'],
        ['node', 'Node.js + bundle: cold start → first result'],
      ],
    ],
    [
      'denoFloor',
      'deno eval 0',
      [
        ['denoVersion', 'Deno + bundle: --version'],
        ['denoWriteConfirmation', 'Deno + bundle: write-confirmation Hook'],
        ['deno', 'Deno + bundle: cold start → first result'],
      ],
    ],
  ];
  console.log("\nCPU per run (median; user + system of every thread; ratio to the same runtime's floor)");
  for (const [floorKey, floorName, members] of groups) {
    const floor = cpu[floorKey];
    if (floor === undefined || members.every(([key]) => cpu[key] === undefined)) continue;
    console.log(`  ${floorName.padEnd(48)} ${`${floor.toFixed(1)} ms`.padStart(9)}`);
    for (const [key, label] of members) {
      const value = cpu[key];
      if (value !== undefined) console.log(`  ${label.padEnd(48)} ${`${value.toFixed(1)} ms`.padStart(9)}  ${(value / floor).toFixed(2)}× ${floorName}`);
    }
  }
}

/** Before/after from one run: each figure's median for the baseline and the product, same rounds. */
function printBeforeAfter(results: BenchResults, baseline: BaselineFigures): void {
  console.log(`\nBefore/after in the same rounds (baseline ${baseline.executable})`);
  const pairs: [string, StartupFigure, StartupFigure][] = [
    ['--version', baseline.version, results.version],
    ['write-confirmation Hook', baseline.writeConfirmationHook, results.writeConfirmationHook],
    ['auto-recall Hook', baseline.autoRecallHook, results.autoRecallHook],
    ['cold start → first result', baseline.coldStart, results.coldStart],
  ];
  const keys = [
    [BASELINE_KEYS.version, 'version'],
    [BASELINE_KEYS.writeConfirmationHook, 'writeConfirmation'],
    [BASELINE_KEYS.autoRecallHook, 'autoRecall'],
    [BASELINE_KEYS.coldStart, 'coldStart'],
  ] as const;
  console.log(`  ${'measurement'.padEnd(28)} ${'baseline'.padStart(18)} ${'now'.padStart(18)}  now/baseline  CPU now/baseline`);
  console.log(`  ${'floor'.padEnd(28)} ${ms(results.floor.medianMs).padStart(18)} ${ms(results.floor.medianMs).padStart(18)}`);
  pairs.forEach(([label, before, after], index) => {
    const cell = (figure: StartupFigure): string => `${ms(figure.medianMs)}, ${figure.ratioToFloor.toFixed(2)}×`;
    const [beforeKey, afterKey] = keys[index] as readonly [string, string];
    const cpuBefore = results.cpuMs[beforeKey];
    const cpuAfter = results.cpuMs[afterKey];
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? '—' : `${cpuBefore.toFixed(1)} → ${cpuAfter.toFixed(1)} ms, ${(cpuAfter / cpuBefore).toFixed(2)}×`;
    console.log(`  ${label.padEnd(28)} ${cell(before).padStart(18)} ${cell(after).padStart(18)}  ${`${(after.medianMs / before.medianMs).toFixed(2)}×`.padStart(12)}  ${cpu}`);
  });
}

function printSdkEvaluation(rowsIn: readonly SdkEvaluation[]): void {
  const evaluating = rowsIn.filter((row) => row.evaluatesSdkTypes).map((row) => row.command);
  console.log(`\nMCP SDK type module evaluated by: ${evaluating.length === 0 ? 'no command' : evaluating.join(', ')}`);
  console.log(
    `  not by: ${rowsIn
      .filter((row) => !row.evaluatesSdkTypes)
      .map((row) => row.command)
      .join(', ')}`,
  );
}

function printCorpus(corpus: CorpusBenchResult): void {
  console.log('\nCorpus service (corpus index / corpus serve, in-process)');
  for (const f of corpus.index) {
    console.log(
      `  index ${f.corpus}: ${f.files} files, ${f.mib.toFixed(2)} MiB, ${f.chunks} chunks in ${f.seconds.toFixed(2)} s → ${f.filesPerSecond.toFixed(0)} files/s, ${f.mibPerSecond.toFixed(2)} MiB/s`,
    );
  }
  for (const l of corpus.latency) {
    console.log(`  query ${l.path} (${l.queries} queries): p50 ${l.p50Ms.toFixed(3)} ms, p99 ${l.p99Ms.toFixed(3)} ms, mean ${l.meanMs.toFixed(3)} ms`);
  }
}

function printServeHttp(result: ServeHttpBenchResult, baseline: ServeHttpBenchResult | undefined): void {
  console.log(`\nserve --http (${result.server}), ${result.clients} concurrent loopback clients`);
  const line = (prefix: string, p: PathFigures): void => {
    const cpu = p.serverCpuMsPerSearch === undefined ? '' : `, server CPU ${p.serverCpuMsPerSearch.toFixed(3)} ms/search`;
    console.log(`  ${prefix}${p.path}: ${p.searchesPerSecond.toFixed(0)} searches/s, p50 ${p.p50Ms.toFixed(2)} ms, p99 ${p.p99Ms.toFixed(2)} ms${cpu} (${p.requests} requests)`);
  };
  for (const p of [result.provider, result.noAuth, result.jwt]) if (p !== undefined) line('', p);
  if (result.references !== undefined) for (const p of [result.references.bare, result.references.sdkNoop, result.references.sdk]) line('', p);
  if (result.noAuthMetrics !== undefined) line('', result.noAuthMetrics);
  if (result.noAuthBaseline !== undefined) line('interleaved ', result.noAuthBaseline);
  if (baseline !== undefined) for (const p of [baseline.noAuth, baseline.jwt]) if (p !== undefined) line('baseline (measured before, not interleaved) ', p);
  const { interleaved } = result;
  const pct = (value: number | undefined): string => (value === undefined ? '—' : `${(value * 100).toFixed(1)}%`);
  console.log(
    `  interleaved no-auth paths, median of ${interleaved.rounds} per-round ratios: metrics on / off throughput ${pct(interleaved.metricsOverOff)}, CPU ${pct(interleaved.cpuMetricsOverOff)}` +
      (interleaved.offOverBaseline === undefined ? '' : `; this / baseline throughput ${pct(interleaved.offOverBaseline)}, CPU ${pct(interleaved.cpuOffOverBaseline)}`),
  );
  const { noAuth, jwt } = result.overheadMs;
  console.log(
    `  over the provider's own latency: no auth p50 +${noAuth.p50.toFixed(2)} ms, p99 +${noAuth.p99.toFixed(2)} ms${jwt === undefined ? '' : `; JWT p50 +${jwt.p50.toFixed(2)} ms, p99 +${jwt.p99.toFixed(2)} ms`}`,
  );
  const implied = littlesLaw(result.clients, result.provider.p50Ms, TARGETS.serveHttpP50OverheadMs);
  console.log(
    `  Little's law: ${result.clients} closed-loop clients wait ≈ ${result.clients} / throughput, so p50 ≤ provider p50 + ${TARGETS.serveHttpP50OverheadMs} ms needs ≥ ${implied.searchesPerSecond.toFixed(0)} searches/s, ` +
      `i.e. ≤ ${implied.cpuMsPerSearch.toFixed(3)} ms of server CPU per search on its one JavaScript thread`,
  );
}

function printBreakdown(floor: Summary, steps: readonly BreakdownFigure[], version: StartupFigure, cpu: Readonly<Record<string, number>>): void {
  console.log("\nStart-up breakdown (same rounds as the floor; Δ = median minus the floor's median; wall, then CPU)");
  const rows = [
    { key: 'floor', label: 'floor: console.log one line', medianMs: floor.medianMs },
    ...steps,
    { key: 'version', label: 'product --version (dist/, as shipped)', medianMs: version.medianMs },
  ];
  const floorCpu = cpu['floor'];
  for (const row of rows) {
    const delta = row.medianMs - floor.medianMs;
    const rowCpu = cpu[row.key];
    const cpuText =
      rowCpu === undefined || floorCpu === undefined
        ? ''
        : `   CPU ${rowCpu.toFixed(1).padStart(5)} ms  Δ ${rowCpu >= floorCpu ? '+' : ''}${(rowCpu - floorCpu).toFixed(1)} ms  ${(rowCpu / floorCpu).toFixed(2)}×`;
    console.log(`  ${row.label.padEnd(62)} ${ms(row.medianMs).padStart(8)}  Δ ${delta >= 0 ? '+' : ''}${delta.toFixed(1)} ms  ${(row.medianMs / floor.medianMs).toFixed(2)}×${cpuText}`);
  }
}

function serveHttpVerdicts(result: ServeHttpBenchResult, baseline: ServeHttpBenchResult | undefined): ServeHttpVerdicts {
  const share = (figures: PathFigures): number => figures.searchesPerSecond / result.provider.searchesPerSecond;
  const gain = (figures: PathFigures, base: PathFigures | undefined): number => (base === undefined ? share(figures) / SERVE_HTTP_BASELINE_SHARE : figures.searchesPerSecond / base.searchesPerSecond);
  return {
    reference: baseline === undefined ? 'issue-18 share' : 'baseline',
    // With --baseline-exe the no-auth ratio is the interleaved one (same rounds, same load).
    noAuthGain: result.interleaved.offOverBaseline ?? gain(result.noAuth, baseline?.noAuth),
    jwtGain: result.jwt === undefined ? undefined : gain(result.jwt, baseline?.jwt ?? baseline?.noAuth),
    targetGain: TARGETS.serveHttpThroughputGain,
    noAuthP50OverheadMs: result.overheadMs.noAuth.p50,
    jwtP50OverheadMs: result.overheadMs.jwt?.p50,
    targetP50OverheadMs: TARGETS.serveHttpP50OverheadMs,
  };
}

interface BenchOptions {
  readonly runs: number;
  readonly calls: number;
  readonly extras: boolean;
  readonly bundles: boolean;
  readonly breakdown: boolean;
  readonly scaling: boolean;
  readonly quickScaling: boolean;
  readonly onlyScaling: boolean;
  readonly scalingParts: readonly ScalingPart[];
  readonly build: boolean;
  readonly exe: string;
  readonly baselineExe: string | undefined;
}

function parseOptions(args: string[]): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      runs: { type: 'string' },
      calls: { type: 'string' },
      'skip-extras': { type: 'boolean' },
      'skip-bundles': { type: 'boolean' },
      'skip-breakdown': { type: 'boolean' },
      'skip-scaling': { type: 'boolean' },
      'quick-scaling': { type: 'boolean' },
      'only-scaling': { type: 'boolean' },
      'scaling-parts': { type: 'string' },
      'no-build': { type: 'boolean' },
      exe: { type: 'string' },
      'baseline-exe': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const positive = (value: string | undefined, fallback: number): number => {
    const parsed = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new RangeError('--runs and --calls need a positive integer.');
    return parsed;
  };
  return {
    runs: positive(values.runs, DEFAULT_RUNS),
    calls: positive(values.calls, DEFAULT_CALLS),
    extras: values['skip-extras'] !== true,
    bundles: values['skip-bundles'] !== true,
    breakdown: values['skip-breakdown'] !== true,
    scaling: values['skip-scaling'] !== true,
    quickScaling: values['quick-scaling'] === true,
    onlyScaling: values['only-scaling'] === true,
    scalingParts: parseScalingParts(values['scaling-parts']),
    build: values['no-build'] !== true,
    exe: values.exe === undefined ? exePath() : path.resolve(values.exe),
    baselineExe: values['baseline-exe'] === undefined ? undefined : path.resolve(values['baseline-exe']),
  };
}

/**
 * `--only-scaling`: how cost grows and nothing else; dist/bench-results.json then holds the
 * run's environment and `scaling` only (`onlyScaling: true`).
 */
async function mainScalingOnly(options: BenchOptions, startedMs: number, loadAverageAtStart: readonly number[]): Promise<void> {
  const scaling = await runScaling(options.scalingParts, { ...(options.quickScaling ? QUICK_SCALING : DEFAULT_SCALING), log }, extra);
  const results = {
    date: new Date().toISOString(),
    commit: readBuildCommit(REPO_ROOT),
    executable: exePath(),
    onlyScaling: true,
    environment: { platform: process.platform, arch: process.arch, cpus: os.cpus().length, loadAverageAtStart, loadAverageAtEnd: loadAverage(), bun: Bun.version },
    scaling,
    elapsedSeconds: Math.round((performance.now() - startedMs) / 100) / 10,
  };
  const env = results.environment;
  console.log(
    `external-context benchmarks, how cost grows only: commit ${results.commit ?? 'unknown'}, bun ${env.bun}, ${env.platform}-${env.arch}, ${env.cpus} CPUs, load average ${env.loadAverageAtStart.join(' ')} at start, ${env.loadAverageAtEnd.join(' ')} at end`,
  );
  printScaling(scaling);
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(REPO_ROOT, RESULTS_FILE)} (${results.elapsedSeconds} s).`);
}

async function main(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const startedMs = performance.now();
  const loadAverageAtStart = loadAverage();
  if (options.build) await buildArtifacts({ all: false, ifStale: true, log });
  else log('--no-build: measuring dist/ as it is');
  if (options.onlyScaling) return mainScalingOnly(options, startedMs, loadAverageAtStart);
  const node = versionOf('node', ['--version']);
  const deno = versionOf(binPath('deno'), ['--version']);
  const tmp = await makeTempDir('ec-bench-');
  const fixture = await startBenchFixture();
  try {
    log('compiling the floor, the stdio relay and the SDK floor servers like the product');
    const floorExe = await compileLikeProduct(REFERENCE_PROGRAMS.floor, path.join(tmp.path, 'floor'));
    const relayExe = await compileLikeProduct(REFERENCE_PROGRAMS.stdioRelay, path.join(tmp.path, 'stdio-relay'));
    const sdkFloorExe = await compileLikeProduct(REFERENCE_PROGRAMS.sdkFloor, path.join(tmp.path, 'sdk-floor'));
    const commit = readBuildCommit(REPO_ROOT);
    if (options.breakdown) log(`compiling ${BREAKDOWN_STEPS.length} start-up breakdown programs and builds`);
    const breakdownSubjects = options.breakdown ? await compileBreakdown(tmp.path, commit) : [];
    const coldPathSamples: ColdPathSamples = new Map();
    const coldPath = options.breakdown ? await coldPathSubject(tmp.path, commit, fixture.serveConfig, fixture.env, coldPathSamples) : undefined;
    const bundleSteps = options.breakdown && options.bundles ? writeBundleSteps(tmp.path, bundlePath()) : [];
    log(`start-up: ${options.runs} interleaved rounds after one warm-up round`);
    if (options.exe !== exePath()) log(`measuring ${options.exe} in place of dist/external-context`);
    const samples = await measureStartup(
      options.exe,
      fixture,
      floorExe,
      options.runs,
      { node: options.bundles && node !== undefined, deno: options.bundles && deno !== undefined },
      breakdownSubjects,
      options.baselineExe,
      coldPath,
      bundleSteps,
    );
    const floor = samples.get('floor') as number[];
    const figure = (key: string, target?: number): StartupFigure | undefined => {
      const values = samples.get(key);
      return values === undefined ? undefined : startupFigure(values, floor, target);
    };
    log(`warm calls: ${WARM_RUNS} runs of ${options.calls} calls each way, product, relay and SDK floor`);
    const warm = await measureWarm(options.exe, fixture, relayExe, sdkFloorExe, options.calls);
    log('worst-case render');
    const render = benchWorstCaseRender(RENDER_RUNS);
    log('rule of model-visible text: 5-item render before and after');
    const ruleCost = benchRuleCost(RULE_COST_RUNS);
    let sdkTypesEvaluatedBy: SdkEvaluation[] | undefined;
    let corpus: CorpusBenchResult | undefined;
    let serveHttp: ServeHttpBenchResult | undefined;
    let serveHttpBaseline: ServeHttpBenchResult | undefined;
    let scaling: BenchResults['scaling'];
    if (options.extras) {
      sdkTypesEvaluatedBy = await extra('which commands evaluate the MCP SDK type module', () => checkSdkEvaluation(tmp.path, fixture));
      corpus = await extra('corpus service', benchCorpus);
      if (options.baselineExe !== undefined) {
        const baselineExe = options.baselineExe;
        serveHttpBaseline = await extra(`serve --http of the baseline ${baselineExe}`, () => benchServeHttp({ exe: baselineExe }));
      }
      // The baseline's no-auth path also runs interleaved with this one's, for a same-load ratio.
      serveHttp = await extra('serve --http', () => benchServeHttp({ referenceExe: sdkFloorExe, ...(options.baselineExe === undefined ? {} : { baselineExe: options.baselineExe }) }));
      if (options.scaling) scaling = await runScaling(options.scalingParts, { ...(options.quickScaling ? QUICK_SCALING : DEFAULT_SCALING), log }, extra, fixture);
    }
    const bundleFigures = (runtime: 'node' | 'deno'): BenchResults['bundles']['node'] => {
      const floorSamples = samples.get(`${runtime}Floor`);
      if (floorSamples === undefined) return undefined;
      const own = (key: string, target?: number): StartupFigure => startupFigure(samples.get(key) as number[], floorSamples, target);
      return {
        floor: summarize(floorSamples),
        version: own(`${runtime}Version`, TARGETS.bundleRatio),
        writeConfirmation: own(`${runtime}WriteConfirmation`, TARGETS.bundleRatio),
        coldStart: own(runtime),
      };
    };
    const breakdown = breakdownSubjects.map((subject) => {
      const step = BREAKDOWN_STEPS.find((candidate) => candidate.key === subject.key);
      return { key: subject.key, label: step?.label ?? subject.key, ...startupFigure(samples.get(subject.key) as number[], floor) };
    });
    const peakMiB = warm.peakRssKiB === undefined ? undefined : warm.peakRssKiB / 1024;
    const results: BenchResults = {
      date: new Date().toISOString(),
      commit: readBuildCommit(REPO_ROOT),
      executable: options.exe,
      environment: {
        platform: process.platform,
        arch: process.arch,
        cpus: os.cpus().length,
        loadAverageAtStart,
        loadAverageAtEnd: loadAverage(),
        bun: Bun.version,
        node,
        deno,
      },
      rounds: options.runs,
      floor: summarize(floor),
      coldStart: figure('coldStart', TARGETS.coldStartRatio) as StartupFigure,
      autoRecallHook: figure('autoRecall', TARGETS.autoRecallRatio) as StartupFigure,
      writeConfirmationHook: figure('writeConfirmation', TARGETS.writeConfirmationRatio) as StartupFigure,
      version: figure('version', TARGETS.versionRatio) as StartupFigure,
      check: figure('check') as StartupFigure,
      baseline:
        options.baselineExe === undefined
          ? undefined
          : {
              executable: options.baselineExe,
              version: figure(BASELINE_KEYS.version) as StartupFigure,
              writeConfirmationHook: figure(BASELINE_KEYS.writeConfirmationHook) as StartupFigure,
              autoRecallHook: figure(BASELINE_KEYS.autoRecallHook) as StartupFigure,
              coldStart: figure(BASELINE_KEYS.coldStart) as StartupFigure,
            },
      coldStartDeno: figure('deno'),
      coldStartNode: figure('node'),
      bundles: { node: bundleFigures('node'), deno: bundleFigures('deno') },
      breakdown: options.breakdown ? breakdown : undefined,
      coldStartBreakdown: options.breakdown
        ? {
            initializeAnsweredMs: median(samples.get('coldStartInitialized') as number[]),
            steps: Object.fromEntries([...coldPathSamples].map(([step, values]) => [step, median(values.slice(values.length - options.runs))])),
          }
        : undefined,
      cpuMs: Object.fromEntries(
        [...samples.keys()].flatMap((key) => {
          const cpu = samples.get(cpuKey(key));
          return cpu === undefined || cpu.length === 0 ? [] : [[key, median(cpu)]];
        }),
      ),
      bundleBreakdown:
        bundleSteps.length === 0 ? undefined : Object.fromEntries([...samples].filter(([key]) => key.includes('Bundle-') && !key.endsWith(cpuKey(''))).map(([key, values]) => [key, median(values)])),
      warmCalls: warm.figures,
      peakRss: { mib: peakMiB, targetMiB: TARGETS.peakRssMiB, met: peakMiB === undefined ? undefined : peakMiB <= TARGETS.peakRssMiB },
      worstCaseRender: { ...render, targetMs: TARGETS.worstCaseRenderMs, met: render.total.medianMs <= TARGETS.worstCaseRenderMs },
      ruleCost,
      sdkTypesEvaluatedBy,
      corpus,
      serveHttp,
      serveHttpBaseline,
      serveHttpTargets: serveHttp === undefined ? undefined : serveHttpVerdicts(serveHttp, serveHttpBaseline),
      scaling,
      elapsedSeconds: Math.round((performance.now() - startedMs) / 100) / 10,
    };
    const env = results.environment;
    console.log(
      `external-context benchmarks: commit ${results.commit ?? 'unknown'}, bun ${env.bun}, node ${env.node ?? 'absent'}, ${env.deno ?? 'deno absent'}, ` +
        `${env.platform}-${env.arch}, ${env.cpus} CPUs, load average ${env.loadAverageAtStart.join(' ')} at start, ${env.loadAverageAtEnd.join(' ')} at end`,
    );
    if (options.exe !== exePath()) console.log(`Executable measured: ${options.exe}`);
    console.log(`Start-up: median of ${options.runs} interleaved rounds; each ratio is a median over the floor's median from the same rounds.\n`);
    for (const line of formatTable(rows(results))) console.log(line);
    printCpu(results.cpuMs);
    if (results.baseline !== undefined) printBeforeAfter(results, results.baseline);
    if (results.breakdown !== undefined) printBreakdown(results.floor, results.breakdown, results.version, results.cpuMs);
    if (results.coldStartBreakdown !== undefined) {
      const initializeMs = median(samples.get('coldStartInitialized') as number[]);
      printColdStartBreakdown({ initializeMs, firstResultMs: results.coldStart.medianMs }, results.floor.medianMs, coldPathSamples, options.runs);
    }
    if (bundleSteps.length > 0) printBundleBreakdown(samples, bundleSteps);
    if (sdkTypesEvaluatedBy !== undefined) printSdkEvaluation(sdkTypesEvaluatedBy);
    if (corpus !== undefined) printCorpus(corpus);
    if (serveHttp !== undefined) printServeHttp(serveHttp, serveHttpBaseline);
    if (scaling !== undefined) printScaling(scaling);
    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nWrote ${path.relative(REPO_ROOT, RESULTS_FILE)} (${results.elapsedSeconds} s).`);
  } finally {
    await fixture.close();
    await tmp.remove();
  }
}

if (import.meta.main) await main(process.argv.slice(2));
