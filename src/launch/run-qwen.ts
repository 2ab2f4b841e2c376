// Starting Qwen Code as a child with inherited stdio, forwarding SIGINT, SIGTERM and SIGHUP,
// and reporting how it ended (docs/design/examples.md §8.4). No runtime offers execve, so the launcher
// stays the parent for the child's whole life.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import process from 'node:process';
import type { LaunchPlan } from './launch-plan.ts';

/** Signals forwarded to the child, where the platform has them. */
export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How the child ended: not started at all, or its exit status as a launcher exit code. */
export type QwenExit = { readonly started: false } | { readonly started: true; readonly exitCode: number };

/**
 * Runs the plan to completion.
 *
 * @param plan The child process to start.
 * @returns `{started: false}` when the executable could not be spawned; otherwise the child's
 *   exit code, or 128 + the signal number when a signal ended it.
 * @see docs/design/examples.md §8.4
 */
export function runQwen(plan: LaunchPlan): Promise<QwenExit> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(plan.executable, [...plan.args], { cwd: plan.cwd, env: plan.env, stdio: 'inherit', shell: false });
    } catch {
      resolve({ started: false });
      return;
    }
    let started = false;
    const listeners: [NodeJS.Signals, () => void][] = [];
    const stopForwarding = (): void => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
    };
    for (const signal of FORWARDED_SIGNALS) {
      const listener = (): void => {
        try {
          child.kill(signal);
        } catch {
          // The child is already gone; its exit event reports the outcome.
        }
      };
      try {
        process.on(signal, listener);
        listeners.push([signal, listener]);
      } catch {
        // This platform does not have the signal (SIGHUP, SIGTERM under Deno on Windows).
      }
    }
    child.once('spawn', () => {
      started = true;
    });
    child.once('error', () => {
      // An error after a successful spawn (a failed kill) leaves the exit event to report.
      if (started) return;
      stopForwarding();
      resolve({ started: false });
    });
    child.once('exit', (code, signal) => {
      stopForwarding();
      resolve({ started: true, exitCode: code ?? 128 + signalNumber(signal) });
    });
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const number = signal === null ? undefined : (constants.signals as Partial<Record<string, number>>)[signal];
  return typeof number === 'number' ? number : 0;
}
