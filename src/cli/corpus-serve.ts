// `external-context corpus serve`: flags, the request log, metrics, SIGHUP and shutdown
// (docs/design/providers.md §8.2, §8.2a); the service itself is in corpus/serve/.
import { resolve } from 'node:path';
import { isUsableCredential, looksLikeVariableName, PASTED_CREDENTIAL_TEXT } from '../config/credential.ts';
import { CorpusError } from '../corpus/corpus-error.ts';
import type { CorpusMetrics } from '../corpus/serve/corpus-metrics.ts';
import { CORPUS_LOG_FORMATS, type CorpusLogFormat, type CorpusRequestLogEntry, formatCorpusRequestLine } from '../corpus/serve/corpus-request-log.ts';
import { DEFAULT_LISTEN, parseListenAddress } from '../corpus/serve/listen-address.ts';
import { isWeakToken, weakTokenText } from '../corpus/serve/token-strength.ts';
import { type CorpusService, ListenError, startCorpusService } from '../corpus/serve/start-corpus-service.ts';
import { markInteractive } from '../runtime/jit.ts';
import type { Listener } from '../runtime/listen-types.ts';
import type { PermissionDescriptor } from '../runtime/permission-types.ts';
import { type AllowedHostProblem, parseAllowedHost } from '../util/allowed-hosts.ts';
import { ownEnv } from '../util/own-env.ts';
import { COMMIT, VERSION } from '../version.ts';
import { checkStartup, corpusErrorText, failure, stringList } from './corpus-startup.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { type Io, writeError, writeLine } from './io.ts';
import { startMetricsListener } from './metrics-listener.ts';
import { parseFlags } from './parse-flags.ts';
import { onReloadSignal } from './reload-signal.ts';
import { shutdownSignal } from './shutdown-signal.ts';
import { UsageError } from './usage-error.ts';

/**
 * Runs `corpus serve`.
 *
 * @returns 0 after a graceful shutdown, 1 on a startup failure (one stderr line).
 * @throws {UsageError} On a bad command line.
 * @see docs/design/providers.md §8.2, §8.2a
 */
export async function runServe(args: string[], io: Io): Promise<number> {
  const { db, tokenEnvs, address, logFormat, metricsAddress, allowedHosts } = parseServeFlags(args);
  const blocked = await checkStartup(io, [
    { name: 'read', target: resolve(io.cwd, db) },
    ...tokenEnvs.map((name): PermissionDescriptor => ({ name: 'env', target: name })),
    { name: 'net', target: address.hostname },
    ...(metricsAddress === undefined ? [] : [{ name: 'net', target: metricsAddress.hostname } as PermissionDescriptor]),
  ]);
  if (blocked !== undefined) return blocked;
  // docs/design/config.md §7.1: the message never names the variable.
  const tokens = tokenEnvs.map((name) => ownEnv(io.env, name));
  const problem = tokenProblem(tokens, tokenEnvs);
  if (problem !== undefined) {
    writeError(io, problem);
    return EXIT_FAILURE;
  }
  const observed = await corpusObservers(logFormat, metricsAddress !== undefined, io, () => service?.active ?? 0);
  let service: CorpusService | undefined;
  let metricsListener: Listener | undefined;
  try {
    service = await startCorpusService({ dbPath: db, cwd: io.cwd, token: tokens as string[], address, allowedHosts, ...(observed.observe === undefined ? {} : { observe: observed.observe }) });
  } catch (error) {
    return failure(io, error);
  }
  if (metricsAddress !== undefined && observed.metrics !== undefined) {
    try {
      metricsListener = await startMetricsListener(observed.metrics.registry, metricsAddress, allowedHosts);
    } catch (error) {
      await service.close();
      return failure(io, new ListenError(metricsAddress, { cause: error }));
    }
  }
  const running = service;
  // Handlers first, so a signal sent right after the URL line is seen.
  const stopped = shutdownSignal();
  // docs/design/providers.md §8.2a: SIGHUP re-opens the index; a failure keeps the open one.
  const stopReloading = onReloadSignal(async () => {
    try {
      await running.reload();
      observed.metrics?.reload('ok');
      if (logFormat !== 'none')
        writeLine(io.stderr, logFormat === 'json' ? JSON.stringify({ time: new Date().toISOString(), event: 'reloaded', db }) : `${new Date().toISOString()} reloaded db=${db}`);
    } catch (error) {
      observed.metrics?.reload('failed');
      const cause = error instanceof CorpusError ? corpusErrorText(error) : 'The --db file cannot be opened as an index made by corpus index.';
      writeError(io, `Reload of ${db} failed; the previous index keeps serving. ${cause}`);
    }
  });
  writeLine(io.stdout, running.url);
  if (metricsListener !== undefined && logFormat !== 'none') {
    const time = new Date().toISOString();
    writeLine(io.stderr, logFormat === 'json' ? JSON.stringify({ time, event: 'metrics', address: `${metricsListener.url}/metrics` }) : `${time} metrics address=${metricsListener.url}/metrics`);
  }
  // Start-up is over: steady-state searches get the normal JIT policy (build/compile.ts).
  void markInteractive();
  await stopped;
  stopReloading();
  await Promise.all([running.close(), metricsListener?.close()]);
  return EXIT_OK;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

// Which --token-env is meant, by position only: never its name or value (docs/design/providers.md §8.2).
function tokenEnvPosition(index: number, count: number): string {
  if (count === 1) return '--token-env';
  const ordinal = ORDINALS[index] ?? `#${index + 1}`;
  return `the ${ordinal} --token-env`;
}

// The request log and the metrics of docs/design/providers.md §8.2a.
async function corpusObservers(
  format: CorpusLogFormat,
  withMetrics: boolean,
  io: Io,
  inFlight: () => number,
): Promise<{ observe?: (entry: CorpusRequestLogEntry, seconds: number) => void; metrics?: CorpusMetrics }> {
  const metrics = withMetrics ? (await import('../corpus/serve/corpus-metrics.ts')).createCorpusMetrics({ version: VERSION, commit: COMMIT }, inFlight) : undefined;
  if (format === 'none' && metrics === undefined) return {};
  let hinted = false;
  return {
    ...(metrics === undefined ? {} : { metrics }),
    observe: (entry, seconds) => {
      metrics?.request(entry.outcome, seconds);
      const line = formatCorpusRequestLine(entry, format);
      if (line !== undefined) writeLine(io.stderr, line);
      // Once per process, after the first refused Host: the fix, never the Host itself (§8.2a).
      if (entry.outcome === 'host-refused' && format !== 'none' && !hinted) {
        hinted = true;
        writeLine(io.stderr, format === 'json' ? JSON.stringify({ time: entry.time, event: 'hint', hint: HOST_HINT }) : `${entry.time} hint ${HOST_HINT}`);
      }
    },
  };
}

/** The one operator hint after the first `host-refused` (docs/design/providers.md §8.2a). */
const HOST_HINT = "A request was refused because its Host is not this service's address. If clients or a reverse proxy call the service by another name, allow it with --allowed-host <name[:port]>.";

// docs/design/providers.md §8.2: what is wrong with an --allowed-host value, and how to fix it.
const ALLOWED_HOST_MESSAGES: Record<AllowedHostProblem, string> = {
  empty: 'Option --allowed-host needs a host name such as corpus.internal or corpus.internal:8787.',
  url: 'Option --allowed-host takes a host name with an optional port, not a URL or a path: write corpus.example.com, not https://corpus.example.com/.',
  wildcard: 'Option --allowed-host does not take wildcards: repeat the option once per name.',
  invalid: 'Option --allowed-host needs a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. corpus.internal:8787).',
};

/** The validated `corpus serve` command line. */
interface ServeFlags {
  readonly db: string;
  readonly tokenEnvs: string[];
  readonly address: ListenAddress;
  readonly logFormat: CorpusLogFormat;
  readonly metricsAddress: ListenAddress | undefined;
  /** `--allowed-host` values, validated and lowercased. */
  readonly allowedHosts: readonly string[];
}

/** The address form `--listen` and `--metrics-listen` parse to. */
type ListenAddress = NonNullable<ReturnType<typeof parseListenAddress>>;

/**
 * Parses and validates the `corpus serve` arguments.
 *
 * @throws {UsageError} On a bad command line.
 */
function parseServeFlags(args: string[]): ServeFlags {
  const options = {
    db: { type: 'string' },
    'token-env': { type: 'string', multiple: true },
    listen: { type: 'string', default: DEFAULT_LISTEN },
    'log-format': { type: 'string', default: 'json' },
    'metrics-listen': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
  } as const;
  const { values } = parseFlags(args, options, 'corpus serve');
  const db = values['db'];
  const tokenEnvs = stringList(values['token-env']);
  if (typeof db !== 'string' || db === '') throw new UsageError('Option --db needs the path of an index made by corpus index.', 'corpus serve');
  if (tokenEnvs.length === 0 || tokenEnvs.includes('')) {
    throw new UsageError('Option --token-env needs the name of the variable that holds the token.', 'corpus serve');
  }
  const address = parseListenAddress(values['listen']);
  if (address === undefined) {
    throw new UsageError('Option --listen needs host:port or [IPv6]:port with a port from 0 to 65535.', 'corpus serve');
  }
  const logFormat = values['log-format'];
  if (!(CORPUS_LOG_FORMATS as readonly string[]).includes(logFormat)) throw new UsageError('Option --log-format needs json, text or none.', 'corpus serve');
  const metricsText = values['metrics-listen'];
  const metricsAddress = metricsText === undefined ? undefined : parseListenAddress(metricsText);
  if (metricsText !== undefined && metricsAddress === undefined) {
    throw new UsageError('Option --metrics-listen needs host:port or [IPv6]:port with a port from 0 to 65535.', 'corpus serve');
  }
  const allowedHosts = (values['allowed-host'] ?? []).map((text) => {
    const parsed = parseAllowedHost(text);
    if ('problem' in parsed) throw new UsageError(ALLOWED_HOST_MESSAGES[parsed.problem], 'corpus serve');
    return parsed.value;
  });
  return { db, tokenEnvs, address, logFormat: logFormat as CorpusLogFormat, metricsAddress, allowedHosts };
}

/**
 * Why the service tokens cannot be used, as the one stderr line; undefined when they can.
 * docs/design/config.md §7.1: the message never names the variable.
 */
function tokenProblem(tokens: readonly (string | undefined)[], tokenEnvs: readonly string[]): string | undefined {
  const pasted = tokenEnvs.findIndex((name, index) => tokens[index] === undefined && !looksLikeVariableName(name));
  if (pasted !== -1) {
    // As check says of a credential field (docs/design/config.md §11): the value is never shown.
    return `The service token is unavailable: ${tokenEnvPosition(pasted, tokenEnvs.length)} ${PASTED_CREDENTIAL_TEXT.replace('credential', 'token')} Pass the name of the variable that holds the token, and rotate the token: a command line is visible to other users.`;
  }
  const unusable = tokens.findIndex((token) => !isUsableCredential(token));
  if (unusable !== -1) {
    return `The service token is unavailable: the variable given to ${tokenEnvPosition(unusable, tokenEnvs.length)} must hold a non-blank value without control characters.`;
  }
  const weak = tokens.findIndex((token) => isWeakToken(token as string));
  if (weak !== -1) return weakTokenText(tokenEnvPosition(weak, tokenEnvs.length));
  return undefined;
}
