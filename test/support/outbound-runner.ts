// One process per runtime for the outbound cases (issue 26 §3, the way Hono's runtime-tests run
// one Deno and one Node.js process over a batch): test/runtime/outbound-driver-main.ts runs under
// Bun from source, and bundled once per test file (Bun.build, target node, as the shipped
// bundle is) under Node.js and under Deno with a permission set. A case goes in as one stdin
// line and its outcome comes back as one stdout line, so one start-up serves a whole file.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OutboundCase, OutboundOutcome } from '../runtime/outbound-driver.ts';
import { DENO_BASE_PERMISSIONS, ENGINE, type RuntimeId, scriptRunner } from './launchers.ts';
import { REPO_ROOT } from './paths.ts';

const SOURCE = path.join(REPO_ROOT, 'test', 'runtime', 'outbound-driver-main.ts');

let built: Promise<string> | undefined;
const buildDirs: string[] = [];

/** The driver bundled for Node.js and Deno (built once per test process). */
function builtDriver(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ec-outbound-driver-'));
    buildDirs.push(dir);
    const result = await Bun.build({ entrypoints: [SOURCE], target: 'node', format: 'esm', outdir: dir, naming: 'outbound-driver.mjs' });
    if (!result.success) throw new Error(`bundling the outbound driver failed: ${result.logs.join('\n')}`);
    return path.join(dir, 'outbound-driver.mjs');
  })();
  return built;
}

/** Removes the bundled drivers (call from afterAll). */
export function removeBuiltDrivers(): void {
  for (const dir of buildDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  built = undefined;
}

/** A running driver on one runtime. */
export interface OutboundRunner {
  readonly id: RuntimeId;
  readonly engine: 'bun' | 'node' | 'deno';
  /** Names the runner in assertions: the row, and how it was told to trust a CA if it was. */
  readonly label: string;
  /** Runs one case in the driver process; cases sent together run concurrently there. */
  run(entry: OutboundCase): Promise<OutboundOutcome>;
  /** Everything the runtime wrote to stderr so far (the driver itself writes nothing there). */
  stderr(): string;
  /** Ends stdin and waits for the process to exit; resolves to its exit code. */
  close(): Promise<number | null>;
}

/** How to start one driver. */
export interface RunnerOptions {
  /** The driver's whole process environment (what the runtime reads on its own). */
  readonly env: Readonly<Record<string, string>>;
  /** The Deno permission set (default: the base set); `--cert <file>` goes here too. */
  readonly denoPermissions?: readonly string[];
  /** The label (default: the row id). */
  readonly label?: string;
  /** Runtime flags before the script (`--expose-gc`, `--import=…` for Node.js). */
  readonly runtimeArgs?: readonly string[];
}

/**
 * Starts the driver on one runtime row's engine.
 *
 * @param id The row: `executable` runs the driver under Bun from source, the bundles under Node.js and Deno.
 */
export async function startOutboundRunner(id: RuntimeId, options: RunnerOptions): Promise<OutboundRunner> {
  const runner = scriptRunner(id, options.denoPermissions ?? DENO_BASE_PERMISSIONS);
  const script = id === 'executable' ? SOURCE : await builtDriver();
  const child: ChildProcess = spawn(runner.command, [...runner.args, ...(options.runtimeArgs ?? []), script], { env: { ...options.env }, cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let buffered = '';
  let nextId = 1;
  const waiting = new Map<number, (outcome: OutboundOutcome) => void>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n');
    while (end !== -1) {
      const { id: caseId, outcome } = JSON.parse(buffered.slice(0, end)) as { id: number; outcome: OutboundOutcome };
      buffered = buffered.slice(end + 1);
      waiting.get(caseId)?.(outcome);
      waiting.delete(caseId);
      end = buffered.indexOf('\n');
    }
  });
  const label = options.label ?? id;
  void exited.then((code) => {
    for (const [, resolve] of waiting) resolve({ status: 'threw', message: `the ${label} driver exited (${code}) before answering: ${stderr}` } as unknown as OutboundOutcome);
    waiting.clear();
  });
  return {
    id,
    engine: ENGINE[id],
    label,
    run(entry) {
      const caseId = nextId++;
      const answered = new Promise<OutboundOutcome>((resolve) => waiting.set(caseId, resolve));
      child.stdin?.write(`${JSON.stringify({ id: caseId, case: entry })}\n`);
      return answered;
    },
    stderr: () => stderr,
    close() {
      child.stdin?.end();
      return exited;
    },
  };
}
