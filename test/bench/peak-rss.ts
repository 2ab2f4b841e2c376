// Peak resident set size of a running process, from Linux's /proc/<pid>/status (VmHWM).
import { readFileSync } from 'node:fs';

/**
 * Reads a process's peak RSS so far.
 *
 * @param pid A live process id.
 * @returns The peak in KiB (VmHWM), or undefined where /proc is unavailable (not Linux) or the
 *   process is gone.
 */
export function readPeakRssKiB(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}
