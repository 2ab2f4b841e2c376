// `serve --http`'s command line (docs/design/remote.md §1.1, §1.2): the options, their verbatim
// usage errors and the validated flags. The value rules themselves (`--listen`, origins, scope
// tokens) are the HTTP server's, in mcp/http/remote-flag-values.ts.
import type { ConfigFlag } from '../config/locate.ts';
import { LOOPBACK_LISTEN_HOSTS } from '../mcp/http/allowed-hosts.ts';
import { type AllowedHostProblem, parseAllowedHost } from '../util/allowed-hosts.ts';
import { DEFAULT_MAX_CONCURRENCY, DEFAULT_SCOPE } from '../mcp/http/remote-limits.ts';
import { isOriginValue, parseRemoteListen, SCOPE_TOKEN } from '../mcp/http/remote-flag-values.ts';
import { isRemoteUrl } from '../mcp/http/remote-url.ts';
import { LOG_FORMATS, type LogFormat } from '../mcp/http/request-log.ts';
import { extractConfigFlag } from './config-flag.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';

const DEFAULT_LISTEN = '127.0.0.1:8788';

const OPTIONS = {
  http: { type: 'boolean' },
  listen: { type: 'string' },
  resource: { type: 'string' },
  issuer: { type: 'string' },
  'jwks-url': { type: 'string' },
  scope: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
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

// docs/design/remote.md §1.2: what is wrong with an --allowed-host value, and how to fix it.
const ALLOWED_HOST_MESSAGES: Record<AllowedHostProblem, string> = {
  empty: '--allowed-host must be a host name such as mcp.internal or mcp.internal:8788.',
  url: '--allowed-host takes a host name with an optional port, not a URL or a path: write context.example.com, not https://context.example.com/mcp.',
  wildcard: '--allowed-host does not take wildcards: repeat the option once per name.',
  invalid: '--allowed-host must be a host name, an IPv4 address or an [IPv6] address, with an optional :port from 1 to 65535 (e.g. mcp.internal:8788).',
};

/** The validated command line. */
export interface HttpFlags {
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
  /** `--allowed-host` values, validated and lowercased (docs/design/remote.md §1.5 step 1). */
  readonly allowedHosts: readonly string[];
  readonly maxConcurrency: number;
  /** `--log-format`: the operator log (docs/design/remote.md §1.10). */
  readonly logFormat: LogFormat;
  /** `--metrics-listen` as given and parsed, or undefined (no metrics; docs/design/remote.md §1.12). */
  readonly metrics: { readonly text: string; readonly host: string; readonly port: number } | undefined;
}

/**
 * Parses and validates the `serve --http` arguments.
 *
 * @param args The `serve` arguments, `--http` included.
 * @returns The validated flags.
 * @throws {UsageError} On every condition of docs/design/remote.md §1.2, with its message verbatim.
 * @see docs/design/remote.md §1.1, §1.2
 */
export function parseHttpFlags(args: string[]): HttpFlags {
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
    allowedHosts: allowedHostValues(values['allowed-host'] ?? []),
    maxConcurrency,
    logFormat,
    metrics: metricsText === undefined || metricsAddress === undefined ? undefined : { text: metricsText, ...metricsAddress },
  };
}

// docs/design/remote.md §1.2: each --allowed-host validated, or the usage error of its problem.
function allowedHostValues(texts: readonly string[]): string[] {
  return texts.map((text) => {
    const parsed = parseAllowedHost(text);
    if ('problem' in parsed) throw new UsageError(ALLOWED_HOST_MESSAGES[parsed.problem], 'serve', { verbatim: true });
    return parsed.value;
  });
}
