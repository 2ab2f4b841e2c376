// A temporary launch set-up for launcher tests: a repository directory, system settings and
// MCP files, a Node.js child script that reports what it sees, and launch-profile writers.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { existsSync } from 'node:fs';
import { makeTempDir } from '../support/temp-dir.ts';

/**
 * The child: prints one JSON line `{pid, cwd, argv, env}` on stdout, then acts on its first
 * argument: `exit:<n>` exits with n; `wait` prints `ready` and waits for a signal (Node's
 * default action, so a SIGTERM ends it by signal).
 */
const CHILD_SOURCE = `
process.stdout.write(JSON.stringify({ pid: process.pid, cwd: process.cwd(), argv: process.argv.slice(2), env: process.env }) + '\\n');
const action = process.argv[2] ?? 'exit:0';
if (action === 'wait') {
  process.stdout.write('ready\\n');
  setInterval(() => undefined, 1000);
} else {
  process.exitCode = Number(action.slice('exit:'.length));
}
`;

/** What the child printed. */
export interface ChildReport {
  readonly pid: number;
  readonly cwd: string;
  readonly argv: string[];
  readonly env: Record<string, string>;
}

/** A temporary launch set-up. */
export interface LaunchFixture {
  readonly dir: string;
  /** Canonical repository directory. */
  readonly repository: string;
  readonly systemSettings: string;
  readonly mcpConfig: string;
  /** Absolute path of Node.js (the child's executable). */
  readonly node: string;
  /** The child script (pass it as the first qwenArgs entry). */
  readonly childScript: string;
  /** A valid profile object running the child with `action`; `extra` fields override. */
  profile(action?: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Writes a file (JSON for non-strings) and returns its path; `mode` applied with chmod. */
  write(name: string, content: unknown, mode?: number): string;
  /** Creates a directory and returns its path. */
  mkdir(name: string): string;
}

/** Absolute path of `node` on PATH. */
export function findNode(): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('node is not on PATH; the launcher tests run Node.js as the child.');
}

/** Parses the child's first stdout line. */
export function parseChildReport(stdout: string): ChildReport {
  return JSON.parse(stdout.split('\n')[0] ?? '') as ChildReport;
}

/** Creates a fresh set-up under a temporary directory (removed by `removeTempDirs()`). */
export async function createLaunchFixture(): Promise<LaunchFixture> {
  const { path: dir } = await makeTempDir('ec-launch-');
  const write = (name: string, content: unknown, mode?: number): string => {
    const file = join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
    if (mode !== undefined) chmodSync(file, mode);
    return file;
  };
  const mkdir = (name: string): string => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const repository = mkdir('repository');
  const systemSettings = write('system-settings.json', {});
  const mcpConfig = write('mcp.json', { mcpServers: {} });
  const childScript = write('child.cjs', CHILD_SOURCE);
  const node = findNode();
  return {
    dir,
    repository,
    systemSettings,
    mcpConfig,
    node,
    childScript,
    write,
    mkdir,
    profile: (action = 'exit:0', extra = {}) => ({
      version: 1,
      qwenExecutable: node,
      repository,
      systemSettings,
      qwenArgs: [childScript, action],
      ...extra,
    }),
  };
}
