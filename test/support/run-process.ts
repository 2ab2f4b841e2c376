// Runs a command to completion for CLI tests: exit code, signal, stdout and stderr.
import { spawn } from 'node:child_process';
import { cleanEnv } from './env.ts';
import { LIVENESS_MS } from './liveness.ts';

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  /** The complete environment (default `cleanEnv()`; the parent's is never merged in). */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; `'open'` leaves stdin open (stalled input). Default: closed at once. */
  readonly stdin?: string | Uint8Array | 'open';
  readonly cwd?: string;
  /** Hang guard in ms (default LIVENESS_MS): the process is killed with SIGKILL and `timedOut` is set. */
  readonly timeoutMs?: number;
}

/** The outcome of {@link runProcess}. */
export interface ProcessResult {
  /** Exit code, or null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout decoded as UTF-8. */
  readonly stdout: string;
  /** stderr decoded as UTF-8. */
  readonly stderr: string;
  /** True when the hang guard killed the process. */
  readonly timedOut: boolean;
}

const DEFAULT_TIMEOUT_MS = LIVENESS_MS;

/**
 * Spawns `cmd` with `args` (no shell) and waits for it to exit and its streams to close.
 *
 * @throws {Error} If the command cannot be started (for example, it does not exist).
 */
export function runProcess(cmd: string, args: readonly string[], options: RunProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...args], { env: { ...(options.env ?? cleanEnv()) }, cwd: options.cwd, stdio: 'pipe', windowsHide: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined); // the child may exit before reading its input
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), timedOut });
    });
    if (options.stdin === 'open') return;
    if (options.stdin !== undefined) child.stdin.write(options.stdin);
    child.stdin.end();
  });
}
