// The managed launcher with the real Qwen Code 0.24.4 client (examples.md §8.5, qwen-client.md
// §13): the compiled executable runs `launch --profile` with profiles built from the shipped
// examples; `qwen mcp list` shows the server Connected (the executable; a missing
// configuration Disconnected), and one full turn with qwenArgs
// `-p … -o json` and the fake model's variables in passEnv returns the envelope. Without the
// fixture: the build outputs (executable, bundle under Node.js) return the child's exit code
// and forward SIGTERM.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { NOTICE } from '../../src/contract/envelope.ts';
import { readExample, substitute } from '../contracts/examples-files.ts';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { messageText, startOpenAiModelFake, type OpenAiModelFake } from '../fakes/openai-model.ts';
import { createLaunchFixture, findNode, parseChildReport } from '../launch/launch-fixture.ts';
import { bundlePath, requireBuilt } from '../support/paths.ts';
import { proves } from '../support/runtime-capabilities.ts';
import { cleanEnv } from '../support/env.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { runProcess, type ProcessResult } from '../support/run-process.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { agentNodeEnv } from './agent-node.ts';
import {
  managedMcpConfig,
  managedSystemSettings,
  mcpListStatus,
  newQwenSession,
  parseJsonRun,
  QWEN_BIN,
  QWEN_RUN_TIMEOUT_MS,
  QWEN_SINGLE_PROCESS,
  QWEN_TEST_TIMEOUT_MS,
  qwenTier,
  requireExecutable,
  type QwenSession,
} from './qwen-harness.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const tier = qwenTier();
registerFixtureGate(tier);

const TOKEN = 'launch-e2e-provider-token';
const SEARCH_TOOL = 'mcp__external-context__context_search';
const ITEM = { id: 'policy-1', content: 'Use the reviewed deployment workflow.' };
const ENVELOPE_TEXT = JSON.stringify({ untrusted_external_context: { notice: NOTICE, items: [ITEM] } });

describe.skipIf(!tier.installed)('external-context launch with Qwen Code', () => {
  let exe: string;
  let generic: GenericHttpFake;
  let model: OpenAiModelFake;
  let session: QwenSession;

  beforeAll(async () => {
    exe = requireExecutable();
    generic = await startGenericHttpFake({ token: TOKEN, items: [ITEM] });
    model = await startOpenAiModelFake();
  });
  afterAll(async () => {
    await Promise.all([generic.close(), model.close()]);
    await removeTempDirs();
  });
  beforeEach(async () => {
    session = await newQwenSession();
    generic.reset();
    model.reset();
  });

  /**
   * The shipped search profile with the session's paths: Qwen from the fixture, the workspace as
   * repository, QWEN_HOME, the agent Node.js (PATH, compile cache) and QWEN_SINGLE_PROCESS added
   * to the fixed `env`.
   */
  function searchProfile(overrides: Record<string, unknown>): string {
    const config = session.writeJson('search.json', substitute(readExample('generic-http.json'), { 'https://context.example.com': generic.origin }));
    const mcpConfig = session.writeJson('managed-search-mcp.json', managedMcpConfig('managed-search-mcp.json', { executable: exe, config }));
    const profile = substitute(readExample('launch-profile-search.json'), {
      '/usr/local/bin/qwen': QWEN_BIN,
      '/absolute/path/to/repository': session.work,
      '/etc/external-context/managed-search-mcp.json': mcpConfig,
    }) as Record<string, unknown>;
    const env = { ...(profile['env'] as Record<string, string>), ...agentNodeEnv(), QWEN_HOME: session.home, ...QWEN_SINGLE_PROCESS };
    return session.writeJson('launch-profile.json', { ...profile, env, ...overrides });
  }

  /** Runs the compiled launcher; the launcher's own environment carries extras Qwen must not see. */
  function launch(profile: string, extra: Record<string, string> = {}): Promise<ProcessResult> {
    const env = cleanEnv({
      HOME: session.home,
      CONTEXT_API_TOKEN: TOKEN,
      QWEN_CODE_SYSTEM_SETTINGS_PATH: '/tmp/not-the-managed-settings.json',
      QWEN_EXTERNAL_CONTEXT_CONFIG: '/tmp/not-the-managed-config.json',
      ...extra,
    });
    return runProcess(exe, ['launch', '--profile', profile], { env, cwd: session.dir, timeoutMs: QWEN_RUN_TIMEOUT_MS });
  }

  test(
    'qwen mcp list through the launcher shows external-context Connected for the executable',
    async () => {
      // `qwen mcp list` accepts no --mcp-config, so this profile pins the servers in the system
      // settings. The one `qwen mcp list` run of the Qwen Code tier (moved here from
      // qwen-code.tier.ts, which ran the same listing without the launcher).
      const config = session.writeJson('search.json', substitute(readExample('generic-http.json'), { 'https://context.example.com': generic.origin }));
      const systemSettings = session.writeJson(
        'system-settings.json',
        managedSystemSettings(
          'managed-search-system-settings.json',
          { executable: exe },
          {
            mcpServers: {
              'external-context': { command: exe, args: ['serve', '--config', config] },
              // Control: the same executable with a configuration that does not exist.
              'external-context-broken': { command: exe, args: ['serve', '--config', join(session.dir, 'missing.json')] },
            },
          },
        ),
      );
      const profile = searchProfile({ mcpConfig: undefined, systemSettings, qwenArgs: ['mcp', 'list'] });
      const result = await launch(profile);
      expect(mcpListStatus(result.stdout, 'external-context')).toBe('Connected');
      expect(mcpListStatus(result.stdout, 'external-context-broken')).toBe('Disconnected');
      expect(result.code).toBe(0);
      expect(generic.requests).toHaveLength(0);
    },
    QWEN_TEST_TIMEOUT_MS,
  );

  test(
    'one full turn through the launcher returns the envelope, in the repository, with the managed files',
    async () => {
      const systemSettings = session.writeJson(
        'managed-search-system-settings.json',
        managedSystemSettings('managed-search-system-settings.json', { executable: exe }, { security: { auth: { selectedType: 'openai' } } }),
      );
      const prompt = `CALL ${SEARCH_TOOL} {"query":"deployment policy"}`;
      const base = JSON.parse(await Bun.file(searchProfile({})).text()) as { passEnv: string[] };
      const profile = searchProfile({
        systemSettings,
        qwenArgs: ['-p', prompt, '-o', 'json'],
        passEnv: [...base.passEnv, 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'],
      });
      const result = await launch(profile, { OPENAI_API_KEY: 'dummy', OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: 'fake' });
      expect(result.code).toBe(0);
      const run = parseJsonRun(result.stdout);
      expect(run.init['cwd']).toBe(session.work);
      expect(run.init.mcp_servers).toEqual([{ name: 'external-context', status: 'connected' }]);
      expect(generic.requests).toHaveLength(1);
      const tool = model
        .chatRequests()
        .at(-1)
        ?.messages.find((message) => message.role === 'tool');
      expect(tool === undefined ? undefined : messageText(tool)).toBe(ENVELOPE_TEXT);
      expect(run.result.result.startsWith('FINAL: tool said ')).toBe(true);
    },
    QWEN_TEST_TIMEOUT_MS,
  );

  test('launch refuses a caller argument after -- with exit 2 and starts no Qwen Code', async () => {
    const profile = searchProfile({ qwenArgs: ['mcp', 'list'] });
    const result = await runProcess(exe, ['launch', '--profile', profile, '--', '--yolo'], { env: cleanEnv(), timeoutMs: LIVENESS_MS });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('[external-context] The end-of-options marker "--" is not accepted. Run "external-context launch --help".\n');
  });
});

// The Node.js bundle's stdio server is test/bundle/bundle-smoke.ts's (stdin-stdout), so the Qwen
// Code listing above starts the executable only.
const LAUNCH_CHILD = proves('launch-child', ['executable', 'node-bundle']);

describe(`external-context launch from the build outputs ${LAUNCH_CHILD('executable')} ${LAUNCH_CHILD('node-bundle')}`, () => {
  afterAll(removeTempDirs);

  const outputs = (): [string, string, string[]][] => {
    const bundle = requireBuilt(bundlePath());
    return [
      ['the executable', requireExecutable(), []],
      ['the bundle under Node.js', findNode(), [bundle]],
    ];
  };

  test('launch returns the child exit code and runs it in the repository with only the allow-listed environment', async () => {
    const fx = await createLaunchFixture();
    const profile = fx.write('exit7.json', fx.profile('exit:7', { env: { FIXED: '1' }, credentialEnv: ['CONTEXT_API_TOKEN'] }));
    for (const [, command, prefix] of outputs()) {
      const result = await runProcess(command, [...prefix, 'launch', '--profile', profile], { env: cleanEnv({ CONTEXT_API_TOKEN: TOKEN, OTHER: 'x' }) });
      const report = parseChildReport(result.stdout);
      expect(report.cwd).toBe(fx.repository);
      expect(report.env).toEqual({ FIXED: '1', CONTEXT_API_TOKEN: TOKEN, QWEN_CODE_SYSTEM_SETTINGS_PATH: fx.systemSettings });
      expect(result.code).toBe(7);
    }
  });

  test('launch forwards SIGTERM and exits 143', async () => {
    const fx = await createLaunchFixture();
    const profile = fx.write('wait.json', fx.profile('wait'));
    for (const [, command, prefix] of outputs()) {
      const child = spawn(command, [...prefix, 'launch', '--profile', profile], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (stdout.includes('\nready\n')) resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(() => process.kill(parseChildReport(stdout).pid, 0)).toThrow();
    }
  });
});
