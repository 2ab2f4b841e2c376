// Hook I/O (hooks.md §1): read stdin to EOF (at most 1 MiB) and parse one JSON value, count
// the wall-clock budget from process start, and write the answer in one stdout write without
// a trailing newline. Nothing here writes to stderr.
import type { Readable, Writable } from 'node:stream';

/** Most stdin a Hook accepts, in bytes; one more byte makes the input invalid. */
export const MAX_HOOK_STDIN_BYTES = 1_048_576;

/** The Hook's wall-clock budget in ms, counted from process start (hooks.md §2.4). */
export const HOOK_BUDGET_MS = 6500;

/** What a Hook run receives; the CLI's `Io` satisfies it, so hooks/ never imports cli/. */
export interface HookIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** The process environment; read with own-property lookups only. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch at which the process started (the budget counts from it). */
  readonly startedAtMs: number;
}

/** A Hook's command line as the CLI parsed it: the value, or any argument problem. */
export type HookArguments<T> = { readonly valid: true; readonly value: T } | { readonly valid: false };

/** What stdin held: a parsed JSON value, or nothing usable. */
export type HookStdin = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const INVALID: HookStdin = { ok: false };

/**
 * A signal that aborts when the Hook budget, counted from process start, runs out.
 *
 * @param startedAtMs Process start, in ms since the epoch (`Io.startedAtMs`).
 * @param budgetMs Budget in ms (default 6500).
 * @param nowMs The current time in ms since the epoch.
 * @returns An AbortSignal that is already aborted when the budget is spent.
 */
export function hookBudgetSignal(startedAtMs: number, budgetMs: number = HOOK_BUDGET_MS, nowMs: number = Date.now()): AbortSignal {
  // Node.js accepts only an integer delay.
  return AbortSignal.timeout(Math.max(0, Math.ceil(startedAtMs + budgetMs - nowMs)));
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
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
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
 * @returns 0 when the write succeeded, 1 when stdout could not be written (hooks.md §1).
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
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
