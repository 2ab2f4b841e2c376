// A minimal newline-delimited JSON-RPC driver for a stdio MCP server (benchmarks only): it
// writes requests and reads responses by id, nothing more, so the client side costs next to
// nothing next to the server being measured (the SDK Client would add its own start-up).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { onJsonLines, onLines } from '../support/json-lines.ts';

/** The MCP protocol version the driver announces. */
export const DRIVER_PROTOCOL_VERSION = '2025-06-18';

/** One JSON-RPC response as received. */
export interface RpcResponse {
  readonly id: number;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** A spawned stdio server under the driver's control. */
export interface RpcDriver {
  /** The server's process id (for /proc/<pid>/status). */
  readonly pid: number;
  /** Sends a request and resolves with its response. */
  request(method: string, params: Record<string, unknown>): Promise<RpcResponse>;
  /** Sends a notification (no response). */
  notify(method: string, params?: Record<string, unknown>): void;
  /** `initialize`, then `notifications/initialized`, as a real client does. */
  initialize(): Promise<RpcResponse>;
  /** Ends stdin and resolves with the exit code once the process has exited. */
  close(): Promise<number | null>;
}

/**
 * Spawns `command args` with piped stdin/stdout and returns a driver.
 *
 * @param env The whole child environment.
 * @param onStderrLine Receives each stderr line; without it stderr is ignored.
 * @throws {Error} Through `request()` when the process exits before answering.
 */
export function spawnRpcDriver(command: string, args: readonly string[], env: Record<string, string>, onStderrLine?: (line: string) => void): RpcDriver {
  const child: ChildProcessByStdio<Writable, Readable, Readable | null> =
    onStderrLine === undefined ? spawn(command, [...args], { env, stdio: ['pipe', 'pipe', 'ignore'] }) : spawn(command, [...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  if (onStderrLine !== undefined && child.stderr !== null) {
    onLines(child.stderr, onStderrLine);
  }
  const pending = new Map<number, { resolve: (response: RpcResponse) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`The server exited (code ${code}) before answering.`));
      pending.clear();
      resolve(code);
    });
  });
  onJsonLines(child.stdout, (line) => {
    const message = line as Partial<RpcResponse>;
    if (typeof message.id !== 'number') return;
    pending.get(message.id)?.resolve(message as RpcResponse);
    pending.delete(message.id);
  });
  const send = (message: Record<string, unknown>): void => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };
  const driver: RpcDriver = {
    pid: child.pid ?? -1,
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, method, params });
      });
    },
    notify(method, params) {
      send(params === undefined ? { method } : { method, params });
    },
    async initialize() {
      const response = await driver.request('initialize', {
        protocolVersion: DRIVER_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'external-context-bench', version: '0.0.0' },
      });
      driver.notify('notifications/initialized');
      return response;
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
  return driver;
}

/**
 * Throws unless `response` is a successful context_search result (not `isError`).
 *
 * @param label Names the measurement in the error.
 */
export function assertSearchResult(response: RpcResponse, label: string): void {
  const result = response.result;
  if (result === undefined || result['isError'] === true || result['structuredContent'] === undefined) {
    throw new Error(`${label}: context_search did not return a result: ${JSON.stringify(response).slice(0, 200)}`);
  }
}
