// `external-context serve --http`: the remote Streamable HTTP MCP server (docs/design/remote.md §1): flags
// and their usage errors (§1.1, §1.2), the startup sequence and its messages (§1.3), the one
// stdout line, and graceful shutdown on SIGINT/SIGTERM (§1.9). The MCP SDK, the handler and
// jose load only after the command line is valid.
import type { Writable } from 'node:stream';
import type { Binding } from '../config/binding.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load.ts';
import { refusePlaceholders } from '../config/placeholders.ts';
import { refuseUntrustedConfig } from '../config/trusted-config.ts';
import { trustFacts } from '../runtime/trust-facts.ts';
import type { ConfigFlag } from '../config/locate.ts';
import { DEFAULT_MAX_CONCURRENCY, DEFAULT_SCOPE } from '../mcp/http/remote-limits.ts';
import type { RemoteAuth } from '../mcp/http/remote-mcp-handler.ts';
import type { RemoteServer } from '../mcp/http/start-remote-server.ts';
import { formatRequestLine, formatStartupLine, LOG_FORMATS, type LogFormat, type RequestLogEntry } from '../mcp/http/request-log.ts';
import type { Tool } from '../mcp/tool.ts';
import { createObservers, observedJwksFetch, type Observers } from './serve-http-observers.ts';
import { LOOPBACK_LISTEN_HOSTS } from '../mcp/http/allowed-hosts.ts';
import { isOriginValue, parseRemoteListen, SCOPE_TOKEN } from '../mcp/http/remote-flag-values.ts';
import type { Listener } from '../runtime/listen-types.ts';
import { configPathOf, formatMetricsLine, formatReloadLine, reloadFailedMessage } from './reload-lines.ts';
import { onReloadSignal } from './reload-signal.ts';
import { isRemoteUrl } from '../mcp/http/remote-url.ts';
import { decideRoute, type OutboundRoute } from '../providers/outbound.ts';
import { markInteractive } from '../runtime/jit.ts';
import { extractConfigFlag } from './config-flag.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { type Io, writeError, writeLine } from './io.ts';
import { parseFlags } from './parse-flags.ts';
import { shutdownSignal } from './shutdown-signal.ts';
import { UsageError } from './usage-error.ts';
import { HTTP_ONLY_FLAGS } from './serve-flags.ts';

const DEFAULT_LISTEN = '127.0.0.1:8788';

const OPTIONS = {
  http: { type: 'boolean' },
  listen: { type: 'string' },
  resource: { type: 'string' },
  issuer: { type: 'string' },
  'jwks-url': { type: 'string' },
  scope: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'max-concurrency': { type: 'string' },
  'insecure-no-auth': { type: 'boolean' },
  'log-format': { type: 'string' },
  'metrics-listen': { type: 'string' },
} as const;

// docs/design/remote.md §1.2: every message verbatim.
const MESSAGES = {
  listen: '--listen must be <host>:<port> with an IP address or localhost.',
  url: (flag: string) => `${flag} must be an https URL, or http on localhost, 127.0.0.1 or [::1], without credentials, query or fragment.`,
  resourcePath: '--resource must have the path /mcp.',
  authRequired: '--resource, --issuer and --jwks-url are required unless --insecure-no-auth is given with a loopback --listen address.',
  insecureNotLoopback: '--insecure-no-auth is allowed only with a loopback --listen address.',
  insecureCombined: '--insecure-no-auth cannot be combined with --issuer, --jwks-url or --scope.',
  scope: '--scope must be a single OAuth scope token.',
  origin: '--allowed-origin must be an origin such as https://app.example.com.',
  concurrency: '--max-concurrency must be an integer from 1 to 1024.',
  logFormat: '--log-format must be json, text or none.',
  metricsListen: '--metrics-listen must be <host>:<port> with an IP address or localhost.',
} as const;

// docs/design/remote.md §1.3 steps 2, 5 and 6.
const READ_ONLY_MESSAGE = 'External context remote MCP server is read-only; remove "write" from the configuration. Field: write.';
const VERSION_1_MESSAGE = 'External context MCP server requires a version 1 configuration.';
const STARTUP_FAILED_MESSAGE = 'External context startup failed.';

/** The validated command line. */
interface HttpFlags {
  readonly config: ConfigFlag;
  /** `--listen` exactly as given, for the listen-failure message. */
  readonly listenText: string;
  /** Host in URL form, IPv6 normalized and in brackets. */
  readonly listenHost: string;
  readonly port: number;
  readonly resource: string | undefined;
  /** Present exactly when authentication is on. */
  readonly auth: { readonly resource: string; readonly issuer: string; readonly jwksUrl: string; readonly scope: string } | undefined;
  /** Lowercased. */
  readonly allowedOrigins: ReadonlySet<string>;
  readonly maxConcurrency: number;
  /** `--log-format`: the operator log (docs/design/remote.md §1.10). */
  readonly logFormat: LogFormat;
  /** `--metrics-listen` as given and parsed, or undefined (no metrics; docs/design/remote.md §1.12). */
  readonly metrics: { readonly text: string; readonly host: string; readonly port: number } | undefined;
}

/**
 * Runs `serve --http`.
 *
 * @param args The `serve` arguments, `--http` included.
 * @param io Streams and environment.
 * @returns 0 after a graceful shutdown; 1 on a startup failure (one stderr line).
 * @throws {UsageError} On every condition of docs/design/remote.md §1.2 (exit 2).
 * @see docs/design/remote.md §1
 */
export async function runHttp(args: string[], io: Io): Promise<number> {
  const flags = parseHttpFlags(args);
  // docs/design/README.md, "Deno permissions": checked at startup, never per request.
  const missing = await missingPermission([{ name: 'read' }, { name: 'env' }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }
  let server: RemoteServer;
  let metricsListener: Listener | undefined;
  const observers = await createObservers(flags.metrics !== undefined, () => server?.handler.active ?? 0);
  let tools: readonly Tool[];
  try {
    let jwksDecision: OutboundRoute | undefined;
    const listenTarget = flags.port === 0 ? flags.listenHost.replace(/^\[(.*)\]$/u, '$1') : `${flags.listenHost}:${flags.port}`;
    const metricsTarget = flags.metrics === undefined ? [] : [flags.metrics.port === 0 ? flags.metrics.host.replace(/^\[(.*)\]$/u, '$1') : `${flags.metrics.host}:${flags.metrics.port}`];
    const extraHosts = [listenTarget, ...metricsTarget, ...(flags.auth === undefined ? [] : [new URL(flags.auth.jwksUrl).host])];
    const opened = await openHttpBinding(flags, io, extraHosts, () => {
      // Step 3 for the JWKS target, before the adapter as ever.
      jwksDecision = flags.auth === undefined ? undefined : decideRoute(flags.auth.jwksUrl, io.env);
    });
    if (typeof opened === 'string') {
      writeError(io, opened);
      return EXIT_FAILURE;
    }
    tools = opened;
    const start = await import('../mcp/http/start-remote-server.ts');
    try {
      server = await start.startRemoteServer({
        tools: () => tools,
        listenHost: flags.listenHost,
        port: flags.port,
        resource: flags.resource,
        allowedOrigins: flags.allowedOrigins,
        maxConcurrency: flags.maxConcurrency,
        auth: await remoteAuth(flags, jwksDecision, observers),
        readiness: observers.readiness,
        ...(observers.metrics === undefined ? {} : { metrics: observers.metrics }),
        ...requestLog(flags.logFormat, io),
      });
    } catch (error) {
      if (error instanceof start.ListenFailedError) {
        const { listenFailureCause } = await import('../runtime/listen.ts');
        writeError(io, `Unable to listen on ${flags.listenText}: ${listenFailureCause(error.cause)}.`);
        return EXIT_FAILURE;
      }
      throw error;
    }
    if (flags.metrics !== undefined && observers.metrics !== undefined) {
      const { startMetricsListener } = await import('./metrics-listener.ts');
      try {
        metricsListener = await startMetricsListener(observers.metrics.registry, { hostname: flags.metrics.host, port: flags.metrics.port });
      } catch (error) {
        const { listenFailureCause } = await import('../runtime/listen.ts');
        writeError(io, `Unable to listen on ${flags.metrics.text}: ${listenFailureCause(error)}.`);
        await server.shutdown();
        return EXIT_FAILURE;
      }
    }
  } catch (error) {
    writeError(io, error instanceof ConfigError ? error.message : STARTUP_FAILED_MESSAGE);
    return EXIT_FAILURE;
  }
  // Handlers first, so a signal sent right after the URL line is seen.
  const stopped = shutdownSignal();
  // docs/design/remote.md §1.13: SIGHUP re-runs steps 1–4; a failure keeps the running binding.
  const stopReloading = onReloadSignal(async () => {
    const next = await openHttpBinding(flags, io, []).catch((error: unknown) => (error instanceof ConfigError ? error.message : STARTUP_FAILED_MESSAGE));
    observers.metrics?.reload(typeof next === 'string' ? 'failed' : 'ok');
    if (typeof next === 'string') {
      // In json mode every stderr line is one JSON object (issue 25 §4.6).
      const message = reloadFailedMessage(flags.config, io.env, next);
      if (flags.logFormat === 'json') writeLine(io.stderr, JSON.stringify({ time: new Date().toISOString(), event: 'reload-failed', message }));
      else writeError(io, message);
      return;
    }
    tools = next;
    const line = formatReloadLine(new Date().toISOString(), configPathOf(flags.config, io.env), flags.logFormat);
    if (line !== undefined) writeLine(io.stderr, line);
  });
  writeLine(io.stdout, server.url);

  const startup = formatStartupLine(
    {
      time: new Date().toISOString(),
      address: `${flags.listenHost}:${server.port}`,
      resource: flags.resource,
      auth: flags.auth === undefined ? 'none' : 'oauth',
      ...(flags.auth === undefined ? {} : { issuer: flags.auth.issuer }),
    },
    flags.logFormat,
  );
  if (startup !== undefined) writeLine(io.stderr, startup);
  const metricsLine = metricsListener === undefined ? undefined : formatMetricsLine(new Date().toISOString(), metricsListener.url, flags.logFormat);
  if (metricsLine !== undefined) writeLine(io.stderr, metricsLine);
  // Start-up is over: steady-state requests get the normal JIT policy (build/compile.ts).
  void markInteractive();
  await stopped;
  stopReloading();
  await Promise.all([server.shutdown(), metricsListener?.close()]);
  return EXIT_OK;
}

/**
 * Steps 1–4 of docs/design/remote.md §1.3 and the Deno network permission: at startup and on
 * every reload (§1.13).
 *
 * @param extraHosts Hosts that need a network permission besides the provider's.
 * @param afterProxyEnvironment Step 3 for the JWKS target (its proxy decision).
 * @returns The tools, or the message of a missing permission.
 * @throws {ConfigError} On a configuration, proxy or adapter error.
 */
async function openHttpBinding(flags: HttpFlags, io: Io, extraHosts: readonly string[], afterProxyEnvironment?: () => void): Promise<readonly Tool[] | string> {
  const binding = await loadBinding(flags, io);
  // Step 3: the proxy environment, decided per target (the JWKS target here, the provider's in
  // step 4): a malformed variable stops only a target it would apply to, never a loopback one
  // (issue 25 §4.4).
  afterProxyEnvironment?.();
  // Step 4: adapter construction (origin policy, basePath, the provider's proxy decision).
  const { createProvider } = await import('../providers/create-provider.ts');
  const provider = createProvider(binding, { env: io.env });
  const hosts = [...extraHosts, new URL(provider.origin).host];
  const net = await missingPermission(hosts.map((host) => ({ name: 'net', target: host })));
  if (net !== undefined) return permissionMessage(net);
  const { createTools } = await import('../mcp/tools.ts');
  return createTools(binding, provider, await operatorStream(flags.logFormat, io));
}

// Steps 1 and 2 of docs/design/remote.md §1.3: the configuration as the stdio server loads it, then the
// read-only rule.
async function loadBinding(flags: HttpFlags, io: Io): Promise<Binding> {
  const binding = await loadConfig(flags.config, io.env);
  if (binding.version !== 1) throw new ConfigError(VERSION_1_MESSAGE);
  if (binding.writeEnabled) throw new ConfigError(READ_ONLY_MESSAGE, 'write');
  refusePlaceholders(binding, io.env);
  await refuseUntrustedConfig(binding.configPath, trustFacts());
  return binding;
}

async function remoteAuth(flags: HttpFlags, jwksDecision: OutboundRoute | undefined, observers: Observers): Promise<RemoteAuth | undefined> {
  if (flags.auth === undefined || jwksDecision === undefined) return undefined;
  const { createTokenChecker } = await import('../mcp/http/token-verifier.ts');
  const { createJwksFetch } = await import('../mcp/http/jwks-fetch.ts');
  const { resource, issuer, jwksUrl, scope } = flags.auth;
  const fetch = observedJwksFetch(createJwksFetch(jwksDecision), observers);
  return { resource, issuer, scope, verify: createTokenChecker({ issuer, audience: resource, jwksUrl, scope, fetch, cache: observers.tokenCache }) };
}

/**
 * Where the tools' operator lines go (`external-context: context_search failed: <class>`,
 * docs/design/providers.md §1.6): stderr as they are, except with `--log-format json`, where each line
 * becomes one JSON object `{"time","event":"operator","message"}` so that every stderr line
 * of a running server parses as JSON (docs/design/remote.md §1.10).
 */
async function operatorStream(format: LogFormat, io: Io): Promise<Writable> {
  if (format !== 'json') return io.stderr;
  const { Writable } = await import('node:stream');
  let pending = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: Uint8Array | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
      pending += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        const message = line.startsWith(OPERATOR_PREFIX) ? line.slice(OPERATOR_PREFIX.length) : line;
        writeLine(io.stderr, JSON.stringify({ time: new Date().toISOString(), event: 'operator', message }));
      }
      callback();
    },
  });
}

/** The prefix of an operator line, which a JSON line carries as its `event` instead. */
const OPERATOR_PREFIX = 'external-context: ';

/** The handler's `log` option for `--log-format`: nothing for `none`. */
function requestLog(format: LogFormat, io: Io): { log?: (entry: RequestLogEntry) => void } {
  if (format === 'none') return {};
  return {
    log: (entry) => {
      const line = formatRequestLine(entry, format);
      if (line !== undefined) writeLine(io.stderr, line);
    },
  };
}

function parseHttpFlags(args: string[]): HttpFlags {
  const { rest, config } = extractConfigFlag(args);
  const { values } = parseFlags(rest, OPTIONS, 'serve', false, ['config']);
  const usage = (message: string): UsageError => new UsageError(message, 'serve', { verbatim: true });
  const listenText = values['listen'] ?? DEFAULT_LISTEN;
  const listen = parseRemoteListen(listenText);
  if (listen === undefined) throw usage(MESSAGES.listen);

  const resource = values['resource'];
  const issuer = values['issuer'];
  const jwksUrl = values['jwks-url'];
  for (const [flag, value] of [
    ['--resource', resource],
    ['--issuer', issuer],
    ['--jwks-url', jwksUrl],
  ] as const) {
    if (value !== undefined && !isRemoteUrl(value)) throw usage(MESSAGES.url(flag));
  }
  if (resource !== undefined && new URL(resource).pathname !== '/mcp') throw usage(MESSAGES.resourcePath);

  const insecure = values['insecure-no-auth'] === true;
  const scope = values['scope'];
  if (!insecure && (resource === undefined || issuer === undefined || jwksUrl === undefined)) throw usage(MESSAGES.authRequired);
  if (insecure && !LOOPBACK_LISTEN_HOSTS.has(listen.host)) throw usage(MESSAGES.insecureNotLoopback);
  if (insecure && (issuer !== undefined || jwksUrl !== undefined || scope !== undefined)) throw usage(MESSAGES.insecureCombined);
  if (scope !== undefined && !SCOPE_TOKEN.test(scope)) throw usage(MESSAGES.scope);

  const allowedOrigins = new Set<string>();
  for (const origin of values['allowed-origin'] ?? []) {
    if (!isOriginValue(origin)) throw usage(MESSAGES.origin);
    allowedOrigins.add(origin.toLowerCase());
  }

  const logFormatText = values['log-format'] ?? 'json';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormatText)) throw usage(MESSAGES.logFormat);
  const logFormat = logFormatText as LogFormat;

  const metricsText = values['metrics-listen'];
  const metricsAddress = metricsText === undefined ? undefined : parseRemoteListen(metricsText);
  if (metricsText !== undefined && metricsAddress === undefined) throw usage(MESSAGES.metricsListen);

  const concurrencyText = values['max-concurrency'] ?? String(DEFAULT_MAX_CONCURRENCY);
  const maxConcurrency = Number(concurrencyText);
  if (!/^[0-9]+$/.test(concurrencyText) || maxConcurrency < 1 || maxConcurrency > 1024) throw usage(MESSAGES.concurrency);

  return {
    config,
    listenText,
    listenHost: listen.host,
    port: listen.port,
    resource,
    auth: insecure || resource === undefined || issuer === undefined || jwksUrl === undefined ? undefined : { resource, issuer, jwksUrl, scope: scope ?? DEFAULT_SCOPE },
    allowedOrigins,
    maxConcurrency,
    logFormat,
    metrics: metricsText === undefined || metricsAddress === undefined ? undefined : { text: metricsText, ...metricsAddress },
  };
}
