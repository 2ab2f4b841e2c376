// Gemini CLI 0.61.0 interactive on a pseudo-terminal in every approval mode, with the shipped
// write settings in its managed path (agents.md §4; issue 29, "each mode tested, headless and
// interactive"): inside the private mount namespace of claude-gemini-managed.tier.ts,
// managed-write-settings.json is /etc/gemini-cli/settings.json, unedited; the user's files
// only choose API-key auth and trust the working folder. `gemini -m gemini-2.5-flash [mode]
// -i <prompt>`; the fake model answers with a context_remember call. One run per mode: the
// BeforeTool Hook sees an interactive session and asks, Gemini CLI draws one dialog with the
// Hook's question and the exact content, and nothing reaches Mem0 until the person picks
// Allow; or the mode does not offer the tool.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { startGeminiModelFake } from '../fakes/gemini-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, agentBin, agentTier, filesContaining, GEMINI_SINGLE_PROCESS, newAgentSession, useAgentTierServices } from './agents-harness.ts';
import { inManagedNamespace, MANAGED_EXECUTABLE, managedNamespaceTier } from './managed-namespace.ts';
import { plainText, startTerminal, type TerminalSession, terminalTier } from './terminal-session.ts';

const GEMINI = AGENT_FIXTURES.gemini;
const tier = agentTier(GEMINI);
registerFixtureGate(tier);
const namespace = managedNamespaceTier(`Gemini CLI ${GEMINI.version} interactive in its managed paths`);
registerToolGate(namespace);
const terminal = terminalTier(`Gemini CLI ${GEMINI.version} interactive on a terminal`);
registerToolGate(terminal);

const TOKEN = 'e2e-gemini-tty-token';
const MEMORY = 'Deploy with the reviewed workflow.';
const PROMPT = `CALL mcp_external-context_context_remember ${JSON.stringify({ content: MEMORY })}`;
/** Gemini CLI's dialog: the Hook's question with the exact content, then its own choices. */
const DIALOG = [
  'Action Required',
  WRITE_CONFIRMATION_REASONS.ask.split(' ').slice(0, 8).join(' '),
  JSON.stringify(MEMORY),
  'Allow execution of MCP tool "context_remember" from server "external-context"?',
  '1. Allow once',
  '4. No, suggest changes (esc)',
];
/** The model's answer once a function response reached it (the turn is over). */
const FINAL = 'FINAL: tool said';
/** What Gemini CLI draws when the person says no. */
const CANCELLED = 'Request cancelled.';
const TEST_TIMEOUT_MS = 3 * LIVENESS_MS;

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

describe.skipIf(!tier.installed || namespace.missing !== undefined || terminal.missing !== undefined)(
  `Gemini CLI ${GEMINI.version} interactive with the shipped write settings in /etc/gemini-cli`,
  () => {
    const setup = useAgentTierServices({ token: TOKEN, items: [], newSession: () => newAgentSession('ec-gemini-tty-'), startModel: startGeminiModelFake });

    /** `gemini -m gemini-2.5-flash [flags] -i <PROMPT>` on a terminal in the managed namespace, in a PID namespace of its own. */
    function startGemini(flags: readonly string[]): TerminalSession {
      const files = { '/etc/gemini-cli/settings.json': example('gemini-cli/managed-write-settings.json'), '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8') };
      setup.session.writeJson('home/.gemini/settings.json', { security: { auth: { selectedType: 'gemini-api-key' } } });
      setup.session.writeJson('home/.gemini/trustedFolders.json', { [setup.session.work]: 'TRUST_FOLDER' });
      const env = setup.session.env({ ...GEMINI_SINGLE_PROCESS, GOOGLE_GEMINI_BASE_URL: setup.model.baseUrl, GEMINI_API_KEY: 'offline-dummy', MEM0_API_KEY: TOKEN, TERM: 'xterm-256color' });
      const inner = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(GEMINI), [
        '-m',
        'gemini-2.5-flash',
        ...flags,
        '-i',
        PROMPT,
      ]);
      return startTerminal('unshare', ['--pid', '--fork', '--kill-child', '--mount-proc', inner.command, ...inner.args], { cwd: setup.session.work, env });
    }

    const shows = (gemini: TerminalSession, texts: readonly string[], from = 0): boolean => {
      const screen = plainText(gemini.drawn().slice(from).replaceAll('│', ' '));
      return texts.every((text) => screen.includes(text));
    };
    const askedOrEnded = (gemini: TerminalSession): 'asked' | 'ended' | undefined => (shows(gemini, DIALOG) ? 'asked' : shows(gemini, [FINAL]) ? 'ended' : undefined);

    function expectNoCredential(gemini: TerminalSession): void {
      expect(gemini.drawn()).not.toContain(TOKEN);
      expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
    }

    test(
      "default approval mode: one dialog with the Hook's question and the exact content, nothing written while it waits; the person picks 1. Allow once → exactly one POST /memories",
      async () => {
        const gemini = startGemini([]);
        try {
          expect(await gemini.until('confirmation dialog or end of turn', () => askedOrEnded(gemini))).toBe('asked');
          expect(setup.mem0.requests).toEqual([]);
          const mark = gemini.drawn().length;
          gemini.type('1');
          await gemini.until('end of the approved turn', () => (shows(gemini, [FINAL], mark) ? true : undefined));
          expect(plainText(gemini.drawn().slice(mark))).toContain('\\"status\\":\\"stored\\"');
        } finally {
          await gemini.close();
        }
        const posts = setup.mem0.requests.filter((request) => request.method === 'POST' && request.path === '/memories');
        expect(posts).toHaveLength(1);
        expect(setup.mem0.requests).toHaveLength(1);
        expect(JSON.stringify(posts[0]?.json)).toContain(JSON.stringify(MEMORY));
        expectNoCredential(gemini);
      },
      TEST_TIMEOUT_MS,
    );

    const ROWS: readonly { readonly label: string; readonly flags: readonly string[]; readonly answer?: string }[] = [
      { label: '--approval-mode auto_edit, the person presses Esc', flags: ['--approval-mode', 'auto_edit'], answer: '\x1b' },
      { label: '--yolo, the person picks 4. No', flags: ['--yolo'], answer: '4' },
      { label: '--approval-mode plan', flags: ['--approval-mode', 'plan'] },
    ];
    for (const row of ROWS) {
      test(
        `${row.label}: ${row.answer !== undefined ? 'the dialog is drawn, nothing written while it waits; the person declines → request cancelled, nothing written' : 'the mode does not offer context_remember (the call is "not found"); nothing written'}`,
        async () => {
          const gemini = startGemini(row.flags);
          try {
            const seen = await gemini.until('confirmation dialog or end of turn', () => askedOrEnded(gemini));
            if (row.answer !== undefined) {
              expect(seen).toBe('asked');
              expect(setup.mem0.requests).toEqual([]);
              const mark = gemini.drawn().length;
              gemini.type(row.answer);
              await gemini.until('the cancelled request', () => (shows(gemini, [CANCELLED], mark) ? true : undefined));
            } else {
              expect(seen).toBe('ended');
              expect(shows(gemini, ['Action Required'])).toBe(false);
              expect(shows(gemini, ['Tool \\"mcp_external-context_context_remember\\" not found.'])).toBe(true);
            }
          } finally {
            await gemini.close();
          }
          expect(setup.mem0.requests).toEqual([]);
          expectNoCredential(gemini);
        },
        TEST_TIMEOUT_MS,
      );
    }
  },
);
