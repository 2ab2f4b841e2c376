// Starts the real Mem0 engine test service (test/services/mem0-engine/server.mjs) under Node.js
// as a child process on 127.0.0.1 with a free port (mem0-services.md §4).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cleanEnv } from '../support/env.ts';
import type { FixtureTier } from '../support/fixture-tier.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

/** The service package: its own package.json and lockfile pinning mem0ai 3.3.1. */
export const MEM0_ENGINE_DIR = join(REPO_ROOT, 'test', 'services', 'mem0-engine');

/** Longest wait for the URL line, in ms (a cold better-sqlite3 load plus the warm-up search). */
const STARTUP_TIMEOUT_MS = LIVENESS_MS;

/** Whether `npm ci --prefix test/services/mem0-engine` has run. */
export function mem0EngineTier(): FixtureTier {
  const modules = join(MEM0_ENGINE_DIR, 'node_modules');
  const installed = ['mem0ai', 'better-sqlite3'].every((name) => existsSync(join(modules, name, 'package.json')));
  return { installed, folder: 'test/services/mem0-engine' };
}

/** A running engine service. */
export interface Mem0EngineService {
  /** `http://127.0.0.1:<port>` (no trailing slash): the stock server's origin. */
  readonly origin: string;
  /** Everything the service wrote to stderr so far. */
  stderr(): string;
  /** Stops the service (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts the service with `node` from PATH.
 *
 * @param apiKey The `X-API-Key` value it accepts.
 * @returns The running service once it printed its URL.
 * @throws {Error} If Node.js cannot start it or it exits or stalls before printing its URL; the
 *   message carries its stderr.
 */
export function startMem0Engine(apiKey: string): Promise<Mem0EngineService> {
  const child = spawn('node', [join(MEM0_ENGINE_DIR, 'server.mjs')], {
    cwd: MEM0_ENGINE_DIR,
    env: cleanEnv({ MEM0_ENGINE_API_KEY: apiKey, MEM0_TELEMETRY: 'false' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const errors: Buffer[] = [];
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const stderr = (): string => Buffer.concat(errors).toString('utf8');
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The Mem0 engine service ${why}.\n${stderr()}`));
    };
    const timer = setTimeout(() => fail('printed no URL in time'), STARTUP_TIMEOUT_MS);
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code) => fail(`exited with ${String(code)} before printing its URL`));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      child.on('error', () => undefined);
      resolve({ origin: line.trim(), stderr, close: () => stop(child, exited) });
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const guard = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(guard);
  }
}
