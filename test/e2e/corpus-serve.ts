// The corpus e2e tests' shared setup: `corpus index` of a few files with the executable, and a
// `corpus serve` process started until it prints its URL (stderr captured, the exit awaited), in a
// scratch directory removed after the suite.
import { afterAll } from 'bun:test';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A scratch directory (prefix `prefix`) and the list of spawned services, both cleaned up after
 * the suite: services still running when a test failed half-way are stopped, never left behind.
 */
export function corpusScratch(prefix: string): { readonly dir: string; readonly children: ChildProcess[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, children };
}

/**
 * Writes `files` into a new directory under `parent` and runs `executable corpus index . --out out` there.
 *
 * @throws {Error} If the index run fails; the message carries its stderr.
 */
export function indexCorpus(executable: string, parent: string, files: Record<string, string>, out: string): void {
  const source = mkdtempSync(join(parent, 'src-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(source, name), text);
  const result = spawnSync(executable, ['corpus', 'index', '.', '--out', out], { cwd: source, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`corpus index failed: ${result.stderr}`);
}

/** A started `corpus serve`. */
export interface RunningCorpus {
  /** The URL printed on the first stdout line. */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Settles with the exit code when the process exits. */
  readonly exited: Promise<number | null>;
}

/** Where and how {@link startCorpusServe} runs the process. */
export interface CorpusServeOptions {
  readonly cwd: string;
  /** The whole environment but PATH (inherited). */
  readonly env: Record<string, string>;
  /** The process is pushed here as soon as it is spawned, for the suite's afterAll to stop. */
  readonly children: ChildProcess[];
}

/**
 * Spawns `command args` and resolves once the first stdout line (the URL) is complete.
 *
 * @throws {Error} If the process exits before; the message carries its stderr.
 */
export async function startCorpusServe(command: string, args: readonly string[], options: CorpusServeOptions): Promise<RunningCorpus> {
  const child = spawn(command, [...args], { cwd: options.cwd, env: { PATH: process.env['PATH'] ?? '', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  options.children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    void exited.then(() => reject(new Error(`corpus serve exited early: ${stderr}`)));
  });
  return { url, port: Number(new URL(url).port), child, stderr: () => stderr, exited };
}
