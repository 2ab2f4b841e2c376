// `external-context check`: the complete load a server would do (same code, same errors), then
// the binding on stdout; `--search` runs one real search through runSearch (docs/design/config.md §11).
// Never imports the MCP SDK.
import { withDeadline } from '../util/with-deadline.ts';
import { prepareRuntimeFetch } from '../runtime/runtime-fetch.ts';
import type { Binding } from '../config/binding.ts';
import { ConfigError } from '../config/config-error.ts';
import { SCOPE_KEYS, type ScopeKey } from '../config/presets.ts';
import type { Envelope } from '../contract/envelope.ts';
import { stringifyEscaped } from '../contract/escape.ts';
import type { BoundProvider } from '../providers/types.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { openBinding } from '../search/open-binding.ts';
import { runSearch } from '../search/run-search.ts';
import { versionLine } from '../version.ts';
import { extractConfigFlag } from './config-flag.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeErr, writeError, writeOut } from './io.ts';
import { parseFlags } from './parse-flags.ts';

/** `check --help`. */
export const help = `${versionLine()}
Validate a configuration exactly as the MCP server and the auto-recall Hook load it, and show
what it binds. Without --search it makes no network request.

USAGE
  external-context check [--config <abs path>] [--search <query>] [--json]

OPTIONS
  --config <abs path>   Configuration file (default: $QWEN_EXTERNAL_CONTEXT_CONFIG).
  --search <query>      Also run one real context_search and print its result text and the
                        latency in ms. Timeout: timeoutMs (version 1) or autoRecall.timeoutMs
                        (version 2). (default: no search)
  --json                Print one JSON object (2-space indentation) instead of lines.
                        (default: lines)
  -h, --help            Show this help.

ENVIRONMENT
  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute configuration path when --config is not given.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied).
  The credential variable named in the configuration must be set; check shows only whether
  it is set, never its name or value.

EXIT CODES
  0  the configuration is valid (and the search succeeded)
  1  the configuration failed to load (one stderr line "[external-context] <message>"),
     or the search failed
  2  usage error (unknown flag, stray argument, --search without a value)

EXAMPLES
  external-context check --config /etc/external-context/search.json
  external-context check --config /etc/external-context/search.json --search "deployment policy"
  external-context check --json
`;

const OPTIONS = {
  search: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Generic text of a load failure that is not a configuration error (docs/design/config.md §11). */
const STARTUP_FAILED = 'External context startup failed.';

/** What `--search` produced: the tool text, or the error text with no envelope. */
interface SearchReport {
  readonly ok: boolean;
  /** The text `T`, or the tool's error text. */
  readonly text: string;
  /** Integer milliseconds around the whole search. */
  readonly latencyMs: number;
  readonly envelope: Envelope | null;
}

/**
 * Runs `check`.
 *
 * @param args Arguments after `check`.
 * @param io Streams and environment.
 * @returns 0 when the configuration loads (and the search succeeds); 1 on a load failure or a
 *   failed search.
 * @throws {UsageError} On an unknown flag, a stray argument or `--search` without a value.
 * @see docs/design/config.md §11
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  // A bad --config value is a configuration error (exit 1), so it is taken out before parsing.
  const { rest, config } = extractConfigFlag(args);
  const { values } = parseFlags(rest, OPTIONS, 'check');
  const query = values['search'];
  const json = values['json'] === true;

  const permissions: PermissionDescriptor[] = [{ name: 'read' }, { name: 'env' }];
  if (query !== undefined) permissions.push({ name: 'net' });
  const missing = await missingPermission(permissions);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }

  let binding: Binding;
  let provider: BoundProvider;
  try {
    ({ binding, provider } = await openBinding(config, io.env));
  } catch (error) {
    // Same line as the MCP server; unknown errors never print their message (docs/design/style.md).
    writeError(io, error instanceof ConfigError ? error.message : STARTUP_FAILED);
    return EXIT_FAILURE;
  }

  if (!json) writeOut(io, describeBinding(binding, provider).map((line) => `${line}\n`).join(''));
  const search = query === undefined ? undefined : await searchOnce(binding, provider, query, io);
  if (json) {
    writeOut(io, `${stringifyEscaped(bindingJson(binding, provider, search), 2)}\n`);
  } else if (search !== undefined) {
    writeOut(io, `${search.text}\n`);
    if (search.ok) writeOut(io, `Latency: ${search.latencyMs} ms\n`);
  }
  return search === undefined || search.ok ? EXIT_OK : EXIT_FAILURE;
}

/**
 * Runs one search on the `context_search` code path. A provider failure writes its one
 * operator line to stderr; an input-validation failure writes nothing.
 */
async function searchOnce(binding: Binding, provider: BoundProvider, query: string, io: Io): Promise<SearchReport> {
  // docs/design/config.md §11: version 1 uses timeoutMs, version 2 the auto-recall timeout.
  const timeoutMs = binding.autoRecall !== undefined ? binding.autoRecall.timeoutMs : binding.timeoutMs;
  await prepareRuntimeFetch(); // the timeout starts when the request can be sent (docs/design/providers.md §1.4)
  const startedMs = performance.now();
  const deadline = withDeadline(undefined, timeoutMs);
  let outcome: Awaited<ReturnType<typeof runSearch>>;
  try {
    outcome = await runSearch(provider, { query }, deadline.signal);
  } finally {
    deadline.dispose();
  }
  const latencyMs = Math.round(performance.now() - startedMs);
  switch (outcome.status) {
    case 'ok':
      return { ok: true, text: outcome.rendered.text, latencyMs, envelope: outcome.rendered.structuredContent };
    case 'invalid-input':
      return { ok: false, text: outcome.message, latencyMs, envelope: null };
    case 'failed':
      writeErr(io, `${outcome.operatorLine}\n`);
      return { ok: false, text: outcome.message, latencyMs, envelope: null };
  }
}

/** Scope values in the order userId, agentId, appId; undefined for Generic HTTP. */
function scopeOf(binding: Binding): Partial<Record<ScopeKey, string>> | undefined {
  const provider = binding.provider;
  if (provider.type === 'mem0-platform-v3') return { appId: provider.appId };
  if (provider.type !== 'mem0') return undefined;
  const scope: Partial<Record<ScopeKey, string>> = {};
  for (const key of SCOPE_KEYS) {
    const value = provider.scope[key];
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}

/**
 * The first line and the `  <key>: <value>` binding lines, in the order of docs/design/config.md §11.
 * The credential line says only `set`: an unavailable credential fails the load.
 */
function describeBinding(binding: Binding, provider: BoundProvider): string[] {
  const preset = binding.provider.type === 'mem0' ? `, preset ${binding.provider.preset}` : '';
  const writes = binding.writeEnabled ? 'enabled' : 'disabled';
  const lines = [
    `Configuration is valid: version ${binding.version}, provider ${binding.provider.type}${preset}, writes ${writes}.`,
  ];
  const add = (key: string, value: string | number): void => {
    lines.push(`  ${key}: ${printable(String(value))}`);
  };
  add('config', binding.configPath);
  add('origin', provider.origin);
  add('search', provider.searchUrl);
  if (binding.writeEnabled && provider.writeUrl !== undefined) add('write', provider.writeUrl);
  const scope = scopeOf(binding);
  if (scope !== undefined) {
    add('scope', SCOPE_KEYS.flatMap((key) => (scope[key] === undefined ? [] : [`${key}=${scope[key]}`])).join(', '));
  }
  if (binding.autoRecall === undefined) {
    add('timeoutMs', binding.timeoutMs);
  } else {
    add('autoRecall.repositoryRoot', binding.autoRecall.repositoryRoot);
    add('autoRecall.timeoutMs', binding.autoRecall.timeoutMs);
  }
  add('credential', 'set');
  add('proxy', provider.proxy);
  return lines;
}

/** The `--json` object, keys in the order of docs/design/config.md §11. */
function bindingJson(binding: Binding, provider: BoundProvider, search: SearchReport | undefined): Record<string, unknown> {
  const scope = scopeOf(binding);
  return {
    valid: true,
    version: binding.version,
    configPath: binding.configPath,
    provider: {
      type: binding.provider.type,
      ...(binding.provider.type === 'mem0' ? { preset: binding.provider.preset } : {}),
      origin: provider.origin,
      searchUrl: provider.searchUrl,
      ...(binding.writeEnabled && provider.writeUrl !== undefined ? { writeUrl: provider.writeUrl } : {}),
    },
    ...(scope === undefined ? {} : { scope }),
    ...(binding.autoRecall === undefined
      ? { timeoutMs: binding.timeoutMs }
      : { autoRecall: { repositoryRoot: binding.autoRecall.repositoryRoot, timeoutMs: binding.autoRecall.timeoutMs } }),
    writes: binding.writeEnabled ? 'enabled' : 'disabled',
    credential: 'set',
    proxy: provider.proxy,
    ...(search === undefined ? {} : { search: { ok: search.ok, latencyMs: search.latencyMs, envelope: search.envelope } }),
  };
}

// Keeps each binding line one line: a control character in a path or scope value (both are
// administrator input) is shown as a \uXXXX escape instead of breaking or rewriting the output.
function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
