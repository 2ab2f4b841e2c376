// `external-context conformance`: checks any Profile v1 server, local (--command, stdio) or
// remote (--url, Streamable HTTP), against docs/design/profile-v1.md (docs/design/remote.md §2). Flags, usage errors
// and the report live here; the SDK client and Ajv load only once the command line is valid.
import { ConfigError } from '../config/config-error.ts';
import { isRemoteUrl } from '../mcp/http/remote-url.ts';
import { transportFailureOf } from '../providers/transport-failure.ts';
import { type FailureDescription, failureLabel } from '../providers/failure.ts';
import { decideRoute, routedFetch } from '../providers/outbound.ts';
import { describeFailure } from '../providers/provider-error.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { printHelp, wantsHelp } from './help.ts';
import { type Io, writeError } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import type { ConnectOutcome } from '../conformance/conformance-session.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { formatJsonReport, formatTextReport } from '../conformance/format-report.ts';
import { parseHeader } from '../conformance/parse-header.ts';
import { splitCommand } from '../conformance/split-command.ts';

/** `conformance --help`. */
export const help = `${versionLine()}
Check a context_search MCP server against External Context Profile v1: the tool list, identity,
annotations, schemas, every input test vector, extra arguments, unknown tools, and one real
search's result shape, contract, escaping and bounds.

USAGE
  external-context conformance --command "<cmd> [args]" [--json] [--timeout <ms>]
  external-context conformance --url <url> [--header "Name: value"]... [--json] [--timeout <ms>]

OPTIONS
  --command "<cmd> [args]"   Start a stdio server: split into words at whitespace, '…' and "…"
                             group (quotes removed, no escapes, a backslash is ordinary), no
                             shell. The child inherits the environment and working directory;
                             its stderr passes through. After the checks its stdin is closed,
                             then SIGTERM after 2000 ms and SIGKILL 2000 ms later.
  --url <url>                Connect over Streamable HTTP: https, or http on localhost,
                             127.0.0.1 or [::1]; no credentials, query or fragment.
  --header "Name: value"     Send this header on every --url request (repeatable); the value is
                             never printed. Transport headers (host, accept, content-type,
                             mcp-session-id, ...) cannot be set.
  --json                     Print one JSON object {"ok", "checks": [...]} instead of lines.
                             (default: one "PASS|FAIL|WARN|SKIP <check>: <reason>" line per check)
  -h, --help                 Show this help.

  --timeout <ms>             Overall budget of the checks after connect, 1000-3600000 ms;
                             past it no request is sent and every later check fails.
                             (default: 120000)

  Timeouts: 10000 ms for initialize and for each later request. On a terminal, stderr shows
  how many requests have been answered.

ENVIRONMENT
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for --url (loopback is never proxied; on Node.js an
                                      applicable proxy is refused).

RUNTIMES
  All; under Deno, --command needs --allow-run.

EXIT CODES
  0  no check failed (warnings allowed)
  1  a check failed (connect included)
  2  usage error, including a refused proxy on Node.js

EXAMPLES
  external-context conformance --command "external-context serve --config /etc/external-context/search.json"
  external-context conformance --command "node dist/main.js" --json
  external-context conformance --url https://context.example.com/mcp --header "Authorization: Bearer $TOKEN"
`;

const OPTIONS = {
  command: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/** Default overall `--timeout`, in ms (docs/design/remote.md §2.1). */
export const DEFAULT_RUN_TIMEOUT_MS = 120_000;

// docs/design/remote.md §2.1: every message verbatim.
const MESSAGES = {
  exactlyOne: 'Give exactly one of --command or --url.',
  headerWithoutUrl: '--header is only valid with --url.',
  noProgram: '--command must name a program.',
  unterminated: '--command has an unterminated quote.',
  url: '--url must be an https URL, or http on localhost, 127.0.0.1 or [::1], without credentials, query or fragment.',
  headerForm: '--header must have the form "Name: value".',
  transportHeader: '--header cannot set a transport header.',
  timeout: '--timeout must be an integer from 1000 to 3600000 (milliseconds).',
} as const;

/**
 * Runs `conformance`.
 *
 * @param args Arguments after `conformance`.
 * @param io Streams and environment; the report goes to stdout, the child's stderr to stderr.
 * @returns 0 when no check failed, 1 when one did (or Deno lacks --allow-run for --command).
 * @throws {UsageError} On every condition of docs/design/remote.md §2.1 (exit 2).
 * @see docs/design/remote.md §2
 */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  const { values } = parseFlags(args, OPTIONS, 'conformance');
  const usage = (message: string): UsageError => new UsageError(message, 'conformance', { verbatim: true });
  const command = values['command'];
  const url = values['url'];
  const headerFlags = values['header'] ?? [];
  if ((command === undefined) === (url === undefined)) throw usage(MESSAGES.exactlyOne);
  if (headerFlags.length > 0 && url === undefined) throw usage(MESSAGES.headerWithoutUrl);
  const timeoutText = values['timeout'] ?? String(DEFAULT_RUN_TIMEOUT_MS);
  const timeoutMs = Number(timeoutText);
  if (!/^[0-9]+$/.test(timeoutText) || timeoutMs < 1000 || timeoutMs > 3_600_000) throw usage(MESSAGES.timeout);

  // Each failure class a --url request met, with its hint, by label (connection-refused, …).
  const failures = new Map<string, FailureDescription>();
  const connect = command !== undefined ? await stdioConnect(command, io, usage) : await httpConnect(url ?? '', headerFlags, io, failures, usage);
  if (connect === undefined) return EXIT_FAILURE;

  const deadlineMs = Date.now() + timeoutMs;
  const progress = (settled: number): void => {
    // Progress only on a terminal: a pipe or a log file gets the report alone.
    if (io.stderrIsTty) io.stderr.write(`\r[external-context] conformance: ${settled} requests answered`);
  };
  const results = await runConformance(connect, { deadlineMs, progress });
  if (io.stderrIsTty) io.stderr.write('\r\u001b[K');
  io.stdout.write(values['json'] === true ? formatJsonReport(results) : formatTextReport(results));
  // One hint per failure class met, after the report (stdout stays the report alone).
  for (const [label, failure] of failures) writeError(io, `${label}: ${failure.hint}`);
  return results.some((result) => result.status === 'FAIL') ? EXIT_FAILURE : EXIT_OK;
}

/** Builds a `usage` error of docs/design/remote.md §2.1 (verbatim, exit 2). */
type UsageOf = (message: string) => UsageError;

/**
 * The `--command` connect: the command line split into words, and Deno's run permission.
 *
 * @returns The connect, or undefined after the one stderr line of a missing permission.
 * @throws {UsageError} On an unterminated quote or an empty program.
 */
async function stdioConnect(command: string, io: Io, usage: UsageOf): Promise<(() => Promise<ConnectOutcome>) | undefined> {
  const split = splitCommand(command);
  if (!split.ok) throw usage(MESSAGES.unterminated);
  const program = split.words[0];
  if (program === undefined || program === '') throw usage(MESSAGES.noProgram);
  const missing = await missingPermission([{ name: 'run', target: program }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return undefined;
  }
  const session = await import('../conformance/conformance-session.ts');
  return () => session.connectStdio({ words: split.words, env: io.env, cwd: io.cwd, stderr: io.stderr });
}

/**
 * The `--url` connect: the headers, Deno's network permission, the proxy decision, and a routed
 * fetch that records the failure class of each rejected request in `failures`.
 *
 * @returns The connect, or undefined after the one stderr line of a missing permission.
 * @throws {UsageError} On a refused URL, header or proxy variable.
 */
async function httpConnect(target: string, headerFlags: readonly string[], io: Io, failures: Map<string, FailureDescription>, usage: UsageOf): Promise<(() => Promise<ConnectOutcome>) | undefined> {
  if (!isRemoteUrl(target)) throw usage(MESSAGES.url);
  const headers: Record<string, string> = {};
  for (const flag of headerFlags) {
    const parsed = parseHeader(flag);
    if (!parsed.ok) throw usage(parsed.reason === 'form' ? MESSAGES.headerForm : MESSAGES.transportHeader);
    headers[parsed.name] = parsed.value;
  }
  // docs/design/README.md, "Deno permissions": the server's host, checked before any request.
  const missing = await missingPermission([{ name: 'env' }, { name: 'net', target: new URL(target).host }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return undefined;
  }
  try {
    decideRoute(target, io.env);
  } catch (error) {
    if (error instanceof ConfigError) throw usage(error.message);
    throw error;
  }
  const session = await import('../conformance/conformance-session.ts');
  // Each request is routed by the one per-target decision (docs/design/config.md §12) in
  // providers/outbound.ts. A rejected request is classified once, as every remote-MCP request
  // failure is (docs/design/providers.md §1.6): the class goes into the report, its hint to stderr.
  const fetchRouted = routedFetch(io.env, undefined, (error) => {
    const failure = describeFailure(error);
    if (failure !== undefined) failures.set(failureLabel(failure), failure);
  });
  const failureOf = (error: unknown): string | undefined => {
    const id = transportFailureOf(error);
    return id === undefined ? undefined : failureLabel({ id });
  };
  return () => session.connectHttp({ url: target, headers, fetch: fetchRouted, failureOf });
}
