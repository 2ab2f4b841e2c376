// Proxy routing of the gateway's MCP connections (docs/design/config.md §12): the one per-target decision
// of providers/outbound.ts, applied at load time (Node.js refusal) and for every request.
import { ConfigError } from '../../config/config-error.ts';
import { decideRoute, routedFetch, type RoutedFetch } from '../../providers/outbound.ts';
import type { ProxyEnvironment } from '../../providers/proxy.ts';
import type { FrontendMcpConfig } from './schema.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { ownEnv } from '../../util/own-env.ts';

// The variables the decision reads; only these are kept with a loaded configuration.
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_USE_ENV_PROXY', 'NODE_OPTIONS'];

/**
 * Decides the route of every enabled server before the first request, and keeps the proxy
 * variables in the configuration itself (a field, not a side table keyed by the object, so a
 * copy of the configuration routes as the original: issue 25 §5).
 *
 * @param config The validated configuration.
 * @param env The environment the configuration was loaded with.
 * @returns The configuration, with `proxyEnvironment` when a proxy variable is set.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the docs/design/config.md §12 message: an
 *   invalid proxy variable, or on Node.js a proxy that applies to an enabled server's URL.
 * @see docs/design/config.md §12; docs/design/frontend-mcp.md §1.2
 */
export function checkProxyRoutes(config: FrontendMcpConfig, env: ProxyEnvironment): FrontendMcpConfig {
  for (const server of config.servers) {
    if (!server.enabled) continue;
    try {
      decideRoute(server.transport.url, env);
    } catch (error) {
      if (error instanceof ConfigError) throw configInvalid(error.message);
      throw error;
    }
  }
  const kept = PROXY_VARIABLES.flatMap((name) => {
    const value = ownEnv(env, name);
    return value === undefined ? [] : [[name, value] as const];
  });
  return kept.length === 0 ? config : { ...config, proxyEnvironment: Object.fromEntries(kept) };
}

/**
 * The fetch of a gateway's MCP connections: each request routed by the per-target decision
 * of outbound.ts, its transport failure classified for the connection_failed log
 * (docs/design/providers.md §1.6).
 *
 * @param config The configuration the gateway runs.
 * @param env The environment to decide with; default: the `proxyEnvironment` the configuration
 *   was loaded with, else an empty one (every target direct).
 * @returns A fetch for the SDK transport.
 * @see docs/design/config.md §12
 */
export function gatewayFetch(config: FrontendMcpConfig, env?: ProxyEnvironment): RoutedFetch {
  return routedFetch(env ?? config.proxyEnvironment ?? {});
}
