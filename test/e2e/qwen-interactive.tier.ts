// Qwen Code 0.24.4 interactive on a pseudo-terminal in every approval mode, with the shipped
// write files (agents.md §4, qwen-client.md §13; issue 29, "each mode tested, headless and
// interactive"): the managed `--mcp-config` and system settings as in qwen-code-write.tier.ts,
// `qwen … [mode] -i <prompt>`, the fake model answering with a context_remember call. One run
// per mode: Qwen Code asks a person (the managed ask rule, or the Hook's ask with its question
// and the exact content under --yolo) and nothing reaches Mem0 until the person picks Yes; or
// plan mode blocks the call.
import { describe, expect, test } from 'bun:test';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { filesContaining } from './agents-harness.ts';
import { MEMORY, REMEMBER_TOOL, TOKEN, useQwenCodeServices } from './qwen-code-services.ts';
import { managedSystemSettings, modelFlags, QWEN_BIN, QWEN_VERSION, qwenEnv, qwenTier } from './qwen-harness.ts';
import { plainText, startTerminal, type TerminalSession, terminalTier } from './terminal-session.ts';

const tier = qwenTier();
registerFixtureGate(tier);
const terminal = terminalTier(`Qwen Code ${QWEN_VERSION} interactive on a terminal`);
registerToolGate(terminal);

const PROMPT = `CALL ${REMEMBER_TOOL} ${JSON.stringify({ content: MEMORY })}`;
/** Qwen Code's confirmation, as drawn: the call with its exact arguments, then the two choices. */
const DIALOG = [`context_remember (external-context MCP Server) ${JSON.stringify({ content: MEMORY })}`, '1. Yes, allow once', '2. No, suggest changes (esc)'];
/** The rule's question (default and auto-edit) and the Hook's (yolo, where the rule does not ask). */
const RULE_QUESTION = 'Allow execution of MCP tool "context_remember" from server "external-context"?';
const HOOK_QUESTION = WRITE_CONFIRMATION_REASONS.ask;
/** The model's answer once a tool result reached it (the turn is over). */
const FINAL = 'FINAL: tool said';
/** The call's line once the person said no (Qwen Code marks a cancelled call with `-`). */
const CANCELLED = `- context_remember (external-context MCP Server) ${JSON.stringify({ content: MEMORY })}`;
const TEST_TIMEOUT_MS = 3 * LIVENESS_MS;

describe.skipIf(!tier.installed || terminal.missing !== undefined)(`Qwen Code ${QWEN_VERSION} interactive with the shipped write files`, () => {
  const q = useQwenCodeServices();

  function startQwen(flags: readonly string[]): TerminalSession {
    const system = managedSystemSettings('managed-write-system-settings.json', { executable: q.exe });
    // The interactive UI checks the npm registry for updates after its first render; the tests stay on loopback.
    const env = qwenEnv(q.session, { ...q.settings(system), TERM: 'xterm-256color', QWEN_CODE_SKIP_UPDATE_CHECK_ONCE: 'true' });
    return startTerminal(QWEN_BIN, ['--mcp-config', q.writeMcp(), ...modelFlags(q.model), ...flags, '-i', PROMPT], { cwd: q.session.work, env });
  }

  const shows = (qwen: TerminalSession, texts: readonly string[], from = 0): boolean => {
    const screen = plainText(qwen.drawn().slice(from));
    return texts.every((text) => screen.includes(text));
  };
  const askedOrEnded = (qwen: TerminalSession, question: string): 'asked' | 'ended' | undefined => (shows(qwen, [...DIALOG, question]) ? 'asked' : shows(qwen, [FINAL]) ? 'ended' : undefined);

  function expectNoCredential(qwen: TerminalSession): void {
    expect(qwen.drawn()).not.toContain(TOKEN);
    expect(filesContaining(q.session.home, TOKEN)).toEqual([]);
  }

  test(
    'default approval mode: the managed ask rule asks with the exact arguments, nothing written while it waits; the person picks 1. Yes → exactly one POST /memories',
    async () => {
      const qwen = startQwen([]);
      try {
        expect(await qwen.until('confirmation or end of turn', () => askedOrEnded(qwen, RULE_QUESTION))).toBe('asked');
        expect(q.mem0.requests).toEqual([]);
        const mark = qwen.drawn().length;
        qwen.type('1');
        // The rule's Yes leads to the Hook's own ask, a second dialog: still nothing written.
        expect(await qwen.until("the Hook's dialog or end of turn", () => (shows(qwen, [HOOK_QUESTION, ...DIALOG.slice(1)], mark) ? 'asked' : shows(qwen, [FINAL], mark) ? 'ended' : undefined))).toBe(
          'asked',
        );
        expect(q.mem0.requests).toEqual([]);
        const second = qwen.drawn().length;
        qwen.type('1');
        await qwen.until('end of the approved turn', () => (shows(qwen, [FINAL], second) ? true : undefined));
      } finally {
        await qwen.close();
      }
      const posts = q.mem0.requests.filter((request) => request.method === 'POST' && request.path === '/memories');
      expect(posts).toHaveLength(1);
      expect(q.mem0.requests).toHaveLength(1);
      expect(JSON.stringify(posts[0]?.json)).toContain(JSON.stringify(MEMORY));
      expectNoCredential(qwen);
    },
    TEST_TIMEOUT_MS,
  );

  const ROWS: readonly { readonly label: string; readonly flags: readonly string[]; readonly question?: string; readonly answer?: string }[] = [
    { label: '--approval-mode auto-edit, the person presses Esc', flags: ['--approval-mode', 'auto-edit'], question: RULE_QUESTION, answer: '\x1b' },
    { label: "--yolo (the Hook's ask), the person picks 2. No", flags: ['--yolo'], question: HOOK_QUESTION, answer: '2' },
    { label: '--approval-mode plan', flags: ['--approval-mode', 'plan'] },
  ];
  for (const row of ROWS) {
    test(
      `${row.label}: ${row.answer !== undefined ? 'Qwen Code asks, nothing written while it waits; the person declines → the call is cancelled, nothing written' : 'plan mode blocks the call; nothing written'}`,
      async () => {
        const qwen = startQwen(row.flags);
        try {
          const seen = await qwen.until('confirmation or end of turn', () => askedOrEnded(qwen, row.question ?? RULE_QUESTION));
          if (row.answer !== undefined) {
            expect(seen).toBe('asked');
            expect(q.mem0.requests).toEqual([]);
            const mark = qwen.drawn().length;
            qwen.type(row.answer);
            await qwen.until('the cancelled call', () => (shows(qwen, [CANCELLED], mark) ? true : undefined));
          } else {
            expect(seen).toBe('ended');
            expect(shows(qwen, ['Tool blocked by plan mode: \\"mcp__external-context__context_remember\\" is not a read-only tool.'])).toBe(true);
          }
        } finally {
          await qwen.close();
        }
        expect(q.mem0.requests).toEqual([]);
        expectNoCredential(qwen);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
