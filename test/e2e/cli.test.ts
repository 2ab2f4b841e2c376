// The compiled executable's command-line contract (spec README, "Product shape" and "Commands,
// exit codes and runtimes"): --version with the embedded commit, --help listing every command,
// the unknown-command line, and a copy that runs from an empty directory with an empty
// environment, no node_modules and no source tree, and ignores a workspace `.env`. The
// unknown-command texts past one executable row run through the dispatcher's run() in this
// process: the executable's own code, without a spawn per text (issue 26 §3).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { readBuildCommit } from '../../build/commit.ts';
import { COMMAND_NAMES, packageVersion, unknownCommandLine } from '../bundle/bundle-runtimes.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { cleanEnv } from '../support/env.ts';
import { exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { runInMemory } from '../support/memory-io.ts';
import { run as dispatch } from '../../src/cli/dispatch.ts';

const NO_CONFIG_LINE = '[external-context] No configuration: pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG.\n';

function requireExecutable(): string {
  const exe = requireBuilt(exePath());
  return exe;
}

const runExe = (args: readonly string[], options: { env?: Record<string, string>; cwd?: string } = {}) =>
  runProcess(requireExecutable(), args, { env: options.env ?? cleanEnv(), ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });

afterAll(removeTempDirs);

describe('dist/external-context --version', () => {
  test('prints the version and the 12-hex-digit commit of the checkout it was built in', async () => {
    const result = await runExe(['--version']);
    const commit = readBuildCommit(REPO_ROOT) === undefined ? 'unknown' : '[0-9a-f]{12}';
    expect(result.stdout).toMatch(new RegExp(`^external-context ${packageVersion().replaceAll('.', '\\.')} \\(commit ${commit}\\)\\n$`));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  test('a run from source prints (commit unknown)', async () => {
    const result = await runProcess(process.execPath, [path.join(REPO_ROOT, 'src', 'main.ts'), '--version']);
    expect(result.stdout).toBe(`external-context ${packageVersion()} (commit unknown)\n`);
    expect(result.code).toBe(0);
  });
});

describe('dist/external-context --help', () => {
  test('--help and -h print the same usage listing every command, and exit 0', async () => {
    const long = await runExe(['--help']);
    const short = await runExe(['-h']);
    expect(long.code).toBe(0);
    expect(long.stderr).toBe('');
    expect(short.stdout).toBe(long.stdout);
    const [versionLine] = (await runExe(['--version'])).stdout.split('\n');
    expect(long.stdout.startsWith(`${versionLine}\n`)).toBe(true);
    for (const name of COMMAND_NAMES) expect(long.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  test.each([...COMMAND_NAMES])('%s --help prints its usage on stdout and exits 0', async (name) => {
    const result = await runExe([name, '--help']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^external-context \S+ \(commit [0-9a-z]+\)\n/);
    expect(result.stdout).toContain('USAGE');
    expect(result.code).toBe(0);
  });
});

describe('dist/external-context with an unknown command', () => {
  const cases: readonly (readonly [readonly string[], string])[] = [
    [['no-such-command'], unknownCommandLine('no-such-command')],
    [['--no-such-flag'], unknownCommandLine('--no-such-flag')],
    [['--version', 'extra'], unknownCommandLine('--version extra')],
    [['Serve'], unknownCommandLine('Serve', 'serve')],
    [['chek'], unknownCommandLine('chek', 'check')],
    [['gatway'], unknownCommandLine('gatway', 'gateway')],
    [['halp'], unknownCommandLine('halp', 'help')],
    [['bad\u001b[31m"name'], unknownCommandLine('bad\\u001b[31m\\u0022name')],
    [['ev\u202eli\u200bx\\'], unknownCommandLine('ev\\u202eli\\u200bx\\u005c')],
    [['x'.repeat(60)], unknownCommandLine(`${'x'.repeat(40)}…`)],
    [['help', 'chek'], unknownCommandLine('chek', 'check')],
  ];
  test('the executable prints the one unknown-command line and exits 2', async () => {
    const [args, stderr] = cases[0]!;
    const result = await runExe(args);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 2, stdout: '', stderr });
  });

  for (const [args, stderr] of cases) {
    test(`\`${args.join(' ')}\` prints the one unknown-command line, echoing it with the closest command, and exits 2`, async () => {
      const result = await runInMemory(dispatch, args, { env: cleanEnv() });
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(stderr);
      expect(result.code).toBe(2);
    });
  }

  test('`help` and `version` are aliases of --help and --version; `help <command>` is `<command> --help`', async () => {
    const [help, flagHelp, version, flagVersion, checkHelp, flagCheckHelp] = await Promise.all([
      runExe(['help']),
      runExe(['--help']),
      runExe(['version']),
      runExe(['--version']),
      runExe(['help', 'check']),
      runExe(['check', '--help']),
    ]);
    expect(help).toEqual(flagHelp);
    expect(version).toEqual(flagVersion);
    expect(checkHelp).toEqual(flagCheckHelp);
    expect([help.code, version.code, checkHelp.code]).toEqual([0, 0, 0]);
  });
});

describe('a copy of dist/external-context outside the repository', () => {
  const TOKEN_ENV = 'EC_E2E_TOKEN';
  const TOKEN = 'ec-e2e-token-3Rk9Lm';
  let exe: string;
  let workDir: string;
  let fake: GenericHttpFake;

  beforeAll(async () => {
    // Its own directory: no node_modules, no package.json, no src/ anywhere above it.
    const dir = await makeTempDir('ec-exe-copy-');
    exe = path.join(dir.path, path.basename(requireExecutable()));
    copyFileSync(requireExecutable(), exe);
    workDir = (await makeTempDir('ec-exe-cwd-')).path;
    fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'e2e-1', content: 'Copied executables still answer.' }] });
  });
  afterAll(async () => {
    await fake.close();
  });

  test('runs --version and --help with an empty environment and cwd /', async () => {
    const version = await runProcess(exe, ['--version'], { env: {}, cwd: '/' });
    expect(version.stdout).toMatch(/^external-context \S+ \(commit [0-9a-z]+\)\n$/);
    expect(version.code).toBe(0);
    const help = await runProcess(exe, ['--help'], { env: {}, cwd: '/' });
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
  });

  test('serve with no configuration exits 1 with the one configuration line', async () => {
    const result = await runProcess(exe, ['serve'], { env: {}, cwd: '/' });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(NO_CONFIG_LINE);
    expect(result.code).toBe(1);
  });

  test('does not load a .env file from its working directory', async () => {
    const config = path.join(workDir, 'config.json');
    writeFileSync(config, JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } }));
    writeFileSync(path.join(workDir, '.env'), `QWEN_EXTERNAL_CONTEXT_CONFIG=${config}\n${TOKEN_ENV}=${TOKEN}\n`);
    const result = await runProcess(exe, ['serve'], { env: {}, cwd: workDir });
    expect(result.stderr).toBe(NO_CONFIG_LINE);
    expect(result.code).toBe(1);
  });

  test('serves context_search over stdio with only the credential in its environment', async () => {
    const config = path.join(workDir, 'serve.json');
    writeFileSync(config, JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: TOKEN_ENV } }));
    const child = spawn(exe, ['serve', '--config', config], { env: { [TOKEN_ENV]: TOKEN }, cwd: '/', stdio: 'pipe' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const responses = new Map<number, (message: Record<string, unknown>) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message['id'] === 'number') responses.get(message['id'])?.(message);
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve) => {
        responses.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      const init = await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } });
      expect(init['result']).toBeDefined();
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const list = (await request(2, 'tools/list', {}))['result'] as { tools: { name: string }[] };
      expect(list.tools.map((tool) => tool.name)).toEqual(['context_search']);
      const call = (await request(3, 'tools/call', { name: 'context_search', arguments: { query: 'copied executable' } }))['result'] as {
        structuredContent: { untrusted_external_context: { items: { id: string }[] } };
      };
      expect(call.structuredContent.untrusted_external_context.items.map((item) => item.id)).toEqual(['e2e-1']);
    } finally {
      child.stdin.end();
    }
    expect(await exited).toBe(0);
  });
});
