// Benchmark of the Hooks on the compiled executable (figures, never pass/fail): start-to-exit
// time of `hook auto-recall` answering one UserPromptSubmit against a loopback Generic HTTP
// fake, and of `hook write-confirmation` (no network), each the median of 20 runs after one
// untimed warm-up run. Run: `bun test/bench/auto-recall-hook.ts` after `npm run build`
// (`npm run bench` runs the same measurements interleaved with the start-up floor).
import { existsSync } from 'node:fs';
import { type BenchFixture, startBenchFixture } from './bench-fixture.ts';
import { type Sample, timeProcess } from './process-timing.ts';
import { summarize, type Summary } from './stats.ts';
import { exePath } from '../support/paths.ts';

const RUNS = 20;

/** The answer of a Hook that injected context or decided a permission. */
const HOOK_ANSWER_PREFIX = '{"hookSpecificOutput"';

/** Start-to-exit figures of one Hook, in ms. */
export interface HookFigures extends Summary {
  readonly hook: string;
}

/**
 * Times one `hook auto-recall` run (stdin in → stdout out → exit).
 *
 * @param exe The compiled executable.
 * @returns Milliseconds from spawn to exit, and the process's CPU milliseconds.
 * @throws {Error} If the Hook answered anything but injected context.
 */
export async function timeAutoRecall(exe: string, fixture: BenchFixture): Promise<Sample> {
  const run = await timeProcess(exe, ['hook', 'auto-recall', '--config', fixture.hookConfig], fixture.hookStdin, fixture.env);
  if (!run.stdout.startsWith(HOOK_ANSWER_PREFIX)) throw new Error(`auto-recall: unexpected answer ${run.stdout.slice(0, 80)}`);
  return { ms: run.ms, cpuMs: run.cpuMs };
}

const WRITE_STDIN = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'mcp__external-context__context_remember',
  permission_mode: 'default',
  tool_input: { content: 'Deploys need two approvals.' },
});

/**
 * Times one `hook write-confirmation` run (no network).
 *
 * @param exe The compiled executable, or a runtime (`node`, `deno`) with `prefixArgs` naming the bundle.
 * @param prefixArgs Arguments before `hook write-confirmation` (the runtime's flags and the bundle).
 * @returns Milliseconds from spawn to exit, and the process's CPU milliseconds.
 * @throws {Error} If the Hook answered anything but a permission decision.
 */
export async function timeWriteConfirmation(exe: string, fixture: BenchFixture, prefixArgs: readonly string[] = []): Promise<Sample> {
  const run = await timeProcess(exe, [...prefixArgs, 'hook', 'write-confirmation'], WRITE_STDIN, fixture.env);
  if (!run.stdout.startsWith(HOOK_ANSWER_PREFIX)) throw new Error(`write-confirmation: unexpected answer ${run.stdout.slice(0, 80)}`);
  return { ms: run.ms, cpuMs: run.cpuMs };
}

async function measure(hook: string, once: () => Promise<Sample>): Promise<HookFigures> {
  await once(); // warm-up: page cache
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push((await once()).ms);
  return { hook, ...summarize(times) };
}

/**
 * Measures both Hooks with the compiled executable.
 *
 * @returns The figures, or undefined when `dist/external-context` does not exist.
 */
export async function benchHooks(): Promise<HookFigures[] | undefined> {
  const exe = exePath();
  if (!existsSync(exe)) return undefined;
  const fixture = await startBenchFixture();
  try {
    return [await measure('auto-recall (loopback search)', () => timeAutoRecall(exe, fixture)), await measure('write-confirmation', () => timeWriteConfirmation(exe, fixture))];
  } finally {
    await fixture.close();
  }
}

if (import.meta.main) {
  const figures = await benchHooks();
  if (figures === undefined) {
    console.log('dist/external-context not found: run `npm run build` first.');
  } else {
    for (const row of figures) {
      console.log(`${row.hook.padEnd(32)} median ${row.medianMs.toFixed(1)} ms  min ${row.minMs.toFixed(1)} ms  max ${row.maxMs.toFixed(1)} ms  (${row.runs} runs)`);
    }
  }
}
