// Hook I/O (docs/design/hooks.md §1): read stdin to EOF (at most 1 MiB) and parse one JSON value, count
// the wall-clock budget from process start, and write the answer in one stdout write without
// a trailing newline, through the streams or, when main.ts gives them, the raw file
// descriptors. Nothing here writes to stderr.
import * as fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { RUNTIME, type RuntimeName } from '../runtime/runtime.ts';
import { untilAborted } from '../util/until-aborted.ts';
import { concatBytes } from '../util/read-bounded-body.ts';
import { stdinDeadline } from './stdin-deadline.ts';

/** Most stdin a Hook accepts, in bytes; one more byte makes the input invalid. */
export const MAX_HOOK_STDIN_BYTES = 1_048_576;

/** The Hook's wall-clock budget in ms, counted from process start (docs/design/hooks.md §2.4). */
export const HOOK_BUDGET_MS = 6500;

/**
 * What a Hook process needs outside its own deadline, per runtime, in ms: the start-up before
 * the runtime's clock (`process.uptime()`) begins plus the exit after the answer. Measured
 * from the caller's spawn to the process being gone with stalled stdin, worst of 9 runs on a
 * loaded 2-core machine: executable 116, Node.js 58, Deno 103 (docs/design/hooks.md §2.4).
 */
export const HOOK_EXIT_MARGIN_MS: Readonly<Record<RuntimeName, number>> = { bun: 200, node: 150, deno: 250 };

/**
 * When a Hook gives up, in ms after process start: {@link HOOK_BUDGET_MS} less the runtime's
 * {@link HOOK_EXIT_MARGIN_MS}, so the caller sees the process gone within the budget.
 *
 * @param runtime The runtime (default: this one).
 * @returns 6300 on the executable, 6350 on Node.js, 6250 on Deno.
 * @see docs/design/hooks.md §2.4
 */
export function hookDeadlineMs(runtime: RuntimeName = RUNTIME): number {
  return HOOK_BUDGET_MS - HOOK_EXIT_MARGIN_MS[runtime];
}

/** What a Hook run receives; the CLI's `Io` satisfies it, so hooks/ never imports cli/. */
export interface HookIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** The process environment; read with own-property lookups only. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch at which the process started (the budget counts from it). */
  readonly startedAtMs: number;
  /** The parent process id, when known (main.ts): the host that started the Hook. */
  readonly parentPid?: number | undefined;
  /**
   * The process's stdin and stdout file descriptors (main.ts); when set, they are used
   * instead of the streams, whose creation costs more start-up time than the rest of a Hook
   * run (issue 10).
   */
  readonly stdioFds?: { readonly stdin: number; readonly stdout: number } | undefined;
}

/** A Hook's command line as the CLI parsed it: the value, or any argument problem. */
export type HookArguments<T> = { readonly valid: true; readonly value: T } | { readonly valid: false };

/** What stdin held: a parsed JSON value, or nothing usable. */
export type HookStdin = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const INVALID: HookStdin = { ok: false };

/** Bytes asked for per read of a file descriptor. */
const FD_READ_CHUNK_BYTES = 65_536;

/** Wait before retrying a read or write that a non-blocking descriptor refused, in ms. */
const EAGAIN_RETRY_MS = 5;

/**
 * A signal that aborts when the Hook's deadline, counted from process start, is reached.
 *
 * @param startedAtMs Process start, in ms since the epoch (`Io.startedAtMs`).
 * @param budgetMs Deadline in ms after process start (default {@link hookDeadlineMs}: 6500
 *   less this runtime's exit margin).
 * @param nowMs The current time in ms since the epoch.
 * @returns An AbortSignal that is already aborted when the budget is spent.
 */
export function hookBudgetSignal(startedAtMs: number, budgetMs: number = hookDeadlineMs(), nowMs: number = Date.now()): AbortSignal {
  return AbortSignal.timeout(hookBudgetDelayMs(startedAtMs, budgetMs, nowMs));
}

/**
 * The wait until a Hook's deadline, in whole ms (Node.js accepts only an integer delay).
 *
 * @param startedAtMs Process start, in ms since the epoch.
 * @param budgetMs Deadline in ms after process start.
 * @param nowMs The current time in ms since the epoch.
 * @returns `ceil(startedAtMs + budgetMs - nowMs)`, at least 0.
 */
export function hookBudgetDelayMs(startedAtMs: number, budgetMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil(startedAtMs + budgetMs - nowMs));
}

/**
 * Reads stdin to EOF and parses it as JSON (strict UTF-8).
 *
 * The stream is destroyed when it exceeds the limit, errors, or the signal aborts first, so a
 * stalled writer can never keep the Hook waiting.
 *
 * @param stdin The Hook's standard input.
 * @param signal The Hook budget.
 * @param maxBytes Limit in bytes (default 1048576).
 * @returns `{ok: true, value}` for well-formed JSON of any type; `{ok: false}` when stdin is
 *   unreadable, over the limit, not UTF-8, not JSON, or the signal aborted.
 */
export function readHookJson(stdin: Readable, signal: AbortSignal, maxBytes: number = MAX_HOOK_STDIN_BYTES): Promise<HookStdin> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    const finish = (result: HookStdin, destroy: boolean): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onFail);
      stdin.off('close', onFail);
      // Keep a listener: a late error on a destroyed stream must not become an uncaught one.
      stdin.on('error', () => undefined);
      if (destroy) stdin.destroy();
      resolve(result);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      total += bytes.byteLength;
      if (total > maxBytes) return finish(INVALID, true);
      chunks.push(bytes);
    };
    const onEnd = (): void => finish(parseJson(chunks, total), false);
    const onFail = (): void => finish(INVALID, true);
    const onAbort = (): void => finish(INVALID, true);
    if (signal.aborted) return finish(INVALID, true);
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onFail);
    stdin.once('close', onFail);
  });
}

function parseJson(chunks: readonly Uint8Array[], total: number): HookStdin {
  const bytes = concatBytes(chunks, total);
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return INVALID;
  }
}

/**
 * Writes the Hook's answer: one write, no trailing newline.
 *
 * @param stdout The Hook's standard output.
 * @param text One serialized JSON object.
 * @returns 0 when the write succeeded, 1 when stdout could not be written (docs/design/hooks.md §1).
 */
export function writeHookAnswer(stdout: Writable, text: string): Promise<number> {
  return new Promise((resolve) => {
    // A failing stdout (EPIPE, ENOSPC) must give exit 1, never an uncaught error on stderr.
    stdout.on('error', () => resolve(1));
    try {
      stdout.write(text, (error) => resolve(error ? 1 : 0));
    } catch {
      resolve(1);
    }
  });
}

/**
 * Resolves with `promise`'s value, or with undefined as soon as `signal` aborts.
 *
 * @param promise Work that cannot itself be cancelled (a file read, for example).
 * @param signal The Hook budget.
 * @returns The value, or undefined when the signal aborted first; rejections pass through.
 */
export function beforeAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return untilAborted(promise, signal).catch((error: unknown) => {
    // Only the budget's own abort becomes "no value"; the work's failures pass through.
    if (signal.aborted && error === signal.reason) return undefined;
    throw error;
  });
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/**
 * Reads a file descriptor to EOF and parses it as JSON (strict UTF-8): `readHookJson` without
 * a stream. Reads run one at a time; a descriptor in non-blocking mode that has no data yet
 * (`EAGAIN`) is polled every 5 ms.
 *
 * @param fd An open readable descriptor (the process's stdin: 0).
 * @param signal The Hook budget. A read still pending when it aborts is abandoned; the process
 *   exit that follows the answer ends it.
 * @param maxBytes Limit in bytes (default 1048576); reading stops at the first byte past it.
 * @returns As `readHookJson`: `{ok: true, value}`, or `{ok: false}` when the descriptor is
 *   unreadable, over the limit, not UTF-8, not JSON, or the signal aborted first.
 */
export function readHookJsonFromFd(fd: number, signal: AbortSignal, maxBytes: number = MAX_HOOK_STDIN_BYTES): Promise<HookStdin> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let done = false;
    const finish = (result: HookStdin): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = (): void => finish(INVALID);
    const readNext = (): void => {
      if (done) return;
      // Never more than one byte past the limit: that byte already makes the input invalid.
      const buffer = new Uint8Array(Math.min(FD_READ_CHUNK_BYTES, maxBytes + 1 - total));
      fs.read(fd, buffer, 0, buffer.byteLength, null, (error, bytesRead) => {
        if (done) return;
        if (error !== null) {
          if (errorCode(error) === 'EAGAIN') setTimeout(readNext, EAGAIN_RETRY_MS);
          else finish(INVALID);
          return;
        }
        if (bytesRead === 0) return finish(parseJson(chunks, total));
        total += bytesRead;
        if (total > maxBytes) return finish(INVALID);
        chunks.push(buffer.subarray(0, bytesRead));
        readNext();
      });
    };
    if (signal.aborted) return finish(INVALID);
    signal.addEventListener('abort', onAbort, { once: true });
    readNext();
  });
}

/**
 * Writes the Hook's answer to a file descriptor: one synchronous write, no trailing newline
 * (`writeHookAnswer` without a stream). A descriptor in non-blocking mode that is full
 * (`EAGAIN`) is retried every 5 ms; a short write continues with the rest.
 *
 * @param fd An open writable descriptor (the process's stdout: 1).
 * @param text One serialized JSON object.
 * @returns 0 when every byte was written, 1 when the write failed (EPIPE, EBADF, ENOSPC).
 */
export function writeHookAnswerToFd(fd: number, text: string): Promise<number> {
  const bytes = new TextEncoder().encode(text);
  return new Promise((resolve) => {
    let offset = 0;
    const writeRest = (): void => {
      try {
        while (offset < bytes.byteLength) offset += fs.writeSync(fd, bytes, offset, bytes.byteLength - offset);
        resolve(0);
      } catch (error) {
        if (errorCode(error) === 'EAGAIN') setTimeout(writeRest, EAGAIN_RETRY_MS);
        else resolve(1);
      }
    };
    writeRest();
  });
}

/**
 * Reads the Hook's stdin: through `io.stdioFds` when set, else the `io.stdin` stream, until
 * the budget `signal` aborts, with the grace of {@link stdinDeadline}.
 *
 * @returns See `readHookJson`.
 */
export async function readHookStdin(io: HookIo, signal: AbortSignal): Promise<HookStdin> {
  const deadline = stdinDeadline(signal, io.startedAtMs + hookDeadlineMs());
  try {
    return await (io.stdioFds === undefined ? readHookJson(io.stdin, deadline.signal) : readHookJsonFromFd(io.stdioFds.stdin, deadline.signal));
  } finally {
    deadline.dispose();
  }
}

/**
 * Writes the Hook's answer: through `io.stdioFds` when set, else the `io.stdout` stream.
 *
 * @returns 0 when written, 1 when stdout could not be written (docs/design/hooks.md §1).
 */
export function writeHookStdout(io: HookIo, text: string): Promise<number> {
  return io.stdioFds === undefined ? writeHookAnswer(io.stdout, text) : writeHookAnswerToFd(io.stdioFds.stdout, text);
}
