// The official MCP conformance suite (`@modelcontextprotocol/conformance`, a pinned devDependency)
// against the shipped executable's `serve --http` (issue 25 §3; remote.md §1). Every server
// scenario the pinned suite lists is either run here and must pass, or named as not applicable
// with its reason, so a version bump that adds a scenario fails until someone decides. The
// suite's CLI needs Node.js 22 (`fs.globSync`); it runs on the root package's Bun instead.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GenericHttpFake, startGenericHttpFake } from '../fakes/generic-http.ts';
import { CANARY_CREDENTIAL, childEnv, genericConfig, tempDir, writeConfig } from '../mcp/harness.ts';
import { binPath, exePath, REPO_ROOT, requireBuilt } from '../support/paths.ts';
import { runProcess } from '../support/run-process.ts';
import { registerToolGate } from '../support/tool-tier.ts';

// Hang guard for the spawned server and suite runs (not a timing assertion).
setDefaultTimeout(120_000);

const SUITE_DIR = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance');
const SUITE_CLI = join(SUITE_DIR, 'dist', 'index.js');
const PINNED = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@modelcontextprotocol/conformance'];

/** The scenarios that apply to a stateless server with one tool, `context_search`: each must pass. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

/** Every other server scenario of the pinned suite, with why it does not apply. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level': 'the server declares no logging capability; logging/setLevel is method-not-found by design',
  'completion-complete': 'the server declares no completions capability (no prompts or resource templates to complete)',
  'tools-call-simple-text': "calls the suite's own test tool (test_simple_text); the server has one tool, context_search",
  'tools-call-image': "calls the suite's own test tool (test_image_content); context_search returns text and structured content only",
  'tools-call-audio': "calls the suite's own test tool (test_audio_content); context_search returns no audio",
  'tools-call-embedded-resource': "calls the suite's own test tool (test_embedded_resource); the server has no resources",
  'tools-call-mixed-content': "calls the suite's own test tool (test_multiple_content_types)",
  'tools-call-with-logging': "calls the suite's own test tool and expects log notifications; the server sends none",
  'tools-call-error': "calls the suite's own test tool (test_error_handling); context_search's errors are covered by profile-v1 conformance",
  'tools-call-with-progress': "calls the suite's own test tool and expects progress notifications; the server sends none",
  'tools-call-sampling': 'needs server-to-client sampling requests, which a stateless read-only server never sends',
  'tools-call-elicitation': 'needs server-to-client elicitation requests, which the server never sends',
  'json-schema-2020-12': "needs the suite's own json_schema_2020_12_tool; the published contracts are draft-07 (profile-v1.md §8)",
  'elicitation-sep1034-defaults': 'needs server-to-client elicitation requests, which the server never sends',
  'elicitation-sep1330-enums': 'needs server-to-client elicitation requests, which the server never sends',
  'server-sse-polling': 'needs sessions and an SSE stream the server closes for polling; the server is stateless (remote.md §1.8) and answers JSON',
  'server-sse-multiple-streams': 'needs sessions and the GET SSE stream; the server is stateless and answers GET /mcp with 405 (remote.md §1.4)',
  'resources-list': 'the server declares no resources capability',
  'resources-read-text': 'the server declares no resources capability',
  'resources-read-binary': 'the server declares no resources capability',
  'resources-templates-read': 'the server declares no resources capability',
  'resources-subscribe': 'the server declares no resources capability',
  'resources-unsubscribe': 'the server declares no resources capability',
  'prompts-list': 'the server declares no prompts capability',
  'prompts-get-simple': 'the server declares no prompts capability',
  'prompts-get-with-args': 'the server declares no prompts capability',
  'prompts-get-embedded-resource': 'the server declares no prompts capability',
  'prompts-get-with-image': 'the server declares no prompts capability',
};

const tier = {
  name: `official MCP conformance suite ${PINNED ?? '(not pinned)'}`,
  missing: PINNED === undefined ? 'package.json pins no @modelcontextprotocol/conformance' : existsSync(SUITE_CLI) ? undefined : `${SUITE_CLI} is not installed`,
  remedy: 'run npm ci',
};
registerToolGate(tier);

/** One suite run: its exit code and the checks it wrote. */
async function runScenario(url: string, scenario: string, outDir: string): Promise<{ code: number | null; checks: { id: string; status: string; errorMessage?: string }[] }> {
  const dir = join(outDir, scenario);
  const result = await runProcess(binPath('bun'), [SUITE_CLI, 'server', '--url', url, '--scenario', scenario, '--output-dir', dir], { env: childEnv(), timeoutMs: 90_000 });
  const runs = existsSync(dir) ? readdirSync(dir) : [];
  const checksFile = runs.length === 1 ? join(dir, runs[0] as string, 'checks.json') : undefined;
  if (checksFile === undefined || !existsSync(checksFile)) throw new Error(`the suite wrote no checks for ${scenario} (exit ${result.code}): ${result.stdout}${result.stderr}`);
  return { code: result.code, checks: JSON.parse(readFileSync(checksFile, 'utf8')) as { id: string; status: string; errorMessage?: string }[] };
}

describe.skipIf(tier.missing !== undefined)('the official MCP conformance suite against serve --http (dist/external-context)', () => {
  let fake: GenericHttpFake;
  let temp: ReturnType<typeof tempDir>;
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    fake = await startGenericHttpFake({ token: CANARY_CREDENTIAL, items: [{ id: 'a', content: 'conformance' }] });
    temp = tempDir();
    const config = writeConfig(temp.dir, genericConfig(fake));
    server = spawn(requireBuilt(exePath()), ['serve', '--http', '--config', config, '--insecure-no-auth', '--listen', '127.0.0.1:0', '--log-format', 'none'], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      server.once('exit', (code) => reject(new Error(`serve --http exited ${code} before printing its URL`)));
    });
  });
  afterAll(async () => {
    server.kill('SIGTERM');
    await fake.close();
    temp.cleanup();
  });

  test('the pinned suite lists exactly the scenarios named here, applicable or not', async () => {
    const listed = await runProcess(binPath('bun'), [SUITE_CLI, 'list', '--server'], { env: childEnv() });
    expect(listed.code).toBe(0);
    const scenarios = [...listed.stdout.matchAll(/^\s+- (\S+)/gmu)].map((match) => match[1] as string).sort();
    expect(scenarios).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
    expect(JSON.parse(readFileSync(join(SUITE_DIR, 'package.json'), 'utf8')).version).toBe(PINNED);
  });

  for (const scenario of APPLICABLE) {
    test(`scenario ${scenario} passes: every check SUCCESS or INFO, at least one SUCCESS`, async () => {
      const { code, checks } = await runScenario(url, scenario, temp.dir);
      const failed = checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO');
      expect({ scenario, failed }).toEqual({ scenario, failed: [] });
      expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
      expect(code).toBe(0);
    });
  }
});
