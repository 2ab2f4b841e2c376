// `check --host codex` (docs/design/config.md §11, docs/design/agents.md §3; issue 29 item 7,
// issue 25 §4.2): Codex's config.toml by Codex's own rules. The `mcp_servers.<key>` entry runs
// exactly the stdio server of this configuration and exposes exactly the profile's tools; with
// writes `approvals_reviewer = "user"`, context_remember keeps Codex's prompt, the `[hooks]`
// write confirmation and no other Hook over it; version 2 the auto-recall Hook. A syntax error
// names its line, never the text on it.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { Binding } from '../config/binding.ts';
import { fileErrorCause } from '../config/read-json-file.ts';
import { HOOK_HOST_FACTS } from '../hooks/hosts.ts';
import { CODEX_REQUIREMENTS_PATH, codexReviewerIsPerson } from '../hooks/person-confirms.ts';
import { checkAdminFile } from '../launch/file-checks.ts';
import { type CheckItem, item, printable } from './check-item.ts';
import { hookItem } from './hook-item.ts';
import { type CodexServer, CodexConfigSchema, CodexServerSchema, readShape } from './managed-file-schemas.ts';
import { configPathItem, findServer, otherExecutable, profileTools, type SelfExecutable } from './server-entry.ts';
import { argsProblem } from './server-entry-args.ts';
import { otherWriteHooksItem } from './tool-rules.ts';

/** Largest config.toml read, in bytes (as for the JSON settings). */
const MAX_TOML_BYTES = 1_048_576;
/** Deepest inline array or table nesting parsed (the examples use 1). */
const MAX_TOML_DEPTH = 32;
const EXAMPLES = 'contracts/examples/codex/';
const WHERE = '/etc/codex/managed_config.toml';

/**
 * Reads and parses a Codex TOML file, or says why not: a fixed cause, with the line of a syntax
 * error. The parser's own message quotes the line, so it is never shown.
 */
export async function readCodexToml(filePath: string): Promise<{ readonly value: Record<string, unknown> } | { readonly cause: string }> {
  if (!path.isAbsolute(filePath)) return { cause: 'is not an absolute path' };
  let text: string;
  try {
    const stats = await stat(filePath);
    if (!stats.isFile() || stats.size > MAX_TOML_BYTES) return { cause: 'is not a regular file of at most 1 MiB' };
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(filePath));
  } catch (error) {
    return { cause: error instanceof TypeError ? 'is not UTF-8' : fileErrorCause(error) };
  }
  if (text.length > MAX_TOML_BYTES) return { cause: 'is not a regular file of at most 1 MiB' };
  try {
    return { value: parse(text, { maxDepth: MAX_TOML_DEPTH, unsafeKeyBehaviour: 'drop' }) as Record<string, unknown> };
  } catch (error) {
    return { cause: error instanceof TomlError && Number.isSafeInteger(error.line) ? `is not valid TOML (line ${error.line})` : 'is not valid TOML' };
  }
}

function unreadable(id: string, filePath: string, cause: string): CheckItem {
  return item(id, 'fail', `${printable(filePath)}: ${cause}.`, `Pass the absolute path of Codex's config.toml (${WHERE}) and start from ${EXAMPLES}.`);
}

/** Whether two tool lists hold the same names. */
function sameTools(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && expected.every((tool) => actual.includes(tool));
}

/**
 * The `mcp-config.*` items for Codex's config.toml: the `mcp_servers` entry that runs `serve`,
 * its executable (`mcp-config.executable`), `mcp-config.args`, `mcp-config.config-path`,
 * `mcp-config.enabled-tools` (exactly the profile's tools, none disabled, the server enabled)
 * and, with writes, `mcp-config.approval-mode` (context_remember keeps `approval_mode = "prompt"`).
 */
export async function codexMcpConfigItems(filePath: string, binding: Binding | undefined, self?: SelfExecutable): Promise<{ items: CheckItem[]; serverName?: string }> {
  const read = await readCodexToml(filePath);
  if ('cause' in read) return { items: [unreadable('mcp-config', filePath, read.cause)] };
  const shown = printable(filePath);
  const servers = readShape(CodexConfigSchema, read.value)?.mcp_servers;
  const found = servers === undefined ? undefined : findServer(servers);
  if (found === undefined)
    return { items: [item('mcp-config', 'fail', `${shown}: no mcp_servers entry runs "external-context serve".`, `Add the [mcp_servers.external-context] table of ${EXAMPLES}search-config.toml.`)] };
  const [name, raw] = found;
  // findServer returns tables only, which the lenient server schema always reads.
  const entry = readShape(CodexServerSchema, raw) as CodexServer;
  const where = `mcp_servers.${printable(name)}`;
  const items = [item('mcp-config', 'ok', `${shown}: server "${printable(name)}" runs serve.`)];
  const command = entry.command;
  const reason = command !== undefined ? await checkAdminFile(command) : 'is missing';
  items.push(
    reason === undefined && command !== undefined
      ? ((await otherExecutable('mcp-config.executable', 'The server entry', command, self)) ?? item('mcp-config.executable', 'ok', `${printable(command)} exists and other users cannot write it.`))
      : item('mcp-config.executable', 'fail', `${where}.command ${reason}.`, 'Install the executable at an absolute path only the administrator can write, and name it in command.'),
  );
  const problem = argsProblem(entry.args ?? []);
  items.push(
    problem === undefined
      ? item('mcp-config.args', 'ok', `${where}.args run the stdio server of one configuration.`)
      : item(
          'mcp-config.args',
          'fail',
          `${where} is not exactly the stdio server of this configuration: ${problem}.`,
          `Set args = ["serve", "--config", "<absolute path>"], as in ${EXAMPLES}search-config.toml.`,
        ),
  );
  items.push(configPathItem(raw, binding));
  items.push(enabledToolsItem(where, entry, profileTools(binding) ?? ['context_search']));
  if (binding?.writeEnabled === true) items.push(approvalModeItem(where, entry));
  return { items, serverName: name };
}

/** `enabled_tools` exactly the profile's tools, `disabled_tools` none of them, `enabled` not false. */
function enabledToolsItem(where: string, entry: CodexServer, expected: readonly string[]): CheckItem {
  const enabled = entry.enabled_tools;
  const disabled = (entry.disabled_tools ?? []).filter((tool) => tool === 'context_search' || tool === 'context_remember');
  const problems: string[] = [];
  if (entry.enabled === false) problems.push(`${where}.enabled is false, so Codex does not start the server`);
  if (enabled === undefined || !sameTools(enabled, expected)) {
    problems.push(`enabled_tools is ${enabled === undefined ? 'missing' : printable(JSON.stringify(enabled))}, but this configuration exposes ${JSON.stringify(expected)}`);
  }
  if (disabled.length > 0) problems.push(`disabled_tools hides ${disabled.map((tool) => `"${tool}"`).join(' and ')}`);
  if (problems.length === 0) return item('mcp-config.enabled-tools', 'ok', `enabled_tools is ${printable(JSON.stringify(enabled))}.`);
  return item('mcp-config.enabled-tools', 'fail', `${problems.join('; ')}.`, `Set enabled_tools = ${JSON.stringify(expected)} in the server table, and remove disabled_tools and enabled = false.`);
}

/** With writes: `[mcp_servers.<key>.tools.context_remember] approval_mode = "prompt"`, so Codex asks. */
function approvalModeItem(where: string, entry: CodexServer): CheckItem {
  const mode = entry.tools?.context_remember?.approval_mode;
  if (mode === 'prompt') return item('mcp-config.approval-mode', 'ok', 'context_remember has approval_mode = "prompt".');
  return item(
    'mcp-config.approval-mode',
    'fail',
    `${where}.tools.context_remember.approval_mode is ${mode === undefined ? 'missing' : printable(JSON.stringify(mode))}, not "prompt", so Codex may run a write without asking a person.`,
    `Add [${where}.tools.context_remember] with approval_mode = "prompt", as in ${EXAMPLES}write-config.toml.`,
  );
}

/**
 * The `settings.approvals-reviewer` item (Codex, writes): the requirements file the write Hook
 * reads, by the Hook's own rule (docs/design/hooks.md §6.2, row 6a), so check and Hook agree.
 */
function requirementsItem(): CheckItem {
  return codexReviewerIsPerson()
    ? item('settings.approvals-reviewer', 'ok', `${CODEX_REQUIREMENTS_PATH} allows only the user as approvals reviewer.`)
    : item(
        'settings.approvals-reviewer',
        'fail',
        `${CODEX_REQUIREMENTS_PATH} does not pin allowed_approvals_reviewers = ["user"] (or is missing, not owned by root, or writable by others), so the write Hook denies every Codex write.`,
        'Install contracts/examples/codex/write-requirements.toml as /etc/codex/requirements.toml, owned by root, mode 0644.',
      );
}

/** A missing Hook's hint names the Codex example's TOML tables, not the JSON `hook settings` prints. */
function asTables(found: CheckItem, example: string): CheckItem {
  if (found.hint?.startsWith('Merge the output of ') !== true) return found;
  return item(
    found.id,
    found.status,
    found.message,
    `Add the [[hooks.*]] tables of ${EXAMPLES}${example}: the output of ${found.hint.slice('Merge the output of '.length, found.hint.indexOf(' into '))} as TOML tables (docs/deploy.md).`,
  );
}

/**
 * The `settings.*` items for Codex's config.toml. Version 1 with writes: `settings.config-reviewer`
 * (`approvals_reviewer = "user"` at the top level), `settings.write-hook` (the `[[hooks.PreToolUse]]`
 * entry with matcher `^mcp__<key with _>__context_remember$`, `--host codex`, timeout 8),
 * `settings.other-hooks` and `settings.approvals-reviewer` (the requirements file). Version 2:
 * `settings.auto-recall-hook` (`[[hooks.UserPromptSubmit]]`).
 */
export async function codexSettingsItems(filePath: string, binding: Binding | undefined, serverName = 'external-context', self?: SelfExecutable): Promise<CheckItem[]> {
  const read = await readCodexToml(filePath);
  if ('cause' in read) return binding?.writeEnabled === true ? [unreadable('settings', filePath, read.cause), requirementsItem()] : [unreadable('settings', filePath, read.cause)];
  const config = readShape(CodexConfigSchema, read.value);
  const items = [item('settings', 'ok', `${printable(filePath)}: readable TOML.`)];
  const hooks = config?.hooks ?? {};
  const facts = HOOK_HOST_FACTS.codex;
  if (binding === undefined || binding.version === 1) {
    if (binding?.writeEnabled !== true) return items;
    const reviewer = config?.approvals_reviewer;
    items.push(
      reviewer === 'user'
        ? item('settings.config-reviewer', 'ok', 'approvals_reviewer is "user".')
        : item(
            'settings.config-reviewer',
            'fail',
            `approvals_reviewer is ${reviewer === undefined ? 'missing' : printable(JSON.stringify(reviewer))}, not "user", so Codex's reviewer model may approve a write.`,
            'Set approvals_reviewer = "user" at the top level, before any [table].',
          ),
    );
    const remember = facts.rememberToolName(serverName);
    items.push(
      asTables(
        await hookItem(hooks, { id: 'settings.write-hook', event: facts.toolEvent, subcommand: 'write-confirmation', matcher: `^${remember}$`, serverName, host: 'codex' }, self),
        'write-config.toml',
      ),
    );
    items.push(otherWriteHooksItem(hooks, facts.toolEvent, remember));
    items.push(requirementsItem());
    return items;
  }
  items.push(
    asTables(
      await hookItem(hooks, { id: 'settings.auto-recall-hook', event: facts.promptEvent, subcommand: 'auto-recall', matcher: undefined, configPath: binding.configPath, host: 'codex' }, self),
      'auto-recall-config.toml',
    ),
  );
  return items;
}
