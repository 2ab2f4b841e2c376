// The `check` checklist (docs/design/config.md §11): every item in a fixed order, computed once
// and rendered as lines or `--json` by cli/check.ts. Network traffic only for `--search` and
// `--probe`. Never imports the MCP SDK.
import { ConfigError } from '../config/config-error.ts';
import { isCredentialUnavailable } from '../config/credential.ts';
import { type ConfigFlag, locateConfig } from '../config/locate.ts';
import { readConfigJson } from '../config/read-file.ts';
import type { Envelope } from '../contract/envelope.ts';
import { type FailureClass, operatorLabel } from '../providers/failure.ts';
import { type OpenBinding, openBinding } from '../search/open-binding.ts';
import { runSearch } from '../search/run-search.ts';
import { type CheckItem, clip, item, printable } from './check-item.ts';
import { configFileItem, placeholderItem } from './config-file.ts';
import { credentialItem, credentialVariable } from './credential.ts';
import type { HookHost } from '../hooks/hosts.ts';
import { hostMcpConfigItems, hostSettingsItems } from './host-files.ts';
import { hookOutcomesItem } from './hook-outcomes.ts';
import { managedFileTrustItem } from './managed-file-trust.ts';
import { launchProfileItems, mcpConfigItems, settingsItems } from './managed-files.ts';
import { probeItem } from './probe-item.ts';

/** What `check` was asked to look at. */
export interface DiagnoseRequest {
  readonly configFlag: ConfigFlag;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--search` query, or undefined. */
  readonly query: string | undefined;
  /** `--probe`. */
  readonly probe: boolean;
  /** The optional managed files, as given (absolute paths expected). */
  readonly files: { readonly mcpConfig?: string | undefined; readonly settings?: string | undefined; readonly launchProfile?: string | undefined; readonly host?: HookHost | undefined };
  /** The running standalone executable; undefined when a runtime runs the bundle. */
  readonly self?: string | undefined;
}

/** What `--search` produced, for the result lines and the `search` JSON key. */
export interface SearchReport {
  readonly ok: boolean;
  /** The text `T`, or the tool's error text. */
  readonly text: string;
  /** Integer milliseconds around the whole search. */
  readonly latencyMs: number;
  readonly envelope: Envelope | null;
  /** The operator line of docs/design/providers.md §1.6 for a provider failure. */
  readonly operatorLine?: string;
  /** The failure class of a failed search (docs/design/providers.md §1.6), with its HTTP status where it has one. */
  readonly failure?: { readonly class: FailureClass; readonly status?: number };
}

/** The checklist and what the binding lines need. */
export interface DiagnoseReport {
  readonly items: readonly CheckItem[];
  /** The loaded binding, when the configuration loaded. */
  readonly opened?: OpenBinding;
  /** The load failure (a ConfigError, or anything else), when it did not. */
  readonly loadError?: unknown;
  readonly search?: SearchReport;
}

const CONFIG_PATH_HINT = 'Pass --config <absolute path> or set QWEN_EXTERNAL_CONTEXT_CONFIG to the configuration file.';

/**
 * Builds the checklist: `config-path` (only when it fails), `config-file`, `placeholders`,
 * `configuration`, `credential`, then `search`, `probe`, `mcp-config.*`, `settings.*` and
 * `launch-profile.*` when asked for. Never throws for a finding.
 *
 * @see docs/design/config.md §11
 */
export async function diagnose(request: DiagnoseRequest): Promise<DiagnoseReport> {
  const loaded = await configurationItems(request);
  const { items, opened, configPath } = loaded;
  let search: SearchReport | undefined;
  if (request.query !== undefined) {
    if (loaded.placeholdersLeft) {
      items.push(
        item(
          'search',
          'fail',
          'Not run: the configuration still holds placeholder values, so a search would go to an example host with the credential.',
          'Replace the placeholder values named above, then run check --search again.',
        ),
      );
    } else if (opened === undefined) {
      items.push(item('search', 'fail', 'Not run: the configuration did not load.', 'Fix the failed items above, then run check --search again.'));
    } else {
      const ran = await searchOnce(opened, request.query);
      search = ran.report;
      items.push(ran.item);
    }
  }
  if (request.probe) {
    items.push(
      loaded.placeholdersLeft
        ? item(
            'probe',
            'fail',
            'Not run: the configuration still holds placeholder values, so the probe would go to an example host with the credential.',
            'Replace the placeholder values named above, then run check --probe again.',
          )
        : await probeItem(opened, configPath, request.env),
    );
  }
  items.push(...(await managedFileItems(request, opened)));
  const hookLog = hookOutcomesItem(request.env);
  if (hookLog !== undefined) items.push(hookLog);

  return {
    items,
    ...(opened === undefined ? {} : { opened }),
    ...(loaded.loadError === undefined ? {} : { loadError: loaded.loadError }),
    ...(search === undefined ? {} : { search }),
  };
}

/** What the configuration items found: the items, the binding when it loaded, and what stops a request. */
interface ConfigurationItems {
  readonly items: CheckItem[];
  readonly opened: OpenBinding | undefined;
  readonly loadError: unknown;
  readonly configPath: string | undefined;
  /** A failed placeholders item stops every item that would send a request (issue 25 §4.5). */
  readonly placeholdersLeft: boolean;
}

/** `config-path` (only when it fails), `config-file`, `placeholders`, `configuration` and `credential`. */
async function configurationItems(request: DiagnoseRequest): Promise<ConfigurationItems> {
  const items: CheckItem[] = [];
  let opened: OpenBinding | undefined;
  let loadError: unknown;
  let configPath: string | undefined;
  let placeholdersLeft = false;
  try {
    configPath = locateConfig(request.configFlag, request.env);
  } catch (error) {
    loadError = error;
    items.push(item('config-path', 'fail', error instanceof ConfigError ? error.message : 'The configuration path could not be determined.', CONFIG_PATH_HINT));
  }
  if (configPath !== undefined) {
    items.push(await configFileItem(configPath));
    let parsed: unknown;
    try {
      parsed = await readConfigJson(configPath);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) {
      const placeholders = placeholderItem(parsed, request.env);
      items.push(placeholders);
      placeholdersLeft = placeholders.status === 'fail';
    }
    try {
      opened = await openBinding(request.configFlag, request.env);
      const { binding } = opened;
      const preset = binding.provider.type === 'mem0' ? `, preset ${binding.provider.preset}` : '';
      items.push(item('configuration', 'ok', `Valid: version ${binding.version}, provider ${binding.provider.type}${preset}, writes ${binding.writeEnabled ? 'enabled' : 'disabled'}.`));
    } catch (error) {
      loadError = error;
      const field = error instanceof ConfigError ? error.fieldPath : undefined;
      items.push(item('configuration', 'fail', error instanceof ConfigError ? error.message : 'External context startup failed.', configurationHint(error, field, configPath)));
    }
    const variable = credentialVariable(parsed);
    if (variable !== undefined) items.push(credentialItem(variable, request.env));
  }
  return { items, opened, loadError, configPath, placeholdersLeft };
}

/** The `mcp-config.*`, `settings.*` and `launch-profile` items of the files asked for, by the host's rules. */
async function managedFileItems(request: DiagnoseRequest, opened: OpenBinding | undefined): Promise<CheckItem[]> {
  const items: CheckItem[] = [];
  const host = request.files.host ?? 'qwen';
  let serverName: string | undefined;
  if (request.files.mcpConfig !== undefined) {
    const mcp = host === 'qwen' ? await mcpConfigItems(request.files.mcpConfig, opened?.binding, request.self) : await hostMcpConfigItems(host, request.files.mcpConfig, opened?.binding, request.self);
    items.push(...mcp.items);
    const trust = await managedFileTrustItem('mcp-config.file', request.files.mcpConfig);
    if (trust !== undefined) items.push(trust);
    serverName = mcp.serverName;
  }
  if (request.files.settings !== undefined) {
    items.push(
      ...(host === 'qwen'
        ? await settingsItems(request.files.settings, opened?.binding, serverName, request.self)
        : await hostSettingsItems(host, request.files.settings, opened?.binding, serverName, request.self)),
    );
    const trust = await managedFileTrustItem('settings.file', request.files.settings);
    if (trust !== undefined) items.push(trust);
  }
  if (request.files.launchProfile !== undefined) items.push(...(await launchProfileItems(request.files.launchProfile, request.env)));
  return items;
}

/**
 * The hint of a failed `configuration` item. An unset or unusable credential is fixed in the
 * environment, not in the file, whose field is then right; other errors name the field to
 * change and the administrator's reference (docs/reference/, not the specification).
 */
function configurationHint(error: unknown, field: string | undefined, configPath: string): string | undefined {
  if (field === undefined) return undefined;
  if (isCredentialUnavailable(error)) {
    return `Set the variable that ${field} names in the environment that runs external-context; the file is right (the credential item says what is wrong with the variable).`;
  }
  return `Change ${field} in ${printable(configPath)} (docs/reference/configuration.md).`;
}

/**
 * Runs one search on the `context_search` code path (`runSearch`): normalization, provider,
 * bounding, escaping. Its timeout is `timeoutMs` (version 1) or `autoRecall.timeoutMs` (version 2).
 *
 * @returns The result for the text lines and its `search` item: the item count and the first
 *   item's id and title, or the failure class and its hint.
 */
async function searchOnce(opened: OpenBinding, query: string): Promise<{ readonly report: SearchReport; readonly item: CheckItem }> {
  const { binding, provider } = opened;
  const timeoutMs = binding.autoRecall !== undefined ? binding.autoRecall.timeoutMs : binding.timeoutMs;
  // The latency starts with the timeout, once the fetch is warmed (docs/design/providers.md §1.4).
  let startedMs = performance.now();
  const outcome = await runSearch(
    provider,
    { query },
    {
      timeoutMs,
      onStart: () => {
        startedMs = performance.now();
      },
    },
  );
  const latencyMs = Math.round(performance.now() - startedMs);
  switch (outcome.status) {
    case 'ok': {
      const envelope = outcome.rendered.structuredContent;
      const report = { ok: true, text: outcome.rendered.text, latencyMs, envelope };
      const count = outcome.itemCount;
      const first = envelope.untrusted_external_context.items[0];
      // redactSecrets (docs/design/config.md §4.3, §11): how many, never what.
      const redacted = binding.redactSecrets ? ` ${outcome.redactions} secret${outcome.redactions === 1 ? '' : 's'} redacted.` : '';
      if (first === undefined) {
        return {
          report,
          item: item('search', 'ok', `0 items in ${latencyMs} ms.${redacted}`, 'The service answered but matched nothing: try a query the corpus surely matches, and check the scope.'),
        };
      }
      const title = first.title === undefined ? '' : `, title "${printable(clip(first.title, 80))}"`;
      return { report, item: item('search', 'ok', `${count} item${count === 1 ? '' : 's'} in ${latencyMs} ms; first: id "${printable(clip(first.id, 80))}"${title}.${redacted}`) };
    }
    case 'invalid-input':
      return {
        report: { ok: false, text: outcome.message, latencyMs, envelope: null },
        item: item('search', 'fail', `The query was refused: ${outcome.message}`, 'Pass a query of 1 to 2000 characters.'),
      };
    case 'failed':
      return {
        report: {
          ok: false,
          text: outcome.message,
          latencyMs,
          envelope: null,
          operatorLine: outcome.operatorLine,
          ...(outcome.failure === undefined ? {} : { failure: { class: outcome.failure.id, ...(outcome.failure.status === undefined ? {} : { status: outcome.failure.status }) } }),
        },
        item:
          outcome.failure === undefined
            ? item('search', 'fail', `Failed after ${latencyMs} ms: an unexpected error.`, 'Run check again; report it if it persists.')
            : item('search', 'fail', `Failed after ${latencyMs} ms: ${operatorLabel(outcome.failure)}.`, outcome.failure.hint),
      };
  }
}

/**
 * The checklist as text lines: `<status> <id>: <message>`, the hint on the next line, then one
 * summary line.
 */
export function renderChecklist(items: readonly CheckItem[]): string[] {
  const lines = ['Checklist:'];
  for (const entry of items) {
    lines.push(`  ${entry.status.padEnd(4)}  ${entry.id}: ${entry.message}`);
    if (entry.hint !== undefined) lines.push(`        hint: ${entry.hint}`);
  }
  const count = (status: CheckItem['status']): number => items.filter((entry) => entry.status === status).length;
  const failed = count('fail');
  const warnings = count('warn');
  lines.push(`${failed === 0 ? 'No item failed' : `${failed} item${failed === 1 ? '' : 's'} failed`}: ${count('ok')} ok, ${warnings} warning${warnings === 1 ? '' : 's'}, ${failed} failed.`);
  return lines;
}
