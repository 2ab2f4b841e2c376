// Figures of a running process from Linux's /proc: peak resident set size (VmHWM) and CPU time.
import { existsSync, readFileSync } from 'node:fs';

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

/**
 * Reads a process's current resident set size (VmRSS).
 *
 * @returns KiB, or undefined where /proc is unavailable (not Linux) or the process is gone.
 */
export function readRssKiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * A process's CPU time so far (user + system), from /proc/<pid>/stat fields 14 and 15 in
 * clock ticks of 10 ms; less disturbed by other load on the machine than wall-clock time.
 *
 * @returns Milliseconds, or undefined where /proc is unavailable or the process is gone.
 */
export function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
