// `external-context serve --http`: the remote Streamable HTTP MCP server (docs/design/remote.md §1):
// the startup sequence and its messages (§1.3), the one stdout line, reloads on SIGHUP (§1.13) and
// graceful shutdown on SIGINT/SIGTERM (§1.9); the flags are parsed in serve-http-flags.ts. The MCP
// SDK, the handler and jose load only after the command line is valid.
import type { Writable } from 'node:stream';
import type { Binding } from '../config/binding.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { ConfigError } from '../config/config-error.ts';
import { loadConfig } from '../config/load.ts';
import { refusePlaceholders } from '../config/placeholders.ts';
import { refuseUntrustedConfig } from '../config/trusted-config.ts';
import { trustFacts } from '../runtime/trust-facts.ts';
import type { RemoteAuth } from '../mcp/http/remote-mcp-handler.ts';
import type { RemoteServer } from '../mcp/http/start-remote-server.ts';
import { formatRequestLine, formatStartupLine, type LogFormat, type RequestLogEntry } from '../mcp/http/request-log.ts';
import type { Tool } from '../mcp/tool.ts';
import { type HttpFlags, parseHttpFlags } from './serve-http-flags.ts';
import { createObservers, observedJwksFetch, type Observers } from './serve-http-observers.ts';
import type { Listener } from '../runtime/listen-types.ts';
import { configPathOf, formatMetricsLine, formatReloadLine, reloadFailedMessage } from './reload-lines.ts';
import { onReloadSignal } from './reload-signal.ts';
import { decideRoute, type OutboundRoute } from '../providers/outbound.ts';
import { markInteractive } from '../runtime/jit.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { type Io, writeError, writeLine } from './io.ts';
import { shutdownSignal } from './shutdown-signal.ts';

// docs/design/remote.md §1.3 steps 2, 5 and 6.
const READ_ONLY_MESSAGE = 'External context remote MCP server is read-only; remove "write" from the configuration. Field: write.';
const VERSION_1_MESSAGE = 'External context MCP server requires a version 1 configuration.';
const STARTUP_FAILED_MESSAGE = 'External context startup failed.';

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
  let server: RemoteServer | undefined;
  const observers = await createObservers(flags.metrics !== undefined, () => server?.handler.active ?? 0);
  const tools: ServedTools = { current: [] };
  const started = await startServing(flags, io, observers, tools, (running) => {
    server = running;
  });
  if (started === undefined) return EXIT_FAILURE;
  const { metricsListener } = started;
  // Handlers first, so a signal sent right after the URL line is seen.
  const stopped = shutdownSignal();
  const stopReloading = onReloadSignal(() => reloadBinding(flags, io, observers, tools));
  writeLine(io.stdout, started.server.url);
  writeStartupLines(flags, io, started.server.port, metricsListener);
  // Start-up is over: steady-state requests get the normal JIT policy (build/compile.ts).
  void markInteractive();
  await stopped;
  stopReloading();
  await Promise.all([started.server.shutdown(), metricsListener?.close()]);
  return EXIT_OK;
}

/** The tools the running server answers with; a reload replaces `current`. */
interface ServedTools {
  current: readonly Tool[];
}

/**
 * Steps 1–7 of docs/design/remote.md §1.3: the binding, the server and the metrics listener.
 *
 * @param onServer Called with the server once it listens, before the metrics listener starts.
 * @returns The server and the metrics listener; undefined after the one stderr line of a startup failure.
 */
async function startServing(
  flags: HttpFlags,
  io: Io,
  observers: Observers,
  tools: ServedTools,
  onServer: (server: RemoteServer) => void,
): Promise<{ server: RemoteServer; metricsListener: Listener | undefined } | undefined> {
  try {
    let jwksDecision: OutboundRoute | undefined;
    const opened = await openHttpBinding(flags, io, permissionHosts(flags), () => {
      // Step 3 for the JWKS target, before the adapter as ever.
      jwksDecision = flags.auth === undefined ? undefined : decideRoute(flags.auth.jwksUrl, io.env);
    });
    if (typeof opened === 'string') {
      writeError(io, opened);
      return undefined;
    }
    tools.current = opened;
    const start = await import('../mcp/http/start-remote-server.ts');
    let server: RemoteServer;
    try {
      server = await start.startRemoteServer({
        tools: () => tools.current,
        listenHost: flags.listenHost,
        port: flags.port,
        resource: flags.resource,
        allowedOrigins: flags.allowedOrigins,
        extraHosts: flags.allowedHosts,
        maxConcurrency: flags.maxConcurrency,
        auth: await remoteAuth(flags, jwksDecision, observers),
        readiness: observers.readiness,
        ...(observers.metrics === undefined ? {} : { metrics: observers.metrics }),
        ...requestLog(flags.logFormat, io),
      });
    } catch (error) {
      if (!(error instanceof start.ListenFailedError)) throw error;
      const { listenFailureCause } = await import('../runtime/listen.ts');
      writeError(io, `Unable to listen on ${flags.listenText}: ${listenFailureCause(error.cause)}.`);
      return undefined;
    }
    onServer(server);
    const metricsListener = await startMetrics(flags, io, observers, server);
    return metricsListener === false ? undefined : { server, metricsListener };
  } catch (error) {
    writeError(io, error instanceof ConfigError ? error.message : STARTUP_FAILED_MESSAGE);
    return undefined;
  }
}

/** The hosts besides the provider's that need a Deno network permission: the listen and metrics addresses, the JWKS host. */
function permissionHosts(flags: HttpFlags): string[] {
  const listenTarget = flags.port === 0 ? flags.listenHost.replace(/^\[(.*)\]$/u, '$1') : `${flags.listenHost}:${flags.port}`;
  const metricsTarget = flags.metrics === undefined ? [] : [flags.metrics.port === 0 ? flags.metrics.host.replace(/^\[(.*)\]$/u, '$1') : `${flags.metrics.host}:${flags.metrics.port}`];
  return [listenTarget, ...metricsTarget, ...(flags.auth === undefined ? [] : [new URL(flags.auth.jwksUrl).host])];
}

/**
 * The `--metrics-listen` listener (docs/design/remote.md §1.12), when asked for.
 *
 * @returns The listener, undefined without `--metrics-listen`, or false after the stderr line of a
 *   listen failure (the server is shut down first).
 */
async function startMetrics(flags: HttpFlags, io: Io, observers: Observers, server: RemoteServer): Promise<Listener | undefined | false> {
  if (flags.metrics === undefined || observers.metrics === undefined) return undefined;
  const { startMetricsListener } = await import('./metrics-listener.ts');
  try {
    return await startMetricsListener(observers.metrics.registry, { hostname: flags.metrics.host, port: flags.metrics.port }, flags.allowedHosts);
  } catch (error) {
    const { listenFailureCause } = await import('../runtime/listen.ts');
    writeError(io, `Unable to listen on ${flags.metrics.text}: ${listenFailureCause(error)}.`);
    await server.shutdown();
    return false;
  }
}

/** docs/design/remote.md §1.13: SIGHUP re-runs steps 1–4; a failure keeps the running binding. */
async function reloadBinding(flags: HttpFlags, io: Io, observers: Observers, tools: ServedTools): Promise<void> {
  const next = await openHttpBinding(flags, io, []).catch((error: unknown) => (error instanceof ConfigError ? error.message : STARTUP_FAILED_MESSAGE));
  observers.metrics?.reload(typeof next === 'string' ? 'failed' : 'ok');
  if (typeof next === 'string') {
    // In json mode every stderr line is one JSON object (issue 25 §4.6).
    const message = reloadFailedMessage(flags.config, io.env, next);
    if (flags.logFormat === 'json') writeLine(io.stderr, JSON.stringify({ time: new Date().toISOString(), event: 'reload-failed', message }));
    else writeError(io, message);
    return;
  }
  tools.current = next;
  const line = formatReloadLine(new Date().toISOString(), configPathOf(flags.config, io.env), flags.logFormat);
  if (line !== undefined) writeLine(io.stderr, line);
}

/** The startup line (docs/design/remote.md §1.10) and the metrics line, on stderr after the URL. */
function writeStartupLines(flags: HttpFlags, io: Io, port: number, metricsListener: Listener | undefined): void {
  const startup = formatStartupLine(
    {
      time: new Date().toISOString(),
      address: `${flags.listenHost}:${port}`,
      resource: flags.resource,
      auth: flags.auth === undefined ? 'none' : 'oauth',
      ...(flags.auth === undefined ? {} : { issuer: flags.auth.issuer }),
    },
    flags.logFormat,
  );
  if (startup !== undefined) writeLine(io.stderr, startup);
  const metricsLine = metricsListener === undefined ? undefined : formatMetricsLine(new Date().toISOString(), metricsListener.url, flags.logFormat);
  if (metricsLine !== undefined) writeLine(io.stderr, metricsLine);
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
