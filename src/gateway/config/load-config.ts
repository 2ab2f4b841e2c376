// loadFrontendMcpConfig: where the file is, reading it once, validating it (docs/design/frontend-mcp.md §2).
import { isAbsolute } from 'node:path';
import type { FrontendMcpConfig } from './schema.ts';
import { configInvalid } from '../frontend-mcp-error.ts';
import { checkProxyRoutes } from './proxy-routing.ts';
import { readConfigFile } from './read-config-file.ts';
import { validateFrontendMcpConfig } from './validate-config.ts';
import { ownEnv } from '../../util/own-env.ts';

/** The environment variable naming the configuration file. */
export const CONFIG_PATH_VARIABLE = 'QWEN_AUDIO_FRONTEND_MCP_CONFIG';

/** What loadFrontendMcpConfig reads. */
export interface LoadFrontendMcpConfigOptions {
  /** Absolute path of the file; when undefined, `QWEN_AUDIO_FRONTEND_MCP_CONFIG` is used. */
  readonly path?: string | undefined;
  /** The environment: the path variable and `${VAR}` header references are read from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Loads the Frontend MCP configuration. With neither a path nor the variable (or an empty
 * value) there is nothing to load and the result has no servers.
 *
 * @param options The path and the environment.
 * @returns The normalized configuration (docs/design/frontend-mcp.md §2.4).
 * @throws {FrontendMcpError} `frontend_mcp_config_invalid` for a relative path, a broken rule,
 *   an invalid proxy variable or, on Node.js, a proxy that applies to an enabled server
 *   (docs/design/config.md §12); `frontend_mcp_config_unavailable` when the file cannot be read or parsed.
 * @see docs/design/frontend-mcp.md §2.1–§2.4
 */
export async function loadFrontendMcpConfig(options: LoadFrontendMcpConfigOptions): Promise<FrontendMcpConfig> {
  const { env } = options;
  const path = options.path ?? ownEnv(env, CONFIG_PATH_VARIABLE);
  if (path === undefined || path === '') return { version: 1, servers: [] };
  // Decision: a relative path is rejected instead of resolved against the working directory.
  if (!isAbsolute(path)) throw configInvalid('Frontend MCP configuration path must be absolute.');
  const config = validateFrontendMcpConfig(await readConfigFile(path), env);
  return checkProxyRoutes(config, env);
}
