// `external-context serve`: the stdio MCP server (and, with --http, the remote server of
// docs/design/remote.md). Loads the binding before the MCP SDK is imported, so startup errors are fast.
import { ConfigError } from '../config/config-error.ts';
import { printHelp, wantsHelp } from './help.ts';
import type { ConfigFlag } from '../config/locate.ts';
import { extractConfigFlag } from './config-flag.ts';
import type { Writable } from 'node:stream';
import type { Io } from './io.ts';
import { writeError } from './io.ts';
import { missingPermission, permissionMessage } from '../runtime/permissions.ts';
import { versionLine } from '../version.ts';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.ts';
import { HTTP_HELP_OPTIONS, httpOnlyFlagError, repeatedFlagError } from './serve-flags.ts';
import type { Tool } from '../mcp/tool.ts';

/** `serve --help`. */
export const help = `${versionLine()}
Run the stdio MCP server exposing context_search (and context_remember in the write variant),
bound to one administrator-owned configuration. No arguments at all also runs this command.

USAGE
  external-context serve [--config <abs path>]
  external-context serve --http [--config <abs path>] [--listen <host:port>] [--resource <url>]
      [--issuer <url>] [--jwks-url <url>] [--scope <scope>] [--allowed-origin <origin>]...
      [--max-concurrency <n>] [--insecure-no-auth] [--log-format json|text|none]
      [--metrics-listen <host:port>] [--allowed-host <host[:port]>]...

OPTIONS
  --config <abs path>         Configuration file (default: $QWEN_EXTERNAL_CONTEXT_CONFIG).
${HTTP_HELP_OPTIONS}  -h, --help                  Show this help.

ENVIRONMENT
  QWEN_EXTERNAL_CONTEXT_CONFIG   Absolute configuration path when --config is not given.
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   Proxy for the provider (loopback is never proxied).

SIGNALS
  SIGHUP   Re-read the configuration: calls that start afterwards use it, calls in flight
           finish on the old one; an invalid file keeps the old one (one stderr line).

EXIT CODES
  0  stdin reached EOF (the client went away); with --http, after graceful shutdown
  1  startup failure: one stderr line "[external-context] <message>"
  2  unknown flag, stray argument, or a flag other than --allowed-origin or --allowed-host given twice

EXAMPLES
  external-context serve --config /etc/external-context/search.json
  qwen --mcp-config /etc/external-context/managed-search-mcp.json
`;

/**
 * A Writable that hands each write at once to `io.stderr`, built on the first operator line:
 * under Bun, building the stderr stream costs the executable's cold start about 2 ms CPU and
 * 5 ms to `initialize` (issue 18), and a server whose calls succeed never writes to it.
 */
async function stderrOnFirstWrite(io: Io): Promise<Writable> {
  const { Writable } = await import('node:stream');
  return new Writable({
    decodeStrings: false,
    write(chunk: Uint8Array | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
      // Handed on synchronously and acknowledged at once, so nothing waits here: the order and
      // the runtime's own queueing are those of a direct write, also on the way out.
      io.stderr.write(chunk);
      callback();
    },
  });
}

/** Runs `serve`. */
export async function run(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args)) return printHelp(io, help);
  const repeated = repeatedFlagError(args);
  if (repeated !== undefined) throw repeated;
  if (args.includes('--http')) {
    const http = await import('./serve-http.ts');
    return http.runHttp(args, io);
  }
  const httpOnly = httpOnlyFlagError(args);
  if (httpOnly !== undefined) throw httpOnly;
  const { rest, config } = extractConfigFlag(args);
  // Anything but --config is refused; node:util (parseArgs) loads only then, off the cold start (issue 18).
  if (rest.length > 0) (await import('./parse-flags.ts')).parseFlags(rest, {}, 'serve', false, ['config', 'http']);
  // docs/design/README.md, "Deno permissions": checked at startup, never per call.
  const missing = await missingPermission([{ name: 'read' }, { name: 'env' }]);
  if (missing !== undefined) {
    writeError(io, permissionMessage(missing));
    return EXIT_FAILURE;
  }
  let tools: readonly Tool[];
  const open = (stderr: Writable): Promise<readonly Tool[] | string> => openTools(config, io, stderr);
  const stderr = await stderrOnFirstWrite(io);
  const opened = await open(stderr);
  if (typeof opened === 'string') {
    writeError(io, opened);
    return EXIT_FAILURE;
  }
  tools = opened;
  // docs/design/remote.md §1.13: SIGHUP re-reads the configuration; a failure keeps the running one.
  const { onReloadSignal } = await import('./reload-signal.ts');
  const stopReloading = onReloadSignal(async () => {
    const next = await open(stderr);
    const { configPathOf, reloadFailedMessage } = await import('./reload-lines.ts');
    if (typeof next === 'string') {
      writeError(io, reloadFailedMessage(config, io.env, next));
      return;
    }
    tools = next;
    writeError(io, `Configuration reloaded from ${configPathOf(config, io.env)}.`);
  });
  const { serveStdio } = await import('../mcp/server.ts');
  await serveStdio(() => tools, io.stdin, io.stdout);
  stopReloading();
  return EXIT_OK;
}

/**
 * Loads the configuration as the stdio server does at startup and on every reload, and makes its tools.
 *
 * @returns The tools, or the one stderr message of a configuration error or a missing permission.
 */
async function openTools(config: ConfigFlag, io: Io, stderr: Writable): Promise<readonly Tool[] | string> {
  try {
    const { openBinding } = await import('../search/open-binding.ts');
    const opened = await openBinding(config, io.env);
    if (opened.binding.version !== 1) {
      throw new ConfigError('External context MCP server requires a version 1 configuration.');
    }
    (await import('../config/placeholders.ts')).refusePlaceholders(opened.binding, io.env);
    const { refuseUntrustedConfig } = await import('../config/trusted-config.ts');
    await refuseUntrustedConfig(opened.binding.configPath, (await import('../runtime/trust-facts.ts')).trustFacts());
    // The provider host is known only now; without it every call would fail.
    const net = await missingPermission([{ name: 'net', target: new URL(opened.provider.origin).host }]);
    if (net !== undefined) return permissionMessage(net);
    const { createTools } = await import('../mcp/tools.ts');
    return createTools(opened.binding, opened.provider, stderr);
  } catch (error) {
    return error instanceof ConfigError ? error.message : 'External context startup failed.';
  }
}
