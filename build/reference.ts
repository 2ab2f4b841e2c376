// `npm run docs:reference`: writes docs/reference/ from the code, never by hand (docs issue,
// item docs/reference/). commands.md is every command's `--help` text, taken by running the
// command table from source; configuration.md lists every field of every file format, walked
// from the valibot schemas (configuration v1/v2, launch profile) and the gateway's key sets,
// with the meaning of each field from the table below. `--check` compares instead of writing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type * as v from 'valibot';
import { run } from '../src/cli/dispatch.ts';
import type { Io } from '../src/cli/io.ts';
import { AutoRecallSchema, RedactSecretsSchema, TimeoutMsSchema, WriteSchema } from '../src/config/schema.ts';
import { PROVIDER_SCHEMAS, TOP_LEVEL_KEYS } from '../src/config/validate.ts';
import { ROOT_KEYS, SERVER_KEYS, TOOL_KEYS } from '../src/gateway/config/validate-config.ts';
import { LaunchProfileSchema } from '../src/launch/launch-profile-schema.ts';
import { ROOT_DIR } from './targets.ts';

/** The command that rewrites docs/reference/; printed when the files are out of date. */
export const REFERENCE_COMMAND = 'npm run docs:reference';

/** Every `--help` page, in the order of the top-level help, then sub-commands after their parent. */
const HELP_PAGES: readonly (readonly string[])[] = [
  [],
  ['serve'],
  ['hook'],
  ['hook', 'auto-recall'],
  ['hook', 'write-confirmation'],
  ['hook', 'settings'],
  ['check'],
  ['eval'],
  ['probe'],
  ['gateway'],
  ['gateway', 'discover'],
  ['gateway', 'call'],
  ['launch'],
  ['corpus'],
  ['corpus', 'index'],
  ['corpus', 'serve'],
  ['corpus', 'stats'],
  ['conformance'],
];

/**
 * Meaning of each field, keyed by `<format>:<dotted path>`. The generator fails when a schema
 * field has no entry here or an entry names no field, so a new field cannot go undocumented.
 */
const MEANINGS: Readonly<Record<string, string>> = {
  'config:version': '`1`: on-demand MCP tool (`serve`, `serve --http`), optional writes. `2`: the auto-recall Hook.',
  'config:timeoutMs': 'Search and write timeout in milliseconds. Version 2 accepts it for compatibility; nothing uses it.',
  'config:write': 'Version 1 only, Mem0 providers only: turns on `context_remember`. `serve --http` refuses it.',
  'config:write.enabled': 'Must be `true`; omit `write` to keep writes off.',
  'config:autoRecall': 'Version 2 only: binds the auto-recall Hook to one repository.',
  'config:autoRecall.repositoryRoot':
    'Absolute path of the repository the Hook serves; resolved to its canonical path, must be a directory and not a file-system root. The Hook answers `{}` in any other working directory.',
  'config:autoRecall.timeoutMs': "Auto-recall search timeout in milliseconds, inside the Hook's 6500 ms budget.",
  'config:redactSecrets':
    'When `true`, credentials in retrieved `content` and `title` (AWS keys, GitHub/GitLab/Slack/npm tokens, Bearer and Basic credentials, JWTs, PEM private keys, `password=`/`api_key=`/`secret=` assignments, URL userinfo) become `[redacted:<kind>]` before bounding; `check --search` shows how many.',
  'config:provider': 'The one provider this file binds. `type` picks one of the three shapes below.',
  'generic-http-search-v1:type': 'A Generic HTTP Search V1 service (search only).',
  'generic-http-search-v1:baseUrl': 'Origin of the service: `https:`, or `http:` on `localhost`, `127.0.0.1` or `[::1]`; no credentials, path, query or fragment.',
  'generic-http-search-v1:tokenEnv': 'Name of the environment variable holding the bearer token (never the token itself).',
  'mem0-platform-v3:type': 'Legacy Mem0 Platform type; fixed endpoint `https://api.mem0.ai`.',
  'mem0-platform-v3:apiKeyEnv': 'Name of the environment variable holding the Mem0 API key.',
  'mem0-platform-v3:appId': 'Mem0 `app_id` the searches and writes use. It classifies records; it does not authorize.',
  'mem0:type': 'A Mem0-family service through a reviewed preset.',
  'mem0:preset': 'Which wire contract to speak; check it against the deployment with `external-context probe`.',
  'mem0:endpoint': 'Where the service is.',
  'mem0:endpoint.origin': 'Origin of the service: `https:`, or loopback `http:`, or any `http:` with `allowInsecureHttp`.',
  'mem0:endpoint.basePath':
    'Path prefix put before the preset\'s paths (for a service behind a path-routing proxy); `""` means none. Otherwise it starts with `/` and has no `//`, `?`, `#`, backslash, `%`, whitespace, control character, or `.` or `..` segment; one trailing `/` is dropped.',
  'mem0:endpoint.allowInsecureHttp': 'Allows plain `http:` to a non-loopback origin. Relaxes only the scheme; leave it off.',
  'mem0:credentialEnv': 'Name of the environment variable holding the Mem0 credential.',
  'mem0:scope': 'The Mem0 scope values sent with each request; which keys a preset needs or forbids is in `docs/design/providers.md` §5.3.',
  'mem0:scope.userId': 'Mem0 `user_id`.',
  'mem0:scope.agentId': 'Mem0 `agent_id`.',
  'mem0:scope.appId': 'Mem0 `app_id`.',
  'launch:version': 'Launch profile format version.',
  'launch:qwenExecutable': 'Absolute path of the Qwen Code executable to start: an existing regular file (symlinks followed), not writable by other users.',
  'launch:repository': "Absolute path of the repository Qwen Code runs in: a directory, not a file-system root. The child's working directory is its canonical path.",
  'launch:mcpConfig': 'Absolute path of the managed MCP file, a regular file not writable by other users; passed as `--mcp-config <path>`, the first arguments of the child. Omit it for auto-recall.',
  'launch:systemSettings': 'Absolute path of the managed system settings file, a regular file not writable by other users; passed as `QWEN_CODE_SYSTEM_SETTINGS_PATH`.',
  'launch:qwenArgs': 'Administrator-fixed arguments appended after `--mcp-config <path>`. Caller arguments are never passed.',
  'launch:env': 'Variables set exactly as given (a fixed `PATH`, `QWEN_CODE_MEMORY_TEAM: "0"`, …).',
  'launch:passEnv': "Variables copied from the launcher's environment when present and non-empty (`HOME`, `TERM`, proxy variables, the model key).",
  'launch:credentialEnv': "Credential variables copied from the launcher's environment; each must be set and usable, or the launch fails without naming it.",
  'gateway:version': 'Must be `1`.',
  'gateway:servers': 'Remote MCP servers by key (`^[a-z][a-z0-9_-]{0,39}$`), at most 8.',
  'gateway:servers.<key>.enabled': 'Only `true` enables the server. A disabled server is validated but its `${VAR}` headers are not read.',
  'gateway:servers.<key>.url': 'Streamable HTTP endpoint: `https:`, or `http:` on loopback without headers; at most 2048 characters; no credentials or fragment.',
  'gateway:servers.<key>.connectTimeoutMs': 'Budget for `initialize` plus every `tools/list` page, in milliseconds.',
  'gateway:servers.<key>.refreshOnListChanged': "Rediscover the server's tools when it sends `notifications/tools/list_changed`.",
  'gateway:servers.<key>.headers': 'Request headers, at most 16; a value is a literal or exactly one `${VARIABLE}` reference, resolved from the environment.',
  'gateway:servers.<key>.tools': "Allow-list of the server's raw tool names (`^[a-zA-Z0-9_.:/-]{1,128}$`), at most 32; unlisted tools are never offered.",
  'gateway:servers.<key>.tools.<name>.enabled': 'Only `true` offers the tool to the model.',
  'gateway:servers.<key>.tools.<name>.readOnly': 'Required for an enabled tool. `false` (writable) needs `approval: "required"`.',
  'gateway:servers.<key>.tools.<name>.approval': '`"required"`: each call waits for the user\'s approval. Read-only tools cannot require it.',
  'gateway:servers.<key>.tools.<name>.timeoutMs': 'Per-call timeout in milliseconds.',
  'gateway:servers.<key>.tools.<name>.maxResultBytes': 'Budget of the serialized result envelope in UTF-8 bytes.',
  'gateway:servers.<key>.tools.<name>.maxCallsPerTurn': 'Counted calls of this tool per user turn.',
  'gateway:servers.<key>.tools.<name>.description': "Description shown to the model instead of the server's, trimmed; at most 1200 code points; empty means the server's.",
};

/**
 * The gateway file has no valibot schema (its checks are hand-ordered, docs/design/frontend-mcp.md
 * §2.3); its type, default and limits per field, checked against the key sets the validator uses.
 */
const GATEWAY_FIELDS: Readonly<Record<string, readonly [type: string, fallback: string, limits: string]>> = {
  version: ['literal `1`', 'required', '—'],
  servers: ['object', '`{}`', 'at most 8 entries'],
  'servers.<key>.enabled': ['boolean', '`false`', '—'],
  'servers.<key>.url': ['string', 'required', 'at most 2048 characters; parses as a URL'],
  'servers.<key>.connectTimeoutMs': ['integer', '`8000`', '100…30000'],
  'servers.<key>.refreshOnListChanged': ['boolean', '`false`', '—'],
  'servers.<key>.headers': ['object of strings', '`{}`', 'at most 16 entries; names `^[a-z0-9-]{1,80}$` (lowercased); no control characters; a resolved value at most 8192 characters'],
  'servers.<key>.tools': ['object of tool policies', '`{}`', 'at most 32 entries'],
  'servers.<key>.tools.<name>.enabled': ['boolean', '`false`', '—'],
  'servers.<key>.tools.<name>.readOnly': ['boolean', 'required when enabled', '—'],
  'servers.<key>.tools.<name>.approval': ['`"required"` or `"none"`', '`"none"`', '—'],
  'servers.<key>.tools.<name>.timeoutMs': ['integer', '`8000`', '100…30000'],
  'servers.<key>.tools.<name>.maxResultBytes': ['integer', '`32768`', '1024…65536'],
  'servers.<key>.tools.<name>.maxCallsPerTurn': ['integer', '`2`', '1…4'],
  'servers.<key>.tools.<name>.description': ['string', "the server's description", 'at most 1200 code points after trimming'],
};

/** One documented field. */
interface FieldRow {
  readonly path: string;
  readonly type: string;
  readonly fallback: string;
  readonly limits: string;
  readonly meaning: string;
}

type AnySchema = v.GenericSchema | v.GenericSchemaAsync;
type Node = { readonly kind: string; readonly type: string; readonly [key: string]: unknown };

const usedMeanings = new Set<string>();

function meaningOf(format: string, fieldPath: string): string {
  const key = `${format}:${fieldPath}`;
  const meaning = MEANINGS[key];
  if (meaning === undefined) throw new Error(`build/reference.ts: no meaning for ${key}; add it to MEANINGS.`);
  usedMeanings.add(key);
  return meaning;
}

/** Reason texts that only restate the type; they add nothing to the limits column. */
const TYPE_REASONS = new Set(['must be a string', 'must be an object', 'must be a boolean', 'is required']);

/** Unwraps `optional` (keeping its default) and splits a pipe into its base schema and actions. */
function inspect(schema: AnySchema): { base: Node; actions: Node[]; optional: boolean; fallback: unknown } {
  let node = schema as unknown as Node;
  let optional = false;
  let fallback: unknown;
  if (node.type === 'optional' || node.type === 'exact_optional') {
    optional = true;
    fallback = node['default'];
    node = node['wrapped'] as Node;
  }
  const pipe = (node['pipe'] as Node[] | undefined) ?? [node];
  const schemas = pipe.filter((item) => item.kind === 'schema');
  // A plain strict object is pipe(custom(isPlainObject), strictObject(...)): the object is the base.
  // A bounded array is pipe(array(unknown), maxLength, array(item)): the last array is the base.
  const base = schemas.find((item) => item['entries'] !== undefined) ?? schemas.findLast((item) => item.type === 'array') ?? schemas[0] ?? node;
  const actions = pipe.filter((item) => item.kind !== 'schema' || (item !== base && item['entries'] === undefined && schemas.indexOf(item) > 0));
  return { base, actions, optional, fallback: typeof fallback === 'function' ? (fallback as () => unknown)() : fallback };
}

function messageOf(node: Node): string | undefined {
  const message = node['message'];
  return typeof message === 'string' && !TYPE_REASONS.has(message) ? message : undefined;
}

function typeOf(base: Node, actions: readonly Node[]): string {
  switch (base.type) {
    case 'literal':
      return `literal \`${JSON.stringify(base['literal'])}\``;
    case 'picklist':
      return 'string, one of the values in Limits';
    case 'strict_object':
    case 'object':
      return 'object';
    case 'array': {
      const item = inspect(base['item'] as AnySchema).base;
      return item.type === 'unknown' ? 'array' : `array of ${typeOf(item, [])}`;
    }
    case 'custom': {
      const message = String(base['message'] ?? '');
      if (message.startsWith('must be an integer')) return 'integer';
      if (message === 'must be true') return 'literal `true`';
      if (message === 'must be an object') return actions.some((a) => a.type === 'raw_transform') ? 'object of strings' : 'object';
      return 'value';
    }
    default:
      return base.type;
  }
}

function limitsOf(base: Node, actions: readonly Node[]): string {
  const texts: string[] = [];
  const baseMessage = messageOf(base);
  if (base.type === 'picklist') texts.push((base['options'] as string[]).map((o) => `\`${o}\``).join(', '));
  else if (base.type === 'custom' && baseMessage !== undefined && baseMessage !== 'must be true') texts.push(baseMessage);
  if (base.type === 'array') {
    const item = inspect(base['item'] as AnySchema);
    for (const action of item.actions) {
      const text = messageOf(action);
      if (text !== undefined) texts.push(`each ${text}`);
    }
  }
  for (const action of actions) {
    if (action.type === 'trim') {
      texts.push('trimmed before use');
      continue;
    }
    const text = messageOf(action);
    if (text !== undefined && text !== baseMessage) texts.push(text);
  }
  return texts.length === 0 ? '—' : texts.join('; ');
}

function fallbackText(optional: boolean, fallback: unknown): string {
  if (!optional) return 'required';
  if (fallback === undefined) return 'absent';
  return `\`${JSON.stringify(fallback)}\``;
}

/** Rows for one schema field and, for an object, each of its entries, depth first. */
function walk(format: string, fieldPath: string, schema: AnySchema, required = true): FieldRow[] {
  const { base, actions, optional, fallback } = inspect(schema);
  const row: FieldRow = {
    path: fieldPath,
    type: typeOf(base, actions),
    fallback: fallbackText(optional || !required, fallback),
    limits: limitsOf(base, actions),
    meaning: meaningOf(format, fieldPath),
  };
  const entries = base['entries'] as Record<string, AnySchema> | undefined;
  if (entries === undefined) return [row];
  return [row, ...Object.entries(entries).flatMap(([key, entry]) => walk(format, `${fieldPath}.${key}`, entry))];
}

function entriesOf(schema: AnySchema): Record<string, AnySchema> {
  const entries = inspect(schema).base['entries'] as Record<string, AnySchema> | undefined;
  if (entries === undefined) throw new Error('build/reference.ts: expected an object schema.');
  return entries;
}

function table(rows: readonly FieldRow[]): string {
  const escape = (text: string): string => text.replaceAll('|', '\\|');
  return [
    '| Field | Type | Default | Limits | Meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${r.path}\` | ${escape(r.type)} | ${escape(r.fallback)} | ${escape(r.limits)} | ${escape(r.meaning)} |`),
  ].join('\n');
}

function configRows(): { top: FieldRow[]; providers: [string, FieldRow[]][] } {
  const topSchemas: Record<string, AnySchema | undefined> = {
    version: undefined,
    timeoutMs: TimeoutMsSchema,
    provider: undefined,
    write: WriteSchema,
    autoRecall: AutoRecallSchema,
    redactSecrets: RedactSecretsSchema,
  };
  const keys = [...new Set([...TOP_LEVEL_KEYS[1], ...TOP_LEVEL_KEYS[2]])];
  const top: FieldRow[] = [];
  for (const key of keys) {
    const versions = ([1, 2] as const).filter((n) => TOP_LEVEL_KEYS[n].includes(key));
    const only = versions.length === 1 ? `version ${versions[0]} only` : '';
    const schema = topSchemas[key];
    if (key === 'version') {
      top.push({ path: key, type: 'literal `1` or `2`', fallback: 'required', limits: '—', meaning: meaningOf('config', key) });
    } else if (key === 'provider') {
      top.push({ path: key, type: 'object', fallback: 'required', limits: '—', meaning: meaningOf('config', key) });
    } else if (schema !== undefined) {
      const optionalAtTop = key === 'write' || key === 'timeoutMs' || key === 'redactSecrets';
      const rows = walk('config', key, schema, !optionalAtTop);
      const first = rows[0];
      if (first !== undefined && only !== '') rows[0] = { ...first, limits: first.limits === '—' ? only : `${first.limits}; ${only}` };
      top.push(...rows);
    } else {
      throw new Error(`build/reference.ts: no schema for the top-level key ${key}.`);
    }
  }
  const providers = Object.entries(PROVIDER_SCHEMAS).map(([type, schema]): [string, FieldRow[]] => [type, Object.entries(entriesOf(schema)).flatMap(([key, entry]) => walk(type, key, entry))]);
  return { top, providers };
}

function launchRows(): FieldRow[] {
  return Object.entries(LaunchProfileSchema.entries).flatMap(([key, entry]) => walk('launch', key, entry as AnySchema));
}

function gatewayRows(): FieldRow[] {
  const paths = [...[...ROOT_KEYS].map((key) => key), ...[...SERVER_KEYS].map((key) => `servers.<key>.${key}`), ...[...TOOL_KEYS].map((key) => `servers.<key>.tools.<name>.${key}`)];
  const documented = Object.keys(GATEWAY_FIELDS);
  const missing = paths.filter((p) => !documented.includes(p));
  const stale = documented.filter((p) => !paths.includes(p));
  if (missing.length > 0 || stale.length > 0) {
    throw new Error(
      `build/reference.ts: GATEWAY_FIELDS is out of step with the key sets of gateway/config/validate-config.ts (missing ${missing.join(', ') || 'none'}; stale ${stale.join(', ') || 'none'}).`,
    );
  }
  return paths.map((p) => {
    const [type, fallback, limits] = GATEWAY_FIELDS[p] ?? ['', '', ''];
    return { path: p, type, fallback, limits, meaning: meaningOf('gateway', p) };
  });
}

const GENERATED = `<!-- Generated by build/reference.ts; do not edit. Run \`${REFERENCE_COMMAND}\` after changing a schema or a help text. -->`;

function configurationPage(): string {
  usedMeanings.clear();
  const { top, providers } = configRows();
  const launch = launchRows();
  const gateway = gatewayRows();
  const unused = Object.keys(MEANINGS).filter((key) => !usedMeanings.has(key));
  if (unused.length > 0) throw new Error(`build/reference.ts: MEANINGS names fields that do not exist: ${unused.join(', ')}.`);
  return [
    GENERATED,
    '',
    '# Configuration reference',
    '',
    'Every field of every file the product reads, generated from the schemas the product validates',
    'with. "Default" is the value used when the field is absent; "required" fields must be present.',
    'Every object is strict: a field not listed here is an error. The rules and exact messages are in',
    '[`docs/design/config.md`](../design/config.md), [`docs/design/examples.md`](../design/examples.md) §8',
    'and [`docs/design/frontend-mcp.md`](../design/frontend-mcp.md) §2; how to use the files is in',
    '[the deployment guide](../deploy.md).',
    '',
    '## Configuration file (versions 1 and 2)',
    '',
    'Passed as `--config <absolute path>` or `QWEN_EXTERNAL_CONTEXT_CONFIG`; at most 65536 bytes of',
    'UTF-8 JSON. Read by `serve`, `serve --http`, `hook auto-recall`, `check` and `probe --config`.',
    '',
    table(top),
    '',
    ...providers.flatMap(([type, rows]) => [`### \`provider\` with \`"type": "${type}"\``, '', table(rows), '']),
    '## Launch profile (version 1)',
    '',
    'Passed as `external-context launch --profile <absolute path>`; read like the configuration file.',
    "The profile and its `qwenExecutable`, `mcpConfig` and `systemSettings` files must not be writable by other users (POSIX): each file, and every folder above it on the path as given and after symlinks, is owned by root or by the user running `launch` and has no group- or world-write bit (a folder with the sticky bit, such as `/tmp`, may have them). The `repository` is the user's working tree and is not checked.",
    '',
    table(launch),
    '',
    '## Frontend MCP gateway file (version 1)',
    '',
    'Passed as `--config <absolute path>` or `QWEN_AUDIO_FRONTEND_MCP_CONFIG` to `external-context gateway`;',
    'at most 1048576 bytes of UTF-8 JSON. `<key>` is a server key, `<name>` a raw tool name of that server.',
    '',
    table(gateway),
    '',
  ].join('\n');
}

/** A stream that collects what is written to it. */
function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * One command's `--help` text, run in-process from the command table, with the build commit
 * replaced by a fixed marker.
 *
 * @param args The command words, for example `["corpus", "serve"]`; `[]` for the top level.
 * @throws {Error} When the command does not exist (its help does not exit 0).
 */
export async function helpText(args: readonly string[]): Promise<string> {
  const stdout = collector();
  const stderr = collector();
  const io: Io = {
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {},
    cwd: ROOT_DIR,
    execPath: process.execPath,
    scriptPath: undefined,
    startedAtMs: 0,
    stderrIsTty: false,
  };
  const code = await run([...args, '--help'], io);
  await new Promise((resolve) => setImmediate(resolve));
  if (code !== 0) throw new Error(`build/reference.ts: external-context ${args.join(' ')} --help exited ${code}.`);
  // The build commit changes with every commit; the reference shows where it goes.
  return stdout.text().replace(/\(commit (?:[0-9a-f]{12}|unknown)\)/, '(commit <build commit>)');
}

async function commandsPage(): Promise<string> {
  const sections: string[] = [];
  for (const args of HELP_PAGES) {
    const name = ['external-context', ...args].join(' ');
    sections.push(`## \`${name}\``, '', '```text', (await helpText(args)).trimEnd(), '```', '');
  }
  return [
    GENERATED,
    '',
    '# Command reference',
    '',
    'The `--help` text of every command, exactly as the program prints it. Exit codes and runtimes',
    'for all commands are in one table in [`docs/design/README.md`](../design/README.md#commands-exit-codes-and-runtimes).',
    '',
    ...sections,
  ].join('\n');
}

/**
 * Renders every generated reference file.
 *
 * @returns Repository-relative path → file content, in a stable order.
 * @throws {Error} When a schema field has no meaning, a meaning names no field, or a help page fails.
 */
export async function renderReference(): Promise<Map<string, string>> {
  return new Map([
    ['docs/reference/commands.md', await commandsPage()],
    ['docs/reference/configuration.md', configurationPage()],
  ]);
}

/**
 * The generated files whose content on disk differs from a fresh rendering.
 *
 * @returns Repository-relative paths, empty when docs/reference/ is current.
 */
export async function staleReferenceFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, content] of await renderReference()) {
    let current: string | undefined;
    try {
      current = readFileSync(path.join(ROOT_DIR, file), 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== content) stale.push(file);
  }
  return stale;
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    const stale = await staleReferenceFiles();
    if (stale.length > 0) {
      console.error(`[reference] Out of date: ${stale.join(', ')}. Run "${REFERENCE_COMMAND}".`);
      process.exit(1);
    }
  } else {
    for (const [file, content] of await renderReference()) {
      mkdirSync(path.dirname(path.join(ROOT_DIR, file)), { recursive: true });
      writeFileSync(path.join(ROOT_DIR, file), content);
      console.error(`[reference] Wrote ${file}.`);
    }
  }
}
