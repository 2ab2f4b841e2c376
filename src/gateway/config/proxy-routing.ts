// Proxy routing of the gateway's MCP connections (docs/design/config.md §12): the one per-target decision
// of providers/proxy.ts, applied at load time (Node.js refusal) and for every request.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ConfigError } from '../../config/config-error.ts';
import { decideProxy, type ProxyEnvironment } from '../../providers/proxy.ts';
import { currentProxyRuntime } from '../../runtime/proxy-runtime.ts';
import { runtimeFetch } from '../../runtime/runtime-fetch.ts';
import { fetchRejection } from '../../providers/http-client.ts';
import { noteTransportFailure } from '../../providers/transport-failure.ts';
import type { FrontendMcpConfig } from './schema.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { ownEnv } from '../../util/own-env.ts';

// The variables the decision reads; only these are remembered with a loaded configuration.
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'NODE_USE_ENV_PROXY', 'NODE_OPTIONS'];
// Environment captured by loadFrontendMcpConfig, so a gateway built from that configuration
// routes as the loader decided without the host passing the environment twice.
const loadedEnvironments = new WeakMap<FrontendMcpConfig, ProxyEnvironment>();

/**
 * Decides the route of every enabled server before the first request, and remembers the
 * proxy variables for that configuration object.
 *
 * @param config The validated configuration.
 * @param env The environment the configuration was loaded with.
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` with the docs/design/config.md §12 message: an
 *   invalid proxy variable, or on Node.js a proxy that applies to an enabled server's URL.
 * @see docs/design/config.md §12; docs/design/frontend-mcp.md §1.2
 */
export function checkProxyRoutes(config: FrontendMcpConfig, env: ProxyEnvironment): void {
  const runtime = currentProxyRuntime();
  for (const server of config.servers) {
    if (!server.enabled) continue;
    try {
      decideProxy(server.transport.url, env, runtime);
    } catch (error) {
      if (error instanceof ConfigError) throw configInvalid(error.message);
      throw error;
    }
  }
  loadedEnvironments.set(config, Object.fromEntries(PROXY_VARIABLES.map((name) => [name, ownEnv(env, name)])));
}

/**
 * The fetch of a gateway's MCP connections: each request is routed as decideProxy says.
 *
 * @param config The configuration the gateway runs.
 * @param env The environment to decide with; default: the one loadFrontendMcpConfig saw for
 *   this configuration object, else an empty one (every target direct).
 * @returns A fetch for the SDK transport.
 * @see docs/design/config.md §12
 */
export function gatewayFetch(config: FrontendMcpConfig, env?: ProxyEnvironment): FetchLike {
  const environment = env ?? loadedEnvironments.get(config) ?? {};
  const runtime = currentProxyRuntime();
  return (url, init) => {
    const target = String(url);
    const decision = decideProxy(target, environment, runtime);
    return runtimeFetch(target, init ?? {}, decision).catch((error: unknown) => {
      // Classified for the connection_failed log (docs/design/providers.md §1.6); an abort is the
      // gateway's own timeout or cancellation and is reported as such. The error goes on unchanged.
      const signal = init?.signal ?? undefined;
      if (signal?.aborted !== true) noteTransportFailure(error, fetchRejection(error, new AbortController().signal, decision).failureClass);
      throw error;
    });
  };
}
