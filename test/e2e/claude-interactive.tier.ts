// Claude Code 2.1.332 interactive on a pseudo-terminal, with the shipped write files in its
// managed paths (agents.md §4; issue 29, "each mode tested, headless and interactive"): inside
// the private mount namespace of claude-gemini-managed.tier.ts, managed-write-mcp.json and
// managed-write-settings.json are /etc/claude-code/managed-mcp.json and managed-settings.json,
// unedited; the user's ~/.claude.json only says onboarding is done, the dummy API key is
// accepted and the working folder trusted. The fake model answers the prompt with a
// context_remember call. One Claude Code run per permission mode: either Claude Code asks a
// person (and nothing reaches Mem0 until they answer Yes) or the write is denied.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { type AnthropicModelFake, blocksOf, startAnthropicModelFake, toolResultText } from '../fakes/anthropic-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, agentBin, agentTier, filesContaining, newAgentSession, useAgentTierServices } from './agents-harness.ts';
import { inManagedNamespace, MANAGED_EXECUTABLE, managedNamespaceTier } from './managed-namespace.ts';
import { plainText, startTerminal, type TerminalSession, terminalTier } from './terminal-session.ts';

const CLAUDE = AGENT_FIXTURES.claude;
const tier = agentTier(CLAUDE);
registerFixtureGate(tier);
const namespace = managedNamespaceTier(`Claude Code ${CLAUDE.version} interactive in its managed paths`);
registerToolGate(namespace);
const terminal = terminalTier(`Claude Code ${CLAUDE.version} interactive on a terminal`);
registerToolGate(terminal);

const TOKEN = 'e2e-claude-tty-token';
const API_KEY = 'sk-ant-offline-dummy-key-0123456789';
const MEMORY = 'Deploy with the reviewed workflow.';
const PROMPT = `CALL mcp__external-context__context_remember ${JSON.stringify({ content: MEMORY })}`;
/** Claude Code's permission dialog for the call, as drawn. */
const DIALOG = ['Rule mcp__external-context__context_remember from enterprise managed settings says to ask.', 'Do you want to proceed?', `content: "${MEMORY}"`, '1. Yes', '3. No'];
/** The model's answer once a tool result reached it (the turn is over). */
const FINAL = 'FINAL: tool said';
/** What Claude Code draws when the person says no: the turn stops and waits for them. */
const INTERRUPTED = 'Interrupted · What should Claude do instead?';
/** Claude Code's own confirmation of --dangerously-skip-permissions, answered by the person. */
const BYPASS_ACCEPT = 'Yes, I accept';
const TEST_TIMEOUT_MS = 3 * LIVENESS_MS;

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

/** The tool_result texts the model received, in order. */
function toolResults(model: AnthropicModelFake): string[] {
  const last = model.messageRequests().findLast((request) => request.messages.some((message) => blocksOf(message.content).some((block) => block.type === 'tool_result')));
  return (last?.messages ?? [])
    .flatMap((message) => blocksOf(message.content))
    .filter((block) => block.type === 'tool_result')
    .map(toolResultText);
}

describe.skipIf(!tier.installed || namespace.missing !== undefined || terminal.missing !== undefined)(
  `Claude Code ${CLAUDE.version} interactive with the shipped write files in /etc/claude-code`,
  () => {
    const setup = useAgentTierServices({ token: TOKEN, items: [], newSession: () => newAgentSession('ec-claude-tty-'), startModel: startAnthropicModelFake });

    /** `claude [flags] <PROMPT>` on a terminal in the managed namespace, in a PID namespace of its own. */
    function startClaude(flags: readonly string[], extraEnv: Readonly<Record<string, string>> = {}): TerminalSession {
      const files = {
        '/etc/claude-code/managed-mcp.json': example('claude-code/managed-write-mcp.json'),
        '/etc/claude-code/managed-settings.json': example('claude-code/managed-write-settings.json'),
        '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8'),
      };
      setup.session.writeJson('home/.claude.json', {
        hasCompletedOnboarding: true,
        theme: 'dark',
        customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
        projects: { [setup.session.work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
      });
      const env = setup.session.env({
        ANTHROPIC_BASE_URL: setup.model.baseUrl,
        ANTHROPIC_API_KEY: API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        MEM0_API_KEY: TOKEN,
        TERM: 'xterm-256color',
        ...extraEnv,
      });
      const inner = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(CLAUDE), [...flags, PROMPT]);
      return startTerminal('unshare', ['--pid', '--fork', '--kill-child', '--mount-proc', inner.command, ...inner.args], { cwd: setup.session.work, env });
    }

    /**
     * Whether every text is on Claude Code's screen now, as rendered: it redraws only the cells
     * that changed, so a text it draws after a similar one (its "Interrupted" line after the
     * dialog) is never in the byte stream in one piece.
     */
    const shows = (claude: TerminalSession, texts: readonly string[]): boolean => {
      const screen = claude.screen();
      return texts.every((text) => screen.includes(text));
    };
    /** The permission dialog or the end of the turn without one: whichever Claude Code draws first. */
    const askedOrEnded = (claude: TerminalSession): 'asked' | 'ended' | undefined => (shows(claude, DIALOG) ? 'asked' : shows(claude, [FINAL]) ? 'ended' : undefined);

    function expectNoCredential(claude: TerminalSession): void {
      expect(claude.drawn()).not.toContain(TOKEN);
      expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
    }

    test(
      'no flag (auto mode, the default of 2.1.332): the managed ask rule shows the dialog with the exact content, nothing written while it waits; the person picks 1. Yes → exactly one POST /memories',
      async () => {
        const claude = startClaude([]);
        try {
          expect(await claude.until('permission dialog or end of turn', () => askedOrEnded(claude))).toBe('asked');
          expect(setup.mem0.requests).toEqual([]);
          claude.type('1');
          await claude.until('end of the approved turn', () => (shows(claude, [FINAL]) ? true : undefined));
        } finally {
          await claude.close();
        }
        const posts = setup.mem0.requests.filter((request) => request.method === 'POST' && request.path === '/memories');
        expect(posts).toHaveLength(1);
        expect(setup.mem0.requests).toHaveLength(1);
        expect(JSON.stringify(posts[0]?.json)).toContain(JSON.stringify(MEMORY));
        expect(toolResults(setup.model).join('')).toContain('"status":"stored"');
        expectNoCredential(claude);
      },
      TEST_TIMEOUT_MS,
    );

    type Outcome = { readonly asked: string } | { readonly denied: string };
    const ROWS: readonly { readonly label: string; readonly flags: readonly string[]; readonly env?: Record<string, string>; readonly outcome: Outcome }[] = [
      { label: '--permission-mode default, the person picks 3. No', flags: ['--permission-mode', 'default'], outcome: { asked: '3' } },
      { label: '--permission-mode acceptEdits, the person presses Esc', flags: ['--permission-mode', 'acceptEdits'], outcome: { asked: '\x1b' } },
      { label: '--permission-mode auto, the person picks 3. No', flags: ['--permission-mode', 'auto'], outcome: { asked: '3' } },
      // As root Claude Code refuses the flag unless IS_SANDBOX=1 (a variable the user sets), then asks the person to accept the mode.
      { label: '--dangerously-skip-permissions (IS_SANDBOX=1), the person picks 3. No', flags: ['--dangerously-skip-permissions'], env: { IS_SANDBOX: '1' }, outcome: { asked: '3' } },
      {
        label: '--permission-mode plan',
        flags: ['--permission-mode', 'plan'],
        outcome: { denied: `PreToolUse:mcp__external-context__context_remember hook error: ${WRITE_CONFIRMATION_REASONS.plan}` },
      },
      { label: '--permission-mode dontAsk', flags: ['--permission-mode', 'dontAsk'], outcome: { denied: "has been denied because Claude Code is running in don't ask mode" } },
    ];
    for (const row of ROWS) {
      test(
        `${row.label}: ${'asked' in row.outcome ? 'Claude Code asks, nothing is written while it waits; the person declines → the turn stops, nothing written' : 'no dialog, the write is denied with the reason; nothing written'}`,
        async () => {
          const claude = startClaude(row.flags, row.env);
          try {
            const first = await claude.until('permission dialog, bypass confirmation or end of turn', () => (shows(claude, [BYPASS_ACCEPT]) ? 'bypass' : askedOrEnded(claude)));
            if (first === 'bypass') claude.type('\x1b[B\r');
            const seen = await claude.until('permission dialog or end of turn', () => askedOrEnded(claude));
            if ('asked' in row.outcome) {
              expect(seen).toBe('asked');
              expect(setup.mem0.requests).toEqual([]);
              const stopped = (): true | undefined => (shows(claude, [INTERRUPTED]) ? true : undefined);
              await claude.pressToDecline(row.outcome.asked, 'the stopped turn', stopped, () => shows(claude, DIALOG));
            } else {
              expect(seen).toBe('ended');
              expect(plainText(claude.drawn())).not.toContain('Do you want to proceed?');
              expect(toolResults(setup.model).join('')).toContain(row.outcome.denied);
            }
          } finally {
            await claude.close();
          }
          expect(setup.mem0.requests).toEqual([]);
          expectNoCredential(claude);
        },
        TEST_TIMEOUT_MS,
      );
    }
  },
);
