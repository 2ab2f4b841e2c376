// Starts a stdio MCP server process and connects the SDK Client to it, capturing stderr and the
// exit status, for e2e tests of the compiled executable and the bundle.
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LIVENESS_MS } from './liveness.ts';

/** How a spawned server ended. */
export interface ServerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A connected server process. */
export interface SpawnedServer {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly pid: number | undefined;
  /** Everything the process wrote to stderr so far, decoded as UTF-8. */
  stderr(): string;
  /** Settles when the process exits. */
  readonly exited: Promise<ServerExit>;
  /**
   * Ends the server's stdin and waits for it to exit on its own (the suite's hang guard, not a
   * timing target), then closes the client. Only a server still running after that gets the
   * SDK's SIGTERM and SIGKILL; the SDK alone would signal after 2 s, which a loaded machine can
   * exceed while a correct server is still exiting.
   */
  close(): Promise<ServerExit>;
}

/** Options of {@link spawnServer}. */
export interface SpawnServerOptions {
  readonly cwd?: string;
  /** Client name sent in `initialize` (default `external-context-tests`). */
  readonly clientName?: string;
}

/**
 * Spawns `command args` and performs the MCP handshake over stdio.
 *
 * The SDK adds HOME, LOGNAME, PATH, SHELL, TERM and USER from the parent to `env`
 * (its default environment); nothing else is inherited, so pass `cleanEnv({...})` or an
 * explicit map.
 *
 * @throws {Error} If the process cannot start or the handshake fails; the message carries the
 *   captured stderr, and the process is stopped.
 */
export async function spawnServer(command: string, args: readonly string[], env: Readonly<Record<string, string>>, options: SpawnServerOptions = {}): Promise<SpawnedServer> {
  const transport = new ExitRecordingTransport({
    command,
    args: [...args],
    env: { ...env },
    stderr: 'pipe',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let captured = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    captured += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  });
  const client = new Client({ name: options.clientName ?? 'external-context-tests', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw new Error(`The MCP server did not complete the handshake. stderr: ${captured}`, { cause: error });
  }
  return {
    client,
    transport,
    pid: transport.pid ?? undefined,
    stderr: () => captured,
    exited: transport.exited,
    async close() {
      transport.endInput();
      let guard: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([transport.exited, new Promise<void>((resolve) => (guard = setTimeout(resolve, EXIT_GUARD_MS)))]);
      clearTimeout(guard);
      await client.close();
      return transport.exited;
    },
  };
}

/** How long `close()` waits for the server to exit after its stdin ends (a hang guard). */
const EXIT_GUARD_MS = LIVENESS_MS;

/** The SDK transport plus the child's exit status, which the SDK does not expose. */
class ExitRecordingTransport extends StdioClientTransport {
  private resolveExit: (exit: ServerExit) => void = () => undefined;
  private child: ChildProcess | undefined;
  readonly exited: Promise<ServerExit> = new Promise((resolve) => (this.resolveExit = resolve));

  /** Ends the child's stdin, as the SDK's close() does first, without its 2 s signal timers. */
  endInput(): void {
    try {
      this.child?.stdin?.end();
    } catch {
      // already closed
    }
  }

  override async start(): Promise<void> {
    await super.start();
    // SDK 1.32.2 keeps the child in the private `_process` field between start() and close().
    const child = (this as unknown as { _process?: ChildProcess })._process;
    this.child = child;
    if (child === undefined) return;
    if (child.exitCode !== null || child.signalCode !== null) {
      this.resolveExit({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once('exit', (code, signal) => this.resolveExit({ code, signal }));
  }
}
