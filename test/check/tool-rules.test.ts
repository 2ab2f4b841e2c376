// `check --settings` against rules and Hooks that block, drop or overrule the profile's tools
// (config.md §11; issue 29 item 8): a second PreToolUse Hook whose matcher covers
// context_remember (Qwen Code 0.24.4 let its `allow` overrule the confirmation and stored four
// memories), and permissions.deny, tools.disabled, tools.exclude, mcp.excluded, mcp.allowed and
// excludeTools rules. In-process through the dispatch table, against real files.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run as runDispatch } from '../../src/cli/dispatch.ts';
import { matcherCovers } from '../../src/check/tool-rules.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type CheckItem, runCheckJson } from '../support/check-json.ts';
import { runInMemory } from '../support/memory-io.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

const VAR = 'RULES_TOKEN';
const SEARCH = 'mcp__external-context__context_search';
const REMEMBER = 'mcp__external-context__context_remember';

let tmp: TempDir;
let mem0: Mem0ServerFake;
let counter = 0;
let writeConfig: string;
let searchConfig: string;
let hookFragment: Record<string, unknown>;

function file(content: unknown): string {
  const target = path.join(tmp.path, `file-${++counter}.json`);
  writeFileSync(target, JSON.stringify(content));
  chmodSync(target, 0o644);
  return target;
}

beforeAll(async () => {
  tmp = await makeTempDir('ec-rules-');
  mem0 = await startMem0ServerFake({ routes: 'stock', apiKey: 'x' });
  writeConfig = file({
    version: 1,
    provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR, scope: { userId: 'u1' } },
    write: { enabled: true },
  });
  searchConfig = file({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: VAR } });
  hookFragment = JSON.parse((await runInMemory(runDispatch, ['hook', 'settings', 'write'], { env: {}, cwd: REPO_ROOT })).stdout) as Record<string, unknown>;
});

afterAll(async () => {
  await mem0.close();
  await tmp.remove();
});

/** The shipped write settings shape plus `extra` (merged at the top level; `hooks` replaced when given). */
function writeSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { permissions: { allow: [SEARCH], ask: [REMEMBER] }, slashCommands: { disabled: ['cd'] }, ...hookFragment, ...extra };
}

async function items(config: string, settings: unknown): Promise<{ code: number; items: CheckItem[] }> {
  const { code, items } = await runCheckJson(['--config', config, '--settings', file(settings)], { [VAR]: 'token-value' });
  return { code, items };
}

const byId = (list: CheckItem[], id: string): CheckItem | undefined => list.find((entry) => entry.id === id);

describe('settings.other-hooks (writes)', () => {
  test('the shipped shape is ok; a second PreToolUse Hook with matcher ".*" answering allow fails, naming it', async () => {
    const good = await items(writeConfig, writeSettings());
    expect(byId(good.items, 'settings.other-hooks')).toEqual({ id: 'settings.other-hooks', status: 'ok', message: `No other PreToolUse Hook covers ${REMEMBER}.` });
    const fragmentGroups = (hookFragment['hooks'] as Record<string, unknown[]>)['PreToolUse']!;
    const allow = { matcher: '.*', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'` }] };
    const bad = await items(writeConfig, writeSettings({ hooks: { PreToolUse: [...fragmentGroups, allow] } }));
    expect(bad.code).toBe(1);
    expect(byId(bad.items, 'settings.write-hook')?.status).toBe('ok');
    expect(byId(bad.items, 'settings.other-hooks')).toEqual({
      id: 'settings.other-hooks',
      status: 'fail',
      message: `Another PreToolUse Hook covers ${REMEMBER} and can overrule the write confirmation (matcher ".*": echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}').`,
      hint: `Give those Hooks a matcher that does not select ${REMEMBER}, or remove them.`,
    });
  });

  test('matchers that cover context_remember: none, "*", "", a regular expression, the exact name; ones that do not: another tool, an anchored other name', () => {
    for (const matcher of [undefined, '*', '', '.*', 'mcp__', 'context_remember', 'remember$', REMEMBER, 'Bash|mcp__external-context__.*']) expect(matcherCovers(matcher, REMEMBER)).toBe(true);
    for (const matcher of ['^Bash$', 'Write', 'context_search', '^mcp__other__', 7, '(']) expect(matcherCovers(matcher, REMEMBER)).toBe(false);
  });

  test('a Hook of another type (http) with a covering matcher fails too; one for other tools does not', async () => {
    const fragmentGroups = (hookFragment['hooks'] as Record<string, unknown[]>)['PreToolUse']!;
    const http = await items(
      writeConfig,
      writeSettings({ hooks: { PreToolUse: [...fragmentGroups, { matcher: 'mcp__external-context__.*', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/' }] }] } }),
    );
    expect(byId(http.items, 'settings.other-hooks')?.status).toBe('fail');
    const bash = await items(writeConfig, writeSettings({ hooks: { PreToolUse: [...fragmentGroups, { matcher: '^run_shell_command$', hooks: [{ type: 'command', command: 'true' }] }] } }));
    expect(byId(bash.items, 'settings.other-hooks')?.status).toBe('ok');
  });
});

describe('settings.tool-rules', () => {
  test('no rule: ok, naming the profile tools', async () => {
    expect(byId((await items(searchConfig, writeSettings())).items, 'settings.tool-rules')).toEqual({ id: 'settings.tool-rules', status: 'ok', message: `No rule blocks or hides ${SEARCH}.` });
    expect(byId((await items(writeConfig, writeSettings())).items, 'settings.tool-rules')?.message).toBe(`No rule blocks or hides ${SEARCH} or ${REMEMBER}.`);
  });

  test('permissions.deny, tools.disabled, tools.exclude, mcp.excluded, mcp.allowed and excludeTools each fail, each named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ permissions: { allow: [SEARCH], ask: [REMEMBER], deny: [REMEMBER] } }, `permissions.deny "${REMEMBER}" blocks ${REMEMBER}`],
      [{ permissions: { allow: [SEARCH], ask: [REMEMBER], deny: ['mcp__external-context'] } }, `permissions.deny "mcp__external-context" blocks ${SEARCH}, ${REMEMBER}`],
      [{ permissions: { allow: [SEARCH], ask: [REMEMBER], deny: ['mcp__external-context__*'] } }, `permissions.deny "mcp__external-context__*" blocks ${SEARCH}, ${REMEMBER}`],
      [{ permissions: { allow: [SEARCH], ask: [REMEMBER], deny: [`${SEARCH}(anything)`] } }, `permissions.deny "${SEARCH}(anything)" blocks ${SEARCH}`],
      [{ tools: { disabled: [SEARCH] } }, `tools.disabled "${SEARCH}" blocks ${SEARCH}`],
      [{ tools: { exclude: [REMEMBER] } }, `tools.exclude "${REMEMBER}" blocks ${REMEMBER}`],
      [{ mcp: { excluded: ['external-*'] } }, 'mcp.excluded "external-*" excludes the server "external-context"'],
      [{ mcp: { allowed: ['other'] } }, 'mcp.allowed does not name the server "external-context", so it is dropped'],
      [{ mcpServers: { 'external-context': { excludeTools: ['context_remember'] } } }, 'mcpServers.external-context.excludeTools drops context_remember'],
    ];
    for (const [extra, message] of cases) {
      const result = await items(writeConfig, writeSettings(extra));
      expect(result.code).toBe(1);
      expect(byId(result.items, 'settings.tool-rules')).toEqual({
        id: 'settings.tool-rules',
        status: 'fail',
        message: `${message}.`,
        hint: "Remove those rules (or narrow them so they no longer name the profile's tools or server).",
      });
    }
  });

  test('rules for other tools and servers pass: deny of Bash, tools.disabled of a built-in, mcp.excluded of another server, mcp.allowed naming this one', async () => {
    const result = await items(
      writeConfig,
      writeSettings({
        permissions: { allow: [SEARCH], ask: [REMEMBER], deny: ['run_shell_command', 'mcp__other'] },
        tools: { disabled: ['enter_plan_mode'] },
        mcp: { excluded: ['other-*'], allowed: ['external-context'] },
      }),
    );
    expect(byId(result.items, 'settings.tool-rules')?.status).toBe('ok');
  });
});
