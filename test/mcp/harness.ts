// Test harness for the MCP surface: an SDK Client connected to the server in-process
// (InMemoryTransport) or over real stdio (a spawned `serve`), recording every message the
// server sent and everything it wrote to stderr. No mocks: the provider is a real loopback
// Generic HTTP fake (test/fakes/generic-http.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { createContextSearchTool } from '../../src/mcp/context-search.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import type { GenericHttpFake } from '../fakes/generic-http.ts';
import { cleanEnv } from '../support/env.ts';
import { requireBuilt } from '../support/paths.ts';
import { CANARY_CREDENTIAL, genericBinding } from '../support/provider-bindings.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

/** Repository root. */
export const ROOT = path.resolve(import.meta.dir, '../..');
/** The compiled host executable, when `npm run build` has produced it. */
export const COMPILED = path.join(ROOT, 'dist', process.platform === 'win32' ? 'external-context.exe' : 'external-context');
/** The environment variable the test configurations name as `tokenEnv`. */
export const TOKEN_ENV = 'EC_TEST_TOKEN';
/** A query that must never appear in any stdout, stderr or tool result. */
export const CANARY_QUERY = 'canary-query-5d1e83';
export { CANARY_CREDENTIAL };

/** Hang guard for waits in these tests (not a timing assertion). */
const WAIT_MS = LIVENESS_MS;

/** Collects a stream's text and lets a test wait for complete lines. */
export class TextLog {
  text = '';
  readonly stream: Writable = new Writable({
    write: (chunk: Buffer | string, _encoding, callback) => {
      this.append(String(chunk));
      callback();
    },
  });
  private readonly waiters = new Set<() => void>();

  append(text: string): void {
    this.text += text;
    for (const wake of [...this.waiters]) wake();
  }

  /** Complete lines after character offset `mark`. */
  linesSince(mark: number): string[] {
    const tail = this.text.slice(mark);
    const end = tail.lastIndexOf('\n');
    return end === -1 ? [] : tail.slice(0, end).split('\n');
  }

  /** Resolves with the complete lines after `mark` once there are at least `count`. */
  waitForLines(mark: number, count: number): Promise<string[]> {
    if (this.linesSince(mark).length >= count) return Promise.resolve(this.linesSince(mark));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`Expected ${count} stderr line(s), saw ${JSON.stringify(this.text.slice(mark))}.`));
      }, WAIT_MS);
      const check = (): void => {
        if (this.linesSince(mark).length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.linesSince(mark));
      };
      this.waiters.add(check);
    });
  }
}

/** Wraps a client transport and records every message the server sent. */
export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    readonly received: JSONRPCMessage[],
  ) {
    inner.onmessage = (message, extra) => {
      received.push(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A client connected to one running server. */
export interface ServerConnection {
  readonly client: Client;
  /** Every JSON-RPC message the server sent, in arrival order. */
  readonly received: JSONRPCMessage[];
  /** The server's stderr. */
  readonly stderr: TextLog;
  close(): Promise<void>;
}

/** A way to run the server against a fake. */
export interface ServerTarget {
  readonly label: string;
  connect(fake: GenericHttpFake): Promise<ServerConnection>;
}

function newClient(): Client {
  return new Client({ name: 'external-context-test', version: '0.0.0' }, { capabilities: {} });
}

/** The server in-process: createMcpServer with the real context_search tool and provider. */
export const IN_PROCESS: ServerTarget = {
  label: 'in-process',
  async connect(fake) {
    const stderr = new TextLog();
    const provider = createProvider(genericBinding(fake.origin), { env: {} });
    const server = createMcpServer([createContextSearchTool(provider, 5000, stderr.stream)]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const received: JSONRPCMessage[] = [];
    const client = newClient();
    await server.connect(serverSide);
    await client.connect(new RecordingTransport(clientSide, received));
    return {
      client,
      received,
      stderr,
      async close() {
        await client.close();
        await server.close();
      },
    };
  },
};

/** A temporary directory removed by `cleanup()`. */
export function tempDir(): { readonly dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ec-mcp-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a configuration file and returns its absolute path. */
export function writeConfig(dir: string, config: unknown, name = 'config.json'): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  return file;
}

/** A version 1 Generic HTTP configuration for a fake. */
export function genericConfig(fake: { readonly origin: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV }, ...extra };
}

/** How to start `external-context`: the runtime and leading arguments. */
export interface Launcher {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The launchers the process-level MCP tests run: the compiled executable, which a missing build
 * fails naming `npm run build`. A source run (`bun src/main.ts`) is the same code on the same
 * runtime, started from source instead of bytecode (~4× the CPU for `serve`), so it is not a
 * row of its own; the bundle runtimes have their own tests (test/bundle/).
 */
export function launchers(): Launcher[] {
  return [{ label: 'dist/external-context', command: requireBuilt(COMPILED), args: [] }];
}

/** The child environment: the credential only, no proxy or configuration variables. */
export function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  return cleanEnv({ [TOKEN_ENV]: CANARY_CREDENTIAL, ...extra });
}

/** `serve --config <file>` over real stdio with the SDK's StdioClientTransport. */
export function stdioTarget(launcher: Launcher): ServerTarget {
  return {
    label: `stdio ${launcher.label}`,
    async connect(fake) {
      const temp = tempDir();
      const config = writeConfig(temp.dir, genericConfig(fake));
      const transport = new StdioClientTransport({
        command: launcher.command,
        args: [...launcher.args, 'serve', '--config', config],
        env: childEnv(),
        cwd: temp.dir,
        stderr: 'pipe',
      });
      const stderr = new TextLog();
      transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
      const received: JSONRPCMessage[] = [];
      const client = newClient();
      await client.connect(new RecordingTransport(transport, received));
      return {
        client,
        received,
        stderr,
        async close() {
          await client.close();
          temp.cleanup();
        },
      };
    },
  };
}

/** What a finished process left behind. */
export interface ProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A spawned `external-context` with raw pipes, for exit-code and stdin-EOF tests. */
export interface RawProcess {
  /** Writes one JSON-RPC message as a line. */
  send(message: unknown): void;
  /** Ends stdin (the client went away). */
  endStdin(): void;
  /** Resolves with the first message on stdout whose `id` is `id`. */
  response(id: number): Promise<Record<string, unknown>>;
  readonly exited: Promise<ProcessResult>;
}

/** Spawns `external-context <args>` with raw pipes; stdin stays open until `endStdin()`. */
export function spawnRaw(launcher: Launcher, args: readonly string[], env: Record<string, string>, cwd: string): RawProcess {
  const child = spawn(launcher.command, [...launcher.args, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const wake of [...waiters]) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const guard = setTimeout(() => child.kill('SIGKILL'), 30000);
  const exited = new Promise<ProcessResult>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(guard);
      for (const wake of [...waiters]) wake();
      resolve({ code, signal, stdout, stderr });
    });
  });
  const find = (id: number): Record<string, unknown> | undefined =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((message) => message.id === id);
  return {
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    endStdin: () => child.stdin.end(),
    exited,
    response(id) {
      const found = find(id);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const message = find(id);
          if (message !== undefined) {
            waiters.delete(check);
            resolve(message);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`The process exited without answering request ${id}.`));
          }
        };
        waiters.add(check);
      });
    },
  };
}

/** The initialize request and initialized notification a client opens with. */
export const HANDSHAKE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
] as const;
