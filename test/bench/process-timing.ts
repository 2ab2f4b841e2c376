// Start-to-exit timing of one child process, stdin written in one piece and stdout captured.
import { spawn } from 'node:child_process';

/** One timed run. */
export interface TimedRun {
  /** Wall-clock time from spawn to the `close` event (exit plus stdio closed), in ms. */
  readonly ms: number;
  readonly stdout: string;
  readonly code: number | null;
}

/**
 * Spawns `command args`, writes `stdin` and ends it, and waits for the process to close.
 *
 * @param env The whole child environment.
 * @returns Elapsed ms, captured stdout (UTF-8) and the exit code; stderr is discarded.
 */
export function timeProcess(command: string, args: readonly string[], stdin: string, env: Record<string, string>): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - started, stdout, code }));
    // A process that exits without reading stdin must not turn EPIPE into an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}
