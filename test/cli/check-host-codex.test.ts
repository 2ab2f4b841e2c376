// `check --host codex` (config.md §11; issue 29 item 7, issue 25 §4.2): Codex's config.toml by
// Codex's own rules. Every shipped example, with the executable and configuration paths
// replaced, passes with no item failing (but `settings.approvals-reviewer`, which reads
// /etc/codex/requirements.toml: absent here, ok under the managed paths in
// test/e2e/codex-managed.tier.ts); each planted fault fails exactly its item; a syntax error
// names its line and never the text on it. In-process through the dispatch table, real files.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR } from '../contracts/examples-files.ts';
import { startMem0ServerFake, type Mem0ServerFake } from '../fakes/mem0-server.ts';
import { type CheckItem, runCheckJson } from '../support/check-json.ts';
import { makeTempDir, type TempDir } from '../support/temp-dir.ts';

const VAR_SEARCH = 'CONTEXT_API_TOKEN';
const VAR_WRITE = 'MEM0_API_KEY';
const CANARY = 'canary-toml-secret-7f3a';
/** Reads /etc/codex/requirements.toml, which a test cannot place on a shared machine. */
const REQUIREMENTS = 'settings.approvals-reviewer';

let tmp: TempDir;
let mem0: Mem0ServerFake;
let counter = 0;
const configs: Record<'search' | 'write' | 'recall', string> = { search: '', write: '', recall: '' };

function file(content: string, extension = 'toml'): string {
  const target = path.join(tmp.path, `file-${++counter}.${extension}`);
  writeFileSync(target, content);
  chmodSync(target, 0o644);
  return target;
}

/** A shipped Codex example, edited before the placeholder executable (the test runtime) and configurations are replaced. */
function example(name: string, edit: (text: string) => string = (text) => text): string {
  const text = edit(readFileSync(path.join(EXAMPLES_DIR, 'codex', name), 'utf8'));
  expect(text).toContain('external-context');
  return file(
    text
      .replaceAll('/opt/external-context/bin/external-context', process.execPath)
      .replaceAll('/etc/external-context/search.json', configs.search)
      .replaceAll('/etc/external-context/write.json', configs.write)
      .replaceAll('/etc/external-context/auto-recall.json', configs.recall),
  );
}

beforeAll(async () => {
  tmp = await makeTempDir('ec-check-codex-');
  mem0 = await startMem0ServerFake({ routes: 'stock', apiKey: 'x' });
  configs.search = file(JSON.stringify({ version: 1, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: VAR_SEARCH } }), 'json');
  configs.write = file(
    JSON.stringify({
      version: 1,
      provider: { type: 'mem0', preset: 'mem0-server-rest-2026-08', endpoint: { origin: mem0.origin }, credentialEnv: VAR_WRITE, scope: { userId: 'u1' } },
      write: { enabled: true },
    }),
    'json',
  );
  const repo = path.join(tmp.path, 'repo');
  mkdirSync(repo);
  configs.recall = file(
    JSON.stringify({ version: 2, provider: { type: 'generic-http-search-v1', baseUrl: 'http://127.0.0.1:9', tokenEnv: VAR_SEARCH }, autoRecall: { repositoryRoot: repo } }),
    'json',
  );
});

afterAll(async () => {
  await mem0.close();
  await tmp.remove();
});

async function check(args: readonly string[]): Promise<{ code: number; items: CheckItem[]; stdout: string; stderr: string }> {
  const { code, items, stdout, stderr } = await runCheckJson(args, { [VAR_SEARCH]: 't', [VAR_WRITE]: 't' });
  return { code, items, stdout, stderr };
}

const managed = (items: CheckItem[]): CheckItem[] => items.filter((entry) => entry.id.startsWith('mcp-config') || entry.id.startsWith('settings'));
const failing = (items: CheckItem[]): string[] =>
  managed(items)
    .filter((entry) => entry.status !== 'ok' && entry.id !== REQUIREMENTS)
    .map((entry) => entry.id);

/** The managed items' ids, but the file-trust items (managed-file-trust.ts) every host has. */
const ids = (items: CheckItem[]): string[] =>
  managed(items)
    .map((entry) => entry.id)
    .filter((id) => !id.endsWith('.file'));

/** check --host codex of one config.toml as both --mcp-config and --settings. */
function checkWrite(toml: string): ReturnType<typeof check> {
  return check(['--config', configs.write, '--host', 'codex', '--mcp-config', toml, '--settings', toml]);
}

describe('every shipped Codex example passes check --host codex', () => {
  test('search-config.toml: the server entry, no warning, no JSON host key suggested', async () => {
    const toml = example('search-config.toml');
    const { code, items } = await check(['--config', configs.search, '--host', 'codex', '--mcp-config', toml, '--settings', toml]);
    expect(managed(items).filter((entry) => entry.status !== 'ok')).toEqual([]);
    expect(code).toBe(0);
    expect(ids(items)).toEqual(['mcp-config', 'mcp-config.executable', 'mcp-config.args', 'mcp-config.config-path', 'mcp-config.enabled-tools', 'settings']);
    const text = JSON.stringify(items);
    for (const key of ['mcpServers', 'includeTools', 'alwaysLoad', 'permissions.', 'excludeTools', 'timeout": 8000']) expect(text).not.toContain(key);
  });

  test('write-config.toml: reviewer, approval mode, the write Hook and no other Hook over context_remember', async () => {
    const { items } = await checkWrite(example('write-config.toml'));
    expect(failing(items)).toEqual([]);
    expect(ids(items)).toEqual([
      'mcp-config',
      'mcp-config.executable',
      'mcp-config.args',
      'mcp-config.config-path',
      'mcp-config.enabled-tools',
      'mcp-config.approval-mode',
      'settings',
      'settings.config-reviewer',
      'settings.write-hook',
      'settings.other-hooks',
      REQUIREMENTS,
    ]);
  });

  test('auto-recall-config.toml: the UserPromptSubmit Hook', async () => {
    const { code, items } = await check(['--config', configs.recall, '--host', 'codex', '--settings', example('auto-recall-config.toml')]);
    expect(managed(items).filter((entry) => entry.status !== 'ok')).toEqual([]);
    expect(code).toBe(0);
    expect(ids(items)).toEqual(['settings', 'settings.auto-recall-hook']);
  });
});

describe('a planted fault fails exactly its item, with a Codex hint', () => {
  const other = '\n[[hooks.PreToolUse]]\nmatcher = ".*"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "/usr/bin/true"\ntimeout = 8\n';
  const cases: [string, string, (text: string) => string][] = [
    ['no approvals_reviewer', 'settings.config-reviewer', (text) => text.replace('approvals_reviewer = "user"\n', '')],
    ['approvals_reviewer = "auto_review"', 'settings.config-reviewer', (text) => text.replace('approvals_reviewer = "user"', 'approvals_reviewer = "auto_review"')],
    ['context_remember auto-approved', 'mcp-config.approval-mode', (text) => text.replace('approval_mode = "prompt"', 'approval_mode = "approve"')],
    ['enabled_tools without context_remember', 'mcp-config.enabled-tools', (text) => text.replace('enabled_tools = ["context_search", "context_remember"]', 'enabled_tools = ["context_search"]')],
    ['disabled_tools hides context_remember', 'mcp-config.enabled-tools', (text) => text.replace('tool_timeout_sec = 8\n', 'tool_timeout_sec = 8\ndisabled_tools = ["context_remember"]\n')],
    ['the server disabled', 'mcp-config.enabled-tools', (text) => text.replace('tool_timeout_sec = 8\n', 'tool_timeout_sec = 8\nenabled = false\n')],
    ['serve --http', 'mcp-config.args', (text) => text.replace('args = ["serve", "--config"', 'args = ["serve", "--http", "--config"')],
    [
      '--config twice',
      'mcp-config.args',
      (text) =>
        text.replace('args = ["serve", "--config", "/etc/external-context/write.json"', 'args = ["serve", "--config", "/etc/external-context/write.json", "--config=/etc/external-context/write.json"'),
    ],
    ['another configuration pinned', 'mcp-config.config-path', (text) => text.replace('"--config", "/etc/external-context/write.json"', '"--config", "/etc/external-context/other.json"')],
    ['a relative command', 'mcp-config.executable', (text) => text.replace('command = "/opt/external-context/bin/external-context"', 'command = "external-context"')],
    ['the Hook answers in the qwen format', 'settings.write-hook', (text) => text.replace(' hook write-confirmation --host codex"', ' hook write-confirmation"')],
    ['the Hook timeout in milliseconds', 'settings.write-hook', (text) => text.replace('timeout = 8\nstatusMessage = "Confirming', 'timeout = 8000\nstatusMessage = "Confirming')],
    ['the Hook matcher not anchored', 'settings.write-hook', (text) => text.replace('matcher = "^mcp__external_context__context_remember$"', 'matcher = "context_remember"')],
    ['no write Hook', 'settings.write-hook', (text) => text.slice(0, text.indexOf('[[hooks.PreToolUse]]'))],
    ['another Hook covers context_remember', 'settings.other-hooks', (text) => text + other],
  ];
  for (const [name, id, edit] of cases) {
    test(`${name}: ${id} fails`, async () => {
      const { code, items } = await checkWrite(example('write-config.toml', edit));
      expect(code).toBe(1);
      expect(failing(items)).toEqual([id]);
      const found = items.find((entry) => entry.id === id)!;
      expect(found.hint).toBeDefined();
      for (const key of ['mcpServers', 'includeTools', 'alwaysLoad', 'permissions.']) expect(JSON.stringify(found)).not.toContain(key);
    });
  }

  test('a search entry without the server: mcp-config fails and names the example', async () => {
    const toml = example('search-config.toml', (text) => text.replaceAll('[mcp_servers.external-context', '[mcp_servers.other').replace('args = ["serve", ', 'args = ['));
    const { code, items } = await check(['--config', configs.search, '--host', 'codex', '--mcp-config', toml]);
    expect(code).toBe(1);
    expect(items.find((entry) => entry.id === 'mcp-config')).toMatchObject({ status: 'fail', hint: expect.stringContaining('contracts/examples/codex/search-config.toml') });
  });

  test('a missing write Hook: the hint names the TOML tables of the Codex example, not a JSON fragment', async () => {
    const { items } = await checkWrite(example('write-config.toml', (text) => text.slice(0, text.indexOf('[[hooks.PreToolUse]]'))));
    expect(items.find((entry) => entry.id === 'settings.write-hook')?.hint).toBe(
      'Add the [[hooks.*]] tables of contracts/examples/codex/write-config.toml: the output of external-context hook settings write --host codex as TOML tables (docs/deploy.md).',
    );
  });

  test('the auto-recall Hook pinning another configuration fails', async () => {
    const toml = example('auto-recall-config.toml', (text) => text.replace('/etc/external-context/auto-recall.json', '/etc/external-context/other.json'));
    const { code, items } = await check(['--config', configs.recall, '--host', 'codex', '--settings', toml]);
    expect(code).toBe(1);
    expect(failing(items)).toEqual(['settings.auto-recall-hook']);
  });

  test('a TOML syntax error fails naming its line, never the text on it', async () => {
    const toml = file(`approvals_reviewer = "user"\n\n[mcp_servers.${CANARY}\ncommand = "x"\n`);
    const { code, items, stdout, stderr } = await checkWrite(toml);
    expect(code).toBe(1);
    for (const id of ['mcp-config', 'settings']) {
      const found = items.find((entry) => entry.id === id)!;
      expect(found.status).toBe('fail');
      expect(found.message).toContain('is not valid TOML (line 3)');
      expect(found.hint).toContain('contracts/examples/codex/');
    }
    expect(stdout + stderr).not.toContain(CANARY);
  });

  test('a file that is not UTF-8 or too deeply nested fails without a parser message', async () => {
    const binary = path.join(tmp.path, 'binary.toml');
    writeFileSync(binary, Buffer.from([0x61, 0x3d, 0x22, 0xff, 0xfe, 0x22, 0x0a]));
    expect((await checkWrite(binary)).items.find((entry) => entry.id === 'settings')?.message).toContain('is not UTF-8');
    const deep = file(`a = ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
    expect((await checkWrite(deep)).items.find((entry) => entry.id === 'settings')?.message).toMatch(/is not valid TOML \(line 1\)\.$/u);
  });
});
