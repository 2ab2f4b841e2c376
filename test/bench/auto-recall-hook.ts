// Benchmark of the auto-recall Hook (figures, never pass/fail): start-to-exit time of the
// compiled executable answering one UserPromptSubmit against a loopback Generic HTTP fake,
// and of the write-confirmation Hook (no network), each the median of 20 runs after one
// untimed warm-up run. Run: `bun test/bench/auto-recall-hook.ts` after `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath } from '../support/paths.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const RUNS = 20;
const TOKEN = 'bench-token';

/** Start-to-exit figures of one Hook, in ms. */
export interface HookFigures {
  readonly hook: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

function runOnce(command: string, args: readonly string[], stdin: string, env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', reject);
    child.once('close', () => resolve({ ms: performance.now() - started, stdout }));
    child.stdin.end(stdin);
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function measure(
  hook: string,
  args: readonly string[],
  stdin: string,
  env: Record<string, string>,
  expectPrefix: string,
): Promise<HookFigures> {
  await runOnce(exePath(), args, stdin, env); // warm-up: page cache
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { ms, stdout } = await runOnce(exePath(), args, stdin, env);
    if (!stdout.startsWith(expectPrefix)) throw new Error(`${hook}: unexpected answer ${stdout.slice(0, 80)}`);
    times.push(ms);
  }
  return { hook, runs: RUNS, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times) };
}

/**
 * Measures both Hooks with the compiled executable.
 *
 * @returns The figures, or undefined when `dist/external-context` does not exist.
 */
export async function benchHooks(): Promise<HookFigures[] | undefined> {
  if (!existsSync(exePath())) return undefined;
  const fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'a', content: 'Deploys need two approvals.' }] });
  const tmp = await makeTempDir('ec-bench-hook-');
  try {
    const root = path.join(tmp.path, 'repo');
    await mkdir(root);
    const config = await writeConfigFile(
      { version: 2, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'BENCH_TOKEN' }, autoRecall: { repositoryRoot: root } },
      { dir: tmp.path },
    );
    const env = cleanEnv({ BENCH_TOKEN: TOKEN });
    const recall = JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'deployment policy', cwd: root });
    const write = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'mcp__external-context__context_remember',
      permission_mode: 'default',
      tool_input: { content: 'Deploys need two approvals.' },
    });
    return [
      await measure('auto-recall (loopback search)', ['hook', 'auto-recall', '--config', config], recall, env, '{"hookSpecificOutput"'),
      await measure('write-confirmation', ['hook', 'write-confirmation'], write, env, '{"hookSpecificOutput"'),
    ];
  } finally {
    await fake.close();
    await tmp.remove();
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
