// `npm run demo` (docs/design/README.md, "Build, test, demo", steps 1–7): builds the host executable,
// indexes README.md and contracts/ with `corpus index`, serves them with `corpus serve` on
// loopback, and drives `serve` over stdio with the SDK Client for three README headings.
// Everything it starts or writes is removed again, also on failure or Ctrl-C.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildArtifacts } from './build.ts';
import { DIST_DIR, HOST_EXECUTABLE_NAME, ROOT_DIR } from './targets.ts';

/** Three headings of README.md, asked in this order. */
const DEMO_QUERIES: readonly string[] = ['Build outputs', 'Configuration', 'Layout'];

/** The variable the demo configuration names as `tokenEnv`; its value is generated per run. */
const TOKEN_ENV = 'DEMO_CONTEXT_TOKEN';

/** How long `corpus serve` may take to print its base URL, in ms (a hang guard). */
const SERVICE_START_TIMEOUT_MS = 15_000;

/** How long a stopped child may take to exit after SIGTERM before SIGKILL, in ms. */
const STOP_GRACE_MS = 5_000;

/** A demo step that failed; the message is printed as `[demo] <message>`. */
class DemoFailure extends Error {
  override readonly name = 'DemoFailure';
}

/** Undo actions, run last-in first-out exactly once. */
class Cleanup {
  private readonly actions: (() => Promise<void> | void)[] = [];
  private done: Promise<void> | undefined;

  add(action: () => Promise<void> | void): void {
    this.actions.push(action);
  }

  run(): Promise<void> {
    this.done ??= (async () => {
      for (const action of this.actions.reverse()) {
        try {
          await action();
        } catch {
          // Keep undoing the rest; a failed undo must not hide the others.
        }
      }
    })();
    return this.done;
  }
}

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup.run().then(() => process.exit(signal === 'SIGINT' ? 130 : 143)));
  }
  try {
    await runDemo(cleanup);
    heading('7. Clean up');
    await cleanup.run();
    console.log('   stopped both servers and removed the temporary directory');
    return 0;
  } catch (error) {
    console.error(`[demo] ${error instanceof DemoFailure ? error.message : 'The demo failed unexpectedly.'}`);
    if (!(error instanceof DemoFailure)) console.error(error);
    return 1;
  } finally {
    await cleanup.run();
  }
}

async function runDemo(cleanup: Cleanup): Promise<void> {
  heading('1. Build the host executable');
  await buildArtifacts({ all: false, ifStale: true, log: (line) => console.log(`   ${line}`) });
  const exe = path.join(DIST_DIR, HOST_EXECUTABLE_NAME);

  const workDir = mkdtempSync(path.join(tmpdir(), 'external-context-demo-'));
  cleanup.add(() => rmSync(workDir, { recursive: true, force: true }));

  heading('2. Index README.md and contracts/ with `corpus index`');
  const db = path.join(workDir, 'corpus.sqlite');
  await runToEnd(exe, ['corpus', 'index', 'README.md', 'contracts/', '--out', db], ROOT_DIR);

  heading('3. Serve the index with `corpus serve` on 127.0.0.1 and a generated token');
  const token = randomBytes(32).toString('hex');
  const service = spawn(exe, ['corpus', 'serve', '--db', db, '--token-env', TOKEN_ENV, '--listen', '127.0.0.1:0'], {
    cwd: workDir,
    env: { [TOKEN_ENV]: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanup.add(() => stop(service));
  const baseUrl = await firstLine(service, SERVICE_START_TIMEOUT_MS);
  console.log(`   listening on ${baseUrl}`);

  heading('4. Write a temporary version 1 Generic HTTP configuration');
  const config = path.join(workDir, 'external-context.json');
  const configuration = { version: 1, provider: { type: 'generic-http-search-v1', baseUrl, tokenEnv: TOKEN_ENV } };
  writeFileSync(config, `${JSON.stringify(configuration, null, 2)}\n`);
  console.log(JSON.stringify(configuration, null, 2).replace(/^/gm, '   '));

  heading('5. Start `external-context serve` over stdio with the MCP SDK Client');
  const transport = new StdioClientTransport({ command: exe, args: ['serve', '--config', config], env: { [TOKEN_ENV]: token }, cwd: workDir });
  const client = new Client({ name: 'external-context-demo', version: '0.0.0' });
  cleanup.add(() => client.close());
  await client.connect(transport);
  const { tools } = await client.listTools();
  console.log(`   server ${client.getServerVersion()?.name ?? '?'} ${client.getServerVersion()?.version ?? '?'}, tools: ${tools.map((tool) => tool.name).join(', ')}`);

  heading('6. Search for three README headings');
  for (const query of DEMO_QUERIES) {
    const result = await client.callTool({ name: 'context_search', arguments: { query } });
    console.log(`\n   context_search ${JSON.stringify({ query })}`);
    if (result.isError === true) throw new DemoFailure(`context_search failed for the query ${JSON.stringify(query)}.`);
    console.log(JSON.stringify(result.structuredContent, null, 2));
  }
}

function heading(text: string): void {
  console.log(`\n== ${text}`);
}

/** Runs a command to completion with stdio passed through; rejects unless it exits 0. */
function runToEnd(command: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd, env: {}, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', () => reject(new DemoFailure(`${path.basename(command)} ${args[0] ?? ''} could not be started.`)));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new DemoFailure(`${path.basename(command)} ${args.slice(0, 2).join(' ')} exited with code ${code}.`))));
  });
}

/** Resolves with the first stdout line of a child; rejects if it exits first or takes too long. */
function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (child.stdout === null) return reject(new DemoFailure('corpus serve has no stdout.'));
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new DemoFailure(`corpus serve printed no address within ${timeoutMs} ms.`)), timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new DemoFailure(`corpus serve exited with code ${code} before listening.`));
    });
  });
}

/** Sends SIGTERM (the service then finishes requests and exits 0), then SIGKILL after a grace period. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

process.exit(await main());
