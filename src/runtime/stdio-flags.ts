// Inherited stdio left as found (docs/design/README.md, "Inherited stdio"). Bun puts an
// inherited stdout or stderr pipe into non-blocking mode when it first writes to it; the flag
// lives on the open file description, which the shell and every later writer to the same pipe
// share. Under Bun on Linux and macOS this module records O_NONBLOCK of fds 0–2 at start and
// puts it back before the process ends, also on a signal. Deno and Node.js leave the flags as
// found already; Windows has no such flag.
//
// Start-up cost matters (every Hook run pays it): on Linux the flags are read from
// /proc/self/fdinfo with node:fs, and the Bun module that calls libc's fcntl is loaded only
// when a flag has to be put back. macOS has no /proc, so there the module is loaded at start.
// On Linux a run that writes only through the descriptors (`--version`, `--help`, the Hook
// runs) records the flags only if it is about to build a stream after all
// ({@link guardInheritedStdioSync}): without a stream nothing changes them.
import * as fs from 'node:fs';
import process from 'node:process';
import { RUNTIME } from './runtime.ts';

/** Signals whose default action ends the process; the guard restores the flags first. */
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const STDIO_FDS = [0, 1, 2] as const;
/** O_NONBLOCK: octal 04000 on Linux (x64 and arm64), 0x4 on macOS. */
export const O_NONBLOCK: number = process.platform === 'darwin' ? 0x4 : 0o4000;

/** Reads and sets the status flags of one fd (the Bun module, backed by fcntl). */
export interface FdFlags {
  /** The fd's status flags, or undefined when it is not open. */
  get(fd: number): number | undefined;
  /** Sets the status flags. */
  set(fd: number, flags: number): void;
}

let recorded: ReadonlyArray<number | undefined> | undefined;
let fcntlFlags: FdFlags | undefined;

/**
 * Records the O_NONBLOCK flag of fds 0, 1 and 2, and on SIGINT, SIGTERM or SIGHUP that no
 * command handles restores it and re-raises the signal (so the exit status still names it).
 * Call before anything touches the stdio streams; main.ts calls
 * {@link restoreInheritedStdio} before it ends the process. Only the first call does anything.
 *
 * @returns Resolves once the flags are recorded; never rejects (without the guard only a
 *   later writer to a shared pipe would suffer, which is no reason to fail a command).
 */
export async function guardInheritedStdio(): Promise<void> {
  if (recorded !== undefined || RUNTIME !== 'bun') return;
  if (process.platform === 'linux') return guardInheritedStdioSync();
  if (process.platform !== 'darwin') return;
  try {
    const flags = await loadFcntl();
    recorded = STDIO_FDS.map((fd) => flags.get(fd));
  } catch {
    return;
  }
  restoreOnFatalSignals();
}

/**
 * {@link guardInheritedStdio} done synchronously, for a run that skipped it at start and is
 * about to build a stdio stream (main.ts's stream getters). Linux only (the flags come from
 * /proc/self/fdinfo); elsewhere, and once the flags are recorded, it does nothing.
 */
export function guardInheritedStdioSync(): void {
  if (recorded !== undefined || RUNTIME !== 'bun' || process.platform !== 'linux') return;
  recorded = STDIO_FDS.map(readFdinfoFlags);
  restoreOnFatalSignals();
}

/** Whether {@link guardInheritedStdio} can be left until a stream is built: Linux under Bun. */
export const CAN_GUARD_LATER: boolean = RUNTIME === 'bun' && process.platform === 'linux';

function restoreOnFatalSignals(): void {
  for (const signal of FATAL_SIGNALS) {
    const onSignal = (): void => {
      // Another listener means a command handles the signal and ends through main.ts.
      if (process.listenerCount(signal) > 1) return;
      process.off(signal, onSignal);
      void restoreInheritedStdio().finally(() => process.kill(process.pid, signal));
    };
    process.on(signal, onSignal);
  }
}

/**
 * Puts O_NONBLOCK of fds 0–2 back where {@link guardInheritedStdio} found it, on each fd
 * where it changed; other flags are left as they are now.
 *
 * @returns Resolves when done; never rejects (best effort on the way out).
 */
export async function restoreInheritedStdio(): Promise<void> {
  const before = recorded;
  if (before === undefined) return;
  try {
    const now = process.platform === 'linux' ? STDIO_FDS.map(readFdinfoFlags) : undefined;
    const changed = STDIO_FDS.filter((fd) => now === undefined || differs(before[fd], now[fd]));
    if (changed.length === 0) return;
    const flags = await loadFcntl();
    for (const fd of changed) {
      const current = flags.get(fd);
      const wanted = before[fd];
      if (current === undefined || wanted === undefined || !differs(wanted, current)) continue;
      flags.set(fd, (current & ~O_NONBLOCK) | (wanted & O_NONBLOCK));
    }
  } catch {
    // Nothing to report on the way out.
  }
}

function differs(a: number | undefined, b: number | undefined): boolean {
  return a !== undefined && b !== undefined && (a & O_NONBLOCK) !== (b & O_NONBLOCK);
}

async function loadFcntl(): Promise<FdFlags> {
  fcntlFlags ??= await (await import('./stdio-flags-bun.ts')).openFdFlagsBun();
  return fcntlFlags;
}

/** The `flags:` line of /proc/self/fdinfo/<fd> (octal), or undefined when fd is not open. */
function readFdinfoFlags(fd: number): number | undefined {
  try {
    const match = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
    return match?.[1] === undefined ? undefined : Number.parseInt(match[1], 8);
  } catch {
    return undefined;
  }
}
