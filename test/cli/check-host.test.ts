// `check --host claude|gemini|codex` (config.md §11; issue 25 §4.2, issue 29 item 7): every shipped
// example of each host, with the executable and configuration paths replaced, passes by that
// host's rules with no item failing; the Qwen hints (permissions.allow for Gemini CLI,
// alwaysLoadTools, timeout 8000 for Claude Code) never appear; broken copies fail with the host's
// own hint. In-process through the dispatch table, against real files.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run as runDispatch } from '../../src/cli/dispatch.ts';
import { readExample } from '../contracts/examples-files.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type CheckItem, runCheckJson } from '../support/check-json.ts';
import { runInMemory } from '../support/memory-io.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

const VAR_SEARCH = 'CONTEXT_API_TOKEN';
const VAR_WRITE = 'MEM0_API_KEY';

let tmp: TempDir;
let mem0: Mem0ServerFake;
let counter = 0;
const configs: Record<'search' | 'write' | 'recall', string> = { search: '', write: '', recall: '' };

function file(content: unknown): string {
  const target = path.join(tmp.path, `file-${++counter}.json`);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(target, 0o644);
  return target;
}

/** A shipped example with the placeholder executable (the test runtime, as in-process check sees itself) and configuration replaced. */
function example(name: string): string {
  const text = JSON.stringify(readExample(name))
    .replaceAll('/opt/external-context/bin/external-context', process.execPath)
    .replaceAll('/etc/external-context/search.json', configs.search)
    .replaceAll('/etc/external-context/write.json', configs.write)
    .replaceAll('/etc/external-context/auto-recall.json', configs.recall);
  return file(text);
}

beforeAll(async () => {
  tmp = await makeTempDir('ec-check-host-');
  mem0 = await startMem0ServerFake({ routes: 'stock', apiKey: 'x' });
  configs.search = file({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: VAR_SEARCH } });
  configs.write = file({
    version: 1,
    provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR_WRITE, scope: { userId: 'u1' } },
    write: { enabled: true },
  });
  const repo = path.join(tmp.path, 'repo');
  mkdirSync(repo);
  configs.recall = file({ version: 2, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: VAR_SEARCH }, autoRecall: { repositoryRoot: repo } });
});

afterAll(async () => {
  await mem0.close();
  await tmp.remove();
});

async function check(args: readonly string[]): Promise<{ code: number; items: CheckItem[]; stderr: string }> {
  const { code, items, stderr } = await runCheckJson(args, { [VAR_SEARCH]: 't', [VAR_WRITE]: 't' });
  return { code, items, stderr };
}

const managed = (items: CheckItem[]): CheckItem[] => items.filter((entry) => entry.id.startsWith('mcp-config') || entry.id.startsWith('settings'));

describe('every shipped example passes check --host for its host', () => {
  const cases: [string, 'search' | 'write' | 'recall', string[]][] = [
    ['claude', 'search', ['--mcp-config', 'claude-code/managed-search-mcp.json', '--settings', 'claude-code/managed-search-settings.json']],
    ['claude', 'write', ['--mcp-config', 'claude-code/managed-write-mcp.json', '--settings', 'claude-code/managed-write-settings.json']],
    ['claude', 'recall', ['--settings', 'claude-code/managed-auto-recall-settings.json']],
    ['gemini', 'search', ['--mcp-config', 'gemini-cli/managed-search-settings.json', '--settings', 'gemini-cli/managed-search-settings.json']],
    ['gemini', 'write', ['--mcp-config', 'gemini-cli/managed-write-settings.json', '--settings', 'gemini-cli/managed-write-settings.json']],
    ['gemini', 'recall', ['--settings', 'gemini-cli/managed-auto-recall-settings.json']],
  ];
  for (const [host, profile, args] of cases) {
    test(`--host ${host}, ${args.filter((arg) => !arg.startsWith('--')).join(' and ')}: no item fails, and no Qwen key is suggested`, async () => {
      const files = args.map((arg) => (arg.startsWith('--') ? arg : example(arg)));
      const { code, items } = await check(['--config', configs[profile], '--host', host, ...files]);
      expect(managed(items).filter((entry) => entry.status !== 'ok')).toEqual([]);
      expect(code).toBe(0);
      const text = JSON.stringify(items);
      for (const qwenOnly of ['alwaysLoadTools', 'slashCommands', '"timeout": 8000' /* Claude reads seconds */]) if (host === 'claude') expect(text).not.toContain(qwenOnly);
      if (host === 'gemini') for (const key of ['permissions.allow', 'alwaysLoadTools', 'slashCommands']) expect(text).not.toContain(key);
      const ids = managed(items).map((entry) => entry.id);
      if (profile === 'write') expect(ids).toEqual(expect.arrayContaining(['settings.permissions', 'settings.write-hook', 'settings.other-hooks', 'settings.tool-rules']));
      if (profile === 'recall') expect(ids).toContain('settings.auto-recall-hook');
    });
  }

  // This machine has no /etc/codex/requirements.toml; the ok case runs under the managed paths
  // (test/e2e/codex-managed.tier.ts), where the Hook's same rule passes.
  test("--host codex with a write configuration: the requirements file the write Hook reads is checked by the Hook's own rule", async () => {
    const toml = file('[mcp_servers.external-context]\n');
    const { code, items } = await check(['--config', configs.write, '--host', 'codex', '--settings', toml]);
    expect(code).toBe(1);
    expect(items.find((entry) => entry.id === 'settings.approvals-reviewer')).toMatchObject({
      status: 'fail',
      hint: 'Install contracts/examples/codex/write-requirements.toml as /etc/codex/requirements.toml, owned by root, mode 0644.',
    });
    const search = await check(['--config', configs.search, '--host', 'codex', '--settings', toml]);
    expect(search.items.some((entry) => entry.id === 'settings.approvals-reviewer')).toBe(false);
  });

  test('an unknown --host is a usage error (exit 2)', async () => {
    const result = await runInMemory(runDispatch, ['check', '--host', 'cursor'], { env: {}, cwd: REPO_ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--host must be qwen, claude, gemini or codex.');
  });
});

describe("broken copies fail with the host's own hint", () => {
  test('claude: a Qwen fragment (timeout 8000, no --host) fails the write Hook; missing alwaysLoad fails with writes; allow for context_remember fails', async () => {
    const qwenHook = JSON.parse((await runInMemory(runDispatch, ['hook', 'settings', 'write', '--executable', process.execPath], { env: {}, cwd: REPO_ROOT })).stdout) as Record<string, unknown>;
    const settings = file({ permissions: { allow: ['mcp__external-context__context_search', 'mcp__external-context__context_remember'] }, ...qwenHook });
    const mcp = file({ mcpServers: { 'external-context': { command: process.execPath, args: ['serve', '--config', configs.write] } } });
    const { code, items } = await check(['--config', configs.write, '--host', 'claude', '--mcp-config', mcp, '--settings', settings]);
    expect(code).toBe(1);
    const byId = (id: string): CheckItem | undefined => items.find((entry) => entry.id === id);
    expect(byId('mcp-config.always-load')).toMatchObject({ status: 'fail', hint: 'Set "alwaysLoad": true in the server entry.' });
    expect(byId('settings.permissions')?.status).toBe('fail');
    expect(byId('settings.permissions')?.message).toContain("so writes run without Claude Code's confirmation");
    expect(byId('settings.write-hook')).toMatchObject({ status: 'fail', hint: 'Use the command external-context hook settings write --host claude prints for this deployment.' });
  });

  test('gemini: trust true, includeTools wider than the profile, and context_remember in tools.allowed fail', async () => {
    const text = JSON.parse(
      JSON.stringify(readExample('gemini-cli/managed-search-settings.json'))
        .replaceAll('/opt/external-context/bin/external-context', process.execPath)
        .replaceAll('/etc/external-context/search.json', configs.search),
    ) as { mcpServers: Record<string, { trust?: boolean; includeTools?: string[] }>; tools: { allowed: string[] } };
    const server = text.mcpServers['external-context']!;
    server.trust = true;
    server.includeTools = ['context_search', 'context_remember'];
    text.tools.allowed.push('mcp_external-context_context_remember');
    const settings = file(text);
    const { code, items } = await check(['--config', configs.search, '--host', 'gemini', '--mcp-config', settings, '--settings', settings]);
    expect(code).toBe(1);
    const status = Object.fromEntries(managed(items).map((entry) => [entry.id, entry.status]));
    expect(status).toMatchObject({ 'mcp-config.trust': 'fail', 'mcp-config.include-tools': 'fail', 'settings.permissions': 'fail' });
  });
});

describe('a server entry written for another host says --host may be wrong', () => {
  test('--host claude given the Qwen Code example: a warning naming --host qwen; --host qwen given the Claude Code example: the same, besides the includeTools failure', async () => {
    const qwenFile = example('managed-search-mcp.json');
    const asClaude = await check(['--config', configs.search, '--host', 'claude', '--mcp-config', qwenFile]);
    const claudeShape = asClaude.items.find((entry) => entry.id === 'mcp-config.host');
    expect(claudeShape).toEqual({
      id: 'mcp-config.host',
      status: 'warn',
      message: 'The server entry has "alwaysLoadTools", "includeTools", keys of Qwen Code, not of Claude Code: it looks written for Qwen Code.',
      hint: 'If the file is for Qwen Code, run check with --host qwen; if it is for Claude Code, start from its example (docs/deploy.md, "Other coding agents").',
    });

    const claudeFile = example('claude-code/managed-search-mcp.json');
    const asQwen = await check(['--config', configs.search, '--host', 'qwen', '--mcp-config', claudeFile]);
    expect(asQwen.code).toBe(1);
    expect(asQwen.items.find((entry) => entry.id === 'mcp-config.include-tools')?.status).toBe('fail');
    expect(asQwen.items.find((entry) => entry.id === 'mcp-config.host')).toMatchObject({ status: 'warn', hint: expect.stringContaining('run check with --host claude;') });

    const asGemini = await check(['--config', configs.search, '--host', 'gemini', '--mcp-config', claudeFile]);
    expect(asGemini.items.find((entry) => entry.id === 'mcp-config.host')?.message).toContain('it looks written for Claude Code.');
  });

  test('a file of the right host, or one with no host-specific key, gets no such item', async () => {
    const bare = file({ mcpServers: { 'external-context': { command: process.execPath, args: ['serve', '--config', configs.search] } } });
    for (const [host, mcp] of [
      ['claude', example('claude-code/managed-search-mcp.json')],
      ['qwen', example('managed-search-mcp.json')],
      ['gemini', example('gemini-cli/managed-search-settings.json')],
      ['claude', bare],
      ['qwen', bare],
    ] as const) {
      const { items } = await check(['--config', configs.search, '--host', host, '--mcp-config', mcp]);
      expect(items.some((entry) => entry.id === 'mcp-config.host')).toBe(false);
    }
  });
});
