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
  --allowed-origin <origin>   A browser origin allowed to call the server; repeatable
                              (none: requests with an Origin header are refused).
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
