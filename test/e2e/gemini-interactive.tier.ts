// Gemini CLI 0.61.0 interactive, on a terminal (hooks.md §6.2 row 6a; issue 29 item 2): the other
// half of the headless `--yolo` rows. Started through util-linux `script` so that Gemini CLI's
// stdin and stdout are a pseudo-terminal, with `--yolo -i <prompt>` (an interactive session
// with a first prompt), the shipped write settings as user settings with `--log` added to the
// Hook, and the folder trusted in trustedFolders.json. The BeforeTool Hook sees an interactive
// session and asks: its log says `ask`, Gemini CLI shows the confirmation with the exact content,
// and nothing is written. The run is ended once the log line is there (an event, polled under a
// minutes-long liveness guard), since no one answers the dialog.
import { describe, expect, test } from 'bun:test';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { startGeminiModelFake } from '../fakes/gemini-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, agentBin, agentTier, exampleWithPaths, GEMINI_SINGLE_PROCESS, newAgentSession, useAgentTierServices } from './agents-harness.ts';

const FIXTURE = AGENT_FIXTURES.gemini;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);
const scriptMissing = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0 ? undefined : 'util-linux script (a pseudo-terminal for the interactive row) is not installed';
registerToolGate({ name: 'Gemini CLI interactive on a terminal', missing: scriptMissing, remedy: 'apt-get install bsdutils' });

const TOKEN = 'e2e-gemini-interactive-token';
const MEMORY = 'Deploy with the reviewed workflow.';
/** Liveness guard only: how long to wait for the Hook's log line before failing. */
const LIVENESS_MS = 180_000;

/** Resolves with what `probe` returns once it is not undefined, or rejects after the guard or on exit. */
async function until<T>(what: string, probe: () => T | undefined, exited: () => boolean): Promise<T> {
  const deadline = Date.now() + LIVENESS_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (exited() || Date.now() > deadline) throw new Error(`no ${what} ${exited() ? 'before Gemini CLI exited' : 'within the liveness guard'}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The screen as text: escape sequences removed, whitespace folded (the dialog wraps lines). */
function plain(screen: string): string {
  return screen.replace(/\x1b\[[0-9;?]*[a-zA-Z]/gu, '').replace(/\s+/gu, ' ');
}

describe.skipIf(!tier.installed || scriptMissing !== undefined)(`Gemini CLI ${FIXTURE.version} interactive on a terminal`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [], newSession: () => newAgentSession('ec-gemini-tty-'), startModel: startGeminiModelFake });

  test(
    'the managed write settings with --yolo in an interactive session: the BeforeTool Hook asks, Gemini CLI shows the exact content, nothing is written',
    async () => {
      const log = join(setup.session.dir, 'hook.log');
      const settings = JSON.parse(
        JSON.stringify(exampleWithPaths('gemini-cli/managed-write-settings.json', { executable: setup.exe, config: setup.writeConfig(), pinned: '/etc/external-context/write.json' })).replace(
          '--host gemini"',
          `--host gemini --log '${log}'"`,
        ),
      ) as { mcpServers: Record<string, Record<string, unknown>> };
      settings.mcpServers['external-context']!['cwd'] = setup.session.dir;
      setup.session.writeJson('home/.gemini/settings.json', { ...settings, security: { auth: { selectedType: 'gemini-api-key' } } });
      setup.session.writeJson('home/.gemini/trustedFolders.json', { [setup.session.work]: 'TRUST_FOLDER' });
      const env = setup.session.env({ ...GEMINI_SINGLE_PROCESS, GOOGLE_GEMINI_BASE_URL: setup.model.baseUrl, GEMINI_API_KEY: 'offline-dummy', MEM0_API_KEY: TOKEN, TERM: 'xterm' });
      const prompt = `CALL mcp_external-context_context_remember ${JSON.stringify({ content: MEMORY })}`;
      const command = `exec '${agentBin(FIXTURE)}' -m gemini-2.5-flash --yolo -i '${prompt}'`;
      const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: setup.session.work, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      let screen = '';
      child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
      let exited = false;
      const closed = new Promise<void>((resolve) => child.on('close', () => ((exited = true), resolve())));
      const question = WRITE_CONFIRMATION_REASONS.ask.split(' ').slice(0, 8).join(' ');
      try {
        const line = await until(
          'Hook log line',
          () => (existsSync(log) && readFileSync(log, 'utf8').includes('\n') ? readFileSync(log, 'utf8').split('\n')[0] : undefined),
          () => exited,
        );
        expect(JSON.parse(line) as Record<string, unknown>).toMatchObject({ hook: 'write-confirmation', outcome: 'ask' });
        // The dialog is drawn after the Hook answered: wait for it on the screen.
        await until(
          'confirmation dialog',
          () => (plain(screen).includes(question) && plain(screen).includes(JSON.stringify(MEMORY)) ? true : undefined),
          () => exited,
        );
      } finally {
        if (!exited && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        await closed;
      }
      expect(setup.mem0.requests).toHaveLength(0);
    },
    LIVENESS_MS + 60_000,
  );
});
