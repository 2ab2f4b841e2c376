// The compiled executable keeps dispatch's import() lazy (issue 10): an executable built by
// build/compile.ts, with the product's options (code splitting, bytecode, JIT policy) and a
// stderr marker in the MCP SDK's server, client and type modules, shows that --help,
// --version, both Hooks (auto-recall with a real loopback search) and check never evaluate
// the SDK, and that serve does. test/bundle/lazy-loading.test.ts checks the same on the bundle.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { compileExecutable } from '../../build/compile.ts';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { writeConfigFile } from '../support/config-file.ts';
import { cleanEnv } from '../support/env.ts';
import { runProcess } from '../support/run-process.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const MARKER = 'EC-TEST-MCP-SDK-EVALUATED';
/** Written when src/cli/parse-flags.ts (and with it node:util) is evaluated. */
const FLAGS_MARKER = 'EC-TEST-PARSE-FLAGS-EVALUATED';
const TOKEN = 'lazy-exe-token';
const ENV = cleanEnv({ EC_LAZY_TOKEN: TOKEN });
const COMPILE_TIMEOUT_MS = LIVENESS_MS;

/** Prepends a stderr marker to the SDK's server, client and type modules. */
const sdkMarker: Bun.BunPlugin = {
  name: 'mcp-sdk-marker',
  setup(build) {
    build.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]((server|client)[\\/]index|types)\.js$/ }, async (args) => ({
      contents: `process.stderr.write(${JSON.stringify(`${MARKER}\n`)});\n${await Bun.file(args.path).text()}`,
      loader: 'js',
    }));
    build.onLoad({ filter: /src[\\/]cli[\\/]parse-flags\.ts$/ }, async (args) => ({
      contents: `process.stderr.write(${JSON.stringify(`${FLAGS_MARKER}\n`)});\n${await Bun.file(args.path).text()}`,
      loader: 'ts',
    }));
  },
};

describe('compiled executable lazy loading', () => {
  let exe: string;
  let fake: GenericHttpFake;
  let root: string;
  let v1: string;
  let v2: string;

  beforeAll(async () => {
    const dir = await makeTempDir('ec-lazy-exe-');
    root = dir.path;
    exe = path.join(root, process.platform === 'win32' ? 'marked.exe' : 'marked');
    await compileExecutable({ outfile: exe, commit: undefined, plugins: [sdkMarker] });
    fake = await startGenericHttpFake({ token: TOKEN, items: [{ id: 'doc-1', content: 'Deploys need two approvals.' }] });
    const provider = { type: 'generic-http-search-v1', baseUrl: fake.origin, tokenEnv: 'EC_LAZY_TOKEN' };
    v1 = await writeConfigFile({ version: 1, provider }, { dir: root, name: 'v1.json' });
    v2 = await writeConfigFile({ version: 2, provider, autoRecall: { repositoryRoot: root } }, { dir: root, name: 'v2.json' });
  }, COMPILE_TIMEOUT_MS);
  afterAll(async () => {
    await fake?.close();
    await removeTempDirs();
  });

  const run = (args: readonly string[], stdin = '') => runProcess(exe, args, { env: ENV, stdin });

  test('--help and --version never evaluate the MCP SDK', async () => {
    for (const args of [['--help'], ['--version']]) {
      const result = await run(args);
      expect({ args, code: result.code, marked: result.stderr.includes(MARKER) }).toEqual({ args, code: 0, marked: false });
    }
  });

  test('the auto-recall Hook answers one real search without evaluating the MCP SDK', async () => {
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', submitted_prompt: 'deployment approvals', cwd: root });
    const result = await run(['hook', 'auto-recall', '--config', v2], prompt);
    expect(result.stdout).toStartWith('{"hookSpecificOutput"');
    expect(result.stdout).toContain('Deploys need two approvals.');
    expect(result.stderr).toBe('');
  });

  test('the write-confirmation Hook and check (with and without --search) never evaluate the MCP SDK', async () => {
    const results = [await run(['hook', 'write-confirmation'], '{}'), await run(['check', '--config', v1]), await run(['check', '--config', v1, '--search', 'deployment'])];
    expect(results.map((result) => ({ code: result.code, marked: result.stderr.includes(MARKER) }))).toEqual([
      { code: 0, marked: false },
      { code: 0, marked: false },
      { code: 0, marked: false },
    ]);
  });

  test('serve evaluates the MCP SDK (the marker works)', async () => {
    const result = await run(['serve', '--config', v1]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(MARKER);
  });

  test('serve with only --config never evaluates the flag parser (node:util); another argument does', async () => {
    const plain = await run(['serve', '--config', v1]);
    const extra = await run(['serve', '--config', v1, '--bogus']);
    expect({ code: plain.code, marked: plain.stderr.includes(FLAGS_MARKER) }).toEqual({ code: 0, marked: false });
    expect({ code: extra.code, marked: extra.stderr.includes(FLAGS_MARKER) }).toEqual({ code: 2, marked: true });
  });
});
