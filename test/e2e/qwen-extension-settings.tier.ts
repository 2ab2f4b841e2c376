// Qwen Code 0.24.4 extension settings as a credential path (qwen-client.md §13, issue 7): a
// sensitive extension setting is stored but never reaches the stdio MCP child; this file
// records that observed outcome, with the launcher-exported variable as the control.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startGenericHttpFake, type GenericHttpFake } from '../fakes/generic-http.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { ITEM } from './qwen-code-services.ts';
import { mcpListStatus, newQwenSession, QWEN_BIN, QWEN_TEST_TIMEOUT_MS, qwenEnv, qwenTier, requireExecutable, runQwen, type QwenSession } from './qwen-harness.ts';

const tier = qwenTier();
registerFixtureGate(tier);

const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const SETTING_VARIABLE = 'EC_PROBE_CONTEXT_TOKEN';
const SETTING_VALUE = 'e2e-extension-setting-token';

/** `'…'` for sh (script -c runs the command through the shell). */
const shellWord = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Runs `qwen extensions install <dir> --consent` under a pseudo-terminal (`script -qc`), typing
 * `value` and Enter when the settings prompt appears.
 */
function installWithSettingPrompt(session: QwenSession, extensionDir: string, promptText: string, value: string): Promise<{ code: number | null; output: string }> {
  const command = [QWEN_BIN, 'extensions', 'install', extensionDir, '--consent'].map(shellWord).join(' ');
  const child = spawn('script', ['-qc', command, '/dev/null'], { cwd: session.work, env: qwenEnv(session, { TERM: 'xterm' }), stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = false;
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    if (!answered && output.includes(promptText)) {
      answered = true;
      child.stdin.write(`${value}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, output });
    });
  });
}

describe.skipIf(!tier.installed)('Qwen Code extension settings as a credential path', () => {
  let exe: string;
  let generic: GenericHttpFake;

  beforeAll(async () => {
    exe = requireExecutable();
    generic = await startGenericHttpFake({ token: SETTING_VALUE, items: [ITEM] });
  });
  afterAll(async () => {
    await generic.close();
    await removeTempDirs();
  });

  const name =
    'observed with 0.24.4: a sensitive extension setting is stored but never reaches the stdio MCP child, so serve stops (Disconnected); the same variable exported by the launcher connects';
  test.skipIf(!HAS_SCRIPT)(
    HAS_SCRIPT ? name : `${name} (skipped: script from util-linux is not installed)`,
    async () => {
      const session = await newQwenSession();
      const config = session.writeJson('config.json', {
        version: 1,
        timeoutMs: 5000,
        provider: { type: 'generic-http-search-v1', baseUrl: generic.origin, tokenEnv: SETTING_VARIABLE },
      });
      const extensionDir = join(session.dir, 'extension');
      mkdirSync(extensionDir);
      writeFileSync(
        join(extensionDir, 'qwen-extension.json'),
        JSON.stringify({
          name: 'ec-settings-probe',
          version: '1.0.0',
          mcpServers: { 'ec-settings-probe': { command: exe, args: ['serve', '--config', config], includeTools: ['context_search'] } },
          settings: [{ name: 'Context token', description: 'Synthetic secret for the credential-path test', envVar: SETTING_VARIABLE, sensitive: true }],
        }),
      );
      const install = await installWithSettingPrompt(session, extensionDir, 'Synthetic secret for the credential-path test', SETTING_VALUE);
      expect(install.output).toContain('Extension "ec-settings-probe" installed successfully and enabled.');
      expect(install.code).toBe(0);
      // Qwen stored the value (sensitive: shown as kept in its secret store, never printed).
      const listed = await runQwen(session, ['extensions', 'settings', 'list', 'ec-settings-probe']);
      expect(listed.stdout).toContain(`Context token (${SETTING_VARIABLE})`);
      expect(listed.stdout).toContain('[value stored in keychain]');
      expect(listed.stdout + listed.stderr).not.toContain(SETTING_VALUE);

      // The outcome this test records: the stored setting does not reach the server's
      // environment, so `serve` fails its credential check and Qwen shows Disconnected.
      const viaSetting = await runQwen(session, ['mcp', 'list']);
      expect(mcpListStatus(viaSetting.stdout, 'ec-settings-probe')).toBe('Disconnected');
      // Control: the same server with the variable in Qwen's own environment connects.
      const viaEnvironment = await runQwen(session, ['mcp', 'list'], { [SETTING_VARIABLE]: SETTING_VALUE });
      expect(mcpListStatus(viaEnvironment.stdout, 'ec-settings-probe')).toBe('Connected');
    },
    QWEN_TEST_TIMEOUT_MS,
  );
});
