// The `serve` flags that belong to `--http` only, shared by `serve --help`, the stdio path
// (which refuses them, docs/design/remote.md §1.2) and `serve --http`. Kept free of heavy imports so the
// stdio server's startup does not load the remote code.
import { UsageError } from './usage-error.ts';

/** The flags valid only together with `--http` (docs/design/remote.md §1.1). */
export const HTTP_ONLY_FLAGS: readonly string[] = [
  '--listen',
  '--resource',
  '--issuer',
  '--jwks-url',
  '--scope',
  '--allowed-origin',
  '--allowed-host',
  '--max-concurrency',
  '--insecure-no-auth',
  '--log-format',
  '--metrics-listen',
];

/** The `--http` part of `serve --help` (the OPTIONS of docs/design/remote.md §1.1, defaults in parentheses). */
export const HTTP_HELP_OPTIONS = `  --http                      Serve Streamable HTTP at /mcp instead of stdio; read-only (no
                              context_remember), stateless, OAuth-protected. Prints the
                              endpoint URL on stdout once listening.
  --listen <host:port>        IPv4 address, localhost or [IPv6]; port 0 binds a free port
                              (127.0.0.1:8788).
  --resource <url>            This server's canonical MCP URL, path /mcp: the token audience.
  --issuer <url>              Authorization server issuer; tokens' iss must equal it exactly.
  --jwks-url <url>            The issuer's JSON Web Key Set, fetched on the first token
                              (5000 ms timeout, cached 600000 ms).
  --scope <scope>             The scope every token must carry (context.read).
  --allowed-origin <origin>   A further browser origin allowed to call the server;
                              repeatable (none: only the server's own origin, that of
                              --resource or, with --insecure-no-auth, of the listen
                              address, may send an Origin header).
  --allowed-host <host[:port]>  Also answer requests whose Host is this name, on --listen and
                              the metrics listener: a service name Prometheus or a client
                              uses. Without a port, any port. Repeatable. A name or IP
                              address only: no URL, path or wildcard.
  --max-concurrency <n>       /mcp requests handled at once, 1 to 1024 (64).
  --insecure-no-auth          No authentication; only with a loopback --listen address.
  --log-format <format>       Operator log on stderr: json, text or none (json). One startup
                              line (address, resource, auth mode), then one line per request:
                              time, HTTP status, outcome (ok, auth-expired, jwks-timeout,
                              provider-connection-refused ...), total and provider ms.
  --metrics-listen <host:port>  Serve Prometheus metrics at GET /metrics on this separate
                              address (off). IPv4 address, localhost or [IPv6].
                              GET /healthz and GET /readyz are always served on --listen,
                              without a token. SIGHUP re-reads the configuration.
`;

/**
 * The usage error for an HTTP-only flag given without `--http`, for `serve` to throw.
 *
 * @param args The `serve` arguments (without `--http`).
 * @returns `<flag> is only valid with --http.` for the first HTTP-only flag before a `--`
 *   marker (`--flag` or `--flag=value`), or undefined when there is none.
 * @see docs/design/remote.md §1.2
 */
export function httpOnlyFlagError(args: readonly string[]): UsageError | undefined {
  for (const arg of args) {
    if (arg === '--') return undefined;
    const name = arg.split('=')[0] ?? arg;
    if (HTTP_ONLY_FLAGS.includes(name)) return new UsageError(`${name} is only valid with --http.`, 'serve', { verbatim: true });
  }
  return undefined;
}

/**
 * `serve` flags that take a value (`--flag value` or `--flag=value`): `--config` and every
 * `--http` flag but the one switch, so a new `--http` flag cannot be forgotten here.
 */
const VALUE_FLAGS: ReadonlySet<string> = new Set(['--config', ...HTTP_ONLY_FLAGS.filter((flag) => flag !== '--insecure-no-auth')]);
/** The `serve` flags that may be given more than once. */
const REPEATABLE_FLAGS: ReadonlySet<string> = new Set(['--allowed-origin', '--allowed-host']);

/**
 * The usage error for a `serve` flag given twice: a second `--config` would silently rebind the
 * server to another configuration while `check` reads the first (issue 25 §6.3), so no
 * single-valued flag may be repeated, as the Hooks refuse a repeated `--log`.
 *
 * @param args The `serve` arguments.
 * @returns `Option <flag> is given more than once.` (with the help suffix) for the first flag
 *   other than `--allowed-origin` and `--allowed-host` seen twice before a `--` marker, or undefined.
 * @see docs/design/README.md, "Usage errors"
 */
export function repeatedFlagError(args: readonly string[]): UsageError | undefined {
  const seen = new Set<string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') return undefined;
    if (!arg.startsWith('--')) continue;
    const name = arg.split('=')[0] ?? arg;
    if (seen.has(name) && !REPEATABLE_FLAGS.has(name)) return new UsageError(`Option ${name} is given more than once.`, 'serve');
    seen.add(name);
    // `--flag value`: the value is not a flag, whatever it looks like.
    if (VALUE_FLAGS.has(name) && name === arg) index++;
  }
  return undefined;
}
