// Codex 0.169.0 interactive (its TUI) on a pseudo-terminal, with the shipped write files in its
// managed paths (agents.md §4; issue 29, "each mode tested, headless and interactive"): inside
// the private mount namespace of codex-managed.tier.ts, write-config.toml is
// /etc/codex/managed_config.toml and write-requirements.toml /etc/codex/requirements.toml,
// unedited; the user's $CODEX_HOME/config.toml names only the fake model provider and trusts
// the working folder. The fake model answers the prompt with a context_remember call. One Codex
// run per approval mode a user can pick: either Codex shows its approval prompt (and nothing
// reaches Mem0 until a person answers) or the write is denied; never written without a person.
// The whole run is in its own PID namespace, so the app-server daemon the TUI starts ends with it.
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WRITE_CONFIRMATION_REASONS } from '../../src/hooks/write-confirmation.ts';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { codexProviderTable, outputText, type ResponsesModelFake, startResponsesModelFake } from '../fakes/responses-model.ts';
import { registerFixtureGate } from '../support/fixture-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { AGENT_FIXTURES, agentBin, agentTier, filesContaining, newAgentSession, useAgentTierServices } from './agents-harness.ts';
import { inManagedNamespace, MANAGED_EXECUTABLE, managedNamespaceTier } from './managed-namespace.ts';
import { plainText, startTerminal, type TerminalSession, terminalTier } from './terminal-session.ts';

const FIXTURE = AGENT_FIXTURES.codex;
const tier = agentTier(FIXTURE);
registerFixtureGate(tier);
const namespace = managedNamespaceTier(`Codex ${FIXTURE.version} interactive in its managed paths`);
registerToolGate(namespace);
const terminal = terminalTier(`Codex ${FIXTURE.version} interactive on a terminal`);
registerToolGate(terminal);

const TOKEN = 'e2e-codex-tty-token';
const MEMORY = 'Deploy with the reviewed workflow.';
const PROMPT = `CALL mcp__external_context.context_remember ${JSON.stringify({ content: MEMORY })}`;
/** Codex's approval prompt for the call, as drawn (then `content: <memory>` and the choices). */
const APPROVAL = 'Allow the external-context MCP server to run tool "context_remember"?';
const CHOICES = '1. Allow Run the tool and continue 2. Cancel Cancel this tool call';
const CANCEL = '2. Cancel';
/** Codex's terminal status signal (OSC 7501): a turn starts working, waits for a person, ends. */
const WORKING = '\x1b]7501;state=working:app=codex';
const BLOCKED = '\x1b]7501;state=blocked:app=codex:kind=permission';
/** A turn ended (done, or idle again). */
const ENDED = /\x1b\]7501;state=(?:done|idle):app=codex/u;
/** What Codex tells the model when the person cancels (after its wall-time prefix). */
const CANCELLED = 'user cancelled MCP tool call';
const TEST_TIMEOUT_MS = 3 * LIVENESS_MS;

/** Whether Codex's latest state report is still "blocked on a permission". */
function blockedOnPermission(session: TerminalSession): boolean {
  const drawn = session.drawn();
  const at = drawn.lastIndexOf('\x1b]7501;state=');
  return at !== -1 && drawn.startsWith(BLOCKED, at);
}

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');
const blocked = (reason: string): string => `Tool call blocked by PreToolUse hook: ${reason}. Tool: mcp__external_context__context_remember`;

/** A tool output without Codex's `Wall time: … seconds\nOutput:` prefix. */
const withoutWallTime = (output: string): string => output.replace(/^Wall time: [0-9.]+ seconds\nOutput:\n?/u, '');

/** The function_call_output texts the model received, in order. */
function toolOutputs(model: ResponsesModelFake): string[] {
  const last = model.responseRequests().at(-1);
  return (last?.input ?? []).filter((item) => item.type === 'function_call_output').map(outputText);
}

describe.skipIf(!tier.installed || namespace.missing !== undefined || terminal.missing !== undefined)(`Codex ${FIXTURE.version} interactive with the shipped write files in /etc/codex`, () => {
  const setup = useAgentTierServices({ token: TOKEN, items: [], newSession: () => newAgentSession('ec-codex-tty-'), startModel: startResponsesModelFake });

  /** `codex [flags] <PROMPT>` on a terminal in the managed namespace, in a PID namespace of its own. */
  function startCodex(flags: readonly string[]): TerminalSession {
    // No update check and no analytics: the run stays on loopback.
    const user = [
      'model = "gpt-fake"',
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      `[projects."${setup.session.work}"]`,
      'trust_level = "trusted"',
      '',
      ...codexProviderTable(setup.model.baseUrl),
    ];
    writeFileSync(join(setup.session.home, 'config.toml'), user.join('\n'));
    const files = {
      '/etc/codex/managed_config.toml': example('codex/write-config.toml'),
      '/etc/codex/requirements.toml': example('codex/write-requirements.toml'),
      '/etc/external-context/write.json': readFileSync(setup.writeConfig(), 'utf8'),
    };
    const env = setup.session.env({ CODEX_HOME: setup.session.home, FAKE_MODEL_KEY: 'offline-dummy', MEM0_API_KEY: TOKEN, TERM: 'xterm-256color' });
    const inner = inManagedNamespace(join(setup.session.dir, 'namespace'), { files, binds: { [MANAGED_EXECUTABLE]: setup.exe } }, agentBin(FIXTURE), [...flags, PROMPT]);
    return startTerminal('unshare', ['--pid', '--fork', '--kill-child', '--mount-proc', inner.command, ...inner.args], { cwd: setup.session.work, env });
  }

  /** The screen drawn after `from` shows the approval prompt with the exact content and both choices. */
  const promptShown = (codex: TerminalSession, from: number): true | undefined => {
    const text = plainText(codex.drawn().slice(from));
    return text.includes(APPROVAL) && text.includes(`content: ${MEMORY}`) && text.includes(CHOICES) ? true : undefined;
  };
  /**
   * Where the first turn that started working after `from` ended (Codex's done or idle signal),
   * or undefined. Codex signals idle before the first prompt and again after each done.
   */
  const turnEnded = (codex: TerminalSession, from: number): number | undefined => {
    const start = codex.drawn().indexOf(WORKING, from);
    if (start < 0) return undefined;
    const end = ENDED.exec(codex.drawn().slice(start));
    return end === null ? undefined : start + end.index + end[0].length;
  };
  /** The approval prompt, or the end of the turn without one: whichever Codex draws first. */
  const askedOrEnded = (codex: TerminalSession, from: number): 'asked' | 'ended' | undefined => {
    if (promptShown(codex, from)) return 'asked';
    return turnEnded(codex, from) === undefined ? undefined : 'ended';
  };

  /**
   * The person picks "2. Cancel" by its number, which selects and submits it in one key, and
   * waits for the end of the turn. A key Codex dropped while it was still drawing its prompt is
   * pressed again, as a person would, only while the prompt still waits on the visible screen:
   * "2" can only ever cancel (a repeat after the prompt closed would be typed into the composer),
   * where Down moves a selection that wraps around to "1. Allow".
   */
  async function pickCancel(codex: TerminalSession): Promise<void> {
    const mark = codex.drawn().length;
    await codex.pressToDecline(
      '2',
      'end of the declined turn',
      () => turnEnded(codex, mark),
      () => blockedOnPermission(codex) && codex.visibleScreen().includes(CANCEL),
    );
  }

  /**
   * The credential is on no screen and in no file Codex wrote: the shipped files turn off the
   * TUI's snapshot of the user's shell environment (`[features] shell_snapshot = false`), which
   * otherwise copies every exported variable, MEM0_API_KEY included, to
   * `$CODEX_HOME/shell_snapshots/` (seen in a run without it).
   */
  function expectNoCredential(codex: TerminalSession): void {
    expect(codex.drawn()).not.toContain(TOKEN);
    expect(filesContaining(setup.session.home, TOKEN)).toEqual([]);
  }

  test(
    'default approval (on-request, reviewer the user): Codex asks with the exact content and nothing is written while it waits; Esc → nothing written; asked again, Enter on Allow → exactly one POST /memories',
    async () => {
      const codex = startCodex([]);
      try {
        expect(await codex.until('approval prompt or end of turn', () => askedOrEnded(codex, 0))).toBe('asked');
        expect(codex.drawn()).toContain(BLOCKED);
        expect(setup.mem0.requests).toEqual([]);
        // (b) The person cancels: the turn ends, nothing written, the model is told.
        let mark = codex.drawn().length;
        const declined = mark;
        mark = await codex.pressToDecline(
          '\x1b',
          'end of the declined turn',
          () => turnEnded(codex, declined),
          () => blockedOnPermission(codex),
        );
        expect(setup.mem0.requests).toEqual([]);
        expect(toolOutputs(setup.model).map(withoutWallTime)).toEqual([CANCELLED]);
        // (c) The same request again, typed by the person; Enter on the selected "1. Allow".
        codex.type(`\x1b[200~${PROMPT}\x1b[201~`);
        await codex.until('the typed prompt', () => (plainText(codex.drawn().slice(mark)).includes(MEMORY) ? true : undefined));
        codex.type('\r');
        expect(await codex.until('second approval prompt', () => askedOrEnded(codex, mark))).toBe('asked');
        expect(setup.mem0.requests).toEqual([]);
        const approved = codex.drawn().length;
        codex.type('\r');
        await codex.until('end of the approved turn', () => turnEnded(codex, approved));
      } finally {
        await codex.close();
      }
      const posts = setup.mem0.requests.filter((request) => request.method === 'POST' && request.path === '/memories');
      expect(posts).toHaveLength(1);
      expect(setup.mem0.requests).toHaveLength(1);
      expect(JSON.stringify(posts[0]?.json)).toContain(JSON.stringify(MEMORY));
      expectNoCredential(codex);
    },
    TEST_TIMEOUT_MS,
  );

  // Every other mode a user can pick on the command line: the person is asked (and picks
  // Cancel), the Hook denies, or Codex refuses the mode.
  type Outcome = { readonly asked: true } | { readonly denied: string } | { readonly refused: string };
  const ROWS: readonly { readonly label: string; readonly flags: readonly string[]; readonly outcome: Outcome }[] = [
    { label: '-a on-request -s read-only', flags: ['-a', 'on-request', '-s', 'read-only'], outcome: { asked: true } },
    { label: '-c approval_policy="on-failure" -s workspace-write', flags: ['-c', 'approval_policy="on-failure"', '-s', 'workspace-write'], outcome: { asked: true } },
    { label: "--approve-for-me (Codex's reviewer model)", flags: ['--approve-for-me'], outcome: { asked: true } },
    { label: '-s danger-full-access -c approvals_reviewer="auto_review"', flags: ['-s', 'danger-full-access', '-c', 'approvals_reviewer="auto_review"'], outcome: { asked: true } },
    { label: '-a never', flags: ['-a', 'never'], outcome: { denied: WRITE_CONFIRMATION_REASONS.unsupportedMode } },
    { label: '--dangerously-bypass-approvals-and-sandbox', flags: ['--dangerously-bypass-approvals-and-sandbox'], outcome: { denied: WRITE_CONFIRMATION_REASONS.unsupportedMode } },
    {
      label: '-c approval_policy="untrusted"',
      flags: ['-c', 'approval_policy="untrusted"'],
      outcome: { refused: 'Error loading configuration: approval_policy = "untrusted" is no longer supported; remove this setting' },
    },
  ];
  const expected = (outcome: Outcome): string =>
    'asked' in outcome
      ? 'Codex asks a person, nothing is written while it waits; the person picks Cancel → nothing written, the model told so'
      : 'denied' in outcome
        ? 'no prompt, the Hook denies with its reason; nothing written'
        : 'Codex refuses to start and never calls the model; nothing written';
  for (const row of ROWS) {
    test(
      `${row.label}: ${expected(row.outcome)}`,
      async () => {
        const codex = startCodex(row.flags);
        try {
          if ('refused' in row.outcome) {
            const refusal = row.outcome.refused;
            await codex.until('the refusal', () => (plainText(codex.drawn()).includes(refusal) ? true : undefined));
            expect(setup.model.responseRequests()).toEqual([]);
          } else {
            const seen = await codex.until('approval prompt or end of turn', () => askedOrEnded(codex, 0));
            if ('asked' in row.outcome) {
              expect(seen).toBe('asked');
              expect(setup.mem0.requests).toEqual([]);
              await pickCancel(codex);
              expect(toolOutputs(setup.model).map(withoutWallTime)).toEqual([CANCELLED]);
            } else {
              expect(seen).toBe('ended');
              // The event itself: the model's next request carries the Hook's deny (an idle state
              // drawn before the turn began can read as its end on a loaded machine).
              await codex.until("the Hook's deny reaching the model", () => (toolOutputs(setup.model).length > 0 ? true : undefined));
              expect(plainText(codex.drawn())).not.toContain(APPROVAL);
              expect(toolOutputs(setup.model)).toEqual([blocked(row.outcome.denied)]);
            }
          }
        } finally {
          await codex.close();
        }
        expect(setup.mem0.requests).toEqual([]);
        expectNoCredential(codex);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
