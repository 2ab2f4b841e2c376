// What the probe is aimed at once validation passed: the preset, the checked URLs, the scope,
// the credential and the route (docs/design/probe.md §1). Built from flags or from a configuration file.
import { checkBasePath, joinRequestUrl } from '../config/base-path.ts';
import { applyOriginPolicy, type OriginPolicyCaller } from '../config/origin-policy.ts';
import type { Preset, ScopeKey } from '../config/presets.ts';
import type { Mem0Target } from '../providers/mem0-preset.ts';
import { decideRoute, type OutboundRoute } from '../providers/outbound.ts';
import type { ProxyEnvironment } from '../providers/proxy.ts';
import type { ProxyRuntime } from '../runtime/proxy-runtime.ts';

/** Path of the declared schema, below origin and basePath (docs/design/probe.md §2 step 1). */
export const OPENAPI_PATH = '/openapi.json';

/** A validated probe target. `credential` goes into one request header only. */
export interface ProbeTarget extends Mem0Target {
  /** The normalized origin (no trailing `/`). */
  readonly origin: string;
  /** `<origin><basePath>/openapi.json`, read without the credential. */
  readonly openApiUrl: string;
  /** How requests to the origin are routed; `proxyUrl` may hold credentials, never print it. */
  readonly proxy: OutboundRoute;
}

/** The unchecked endpoint and where its messages point. */
export interface EndpointInput {
  readonly origin: string;
  readonly basePath: string;
  readonly allowInsecureHttp: boolean;
  /** `probe` for flags (the `--allow-insecure-http` hint), `mem0` for a configuration file. */
  readonly caller: Extract<OriginPolicyCaller, 'probe' | 'mem0'>;
  /** Field paths for the ` Field:` suffix (configuration form only). */
  readonly fieldPaths?: { readonly origin: string; readonly basePath: string };
}

/**
 * Checks the endpoint and decides the route: origin policy, then basePath, then the proxy.
 *
 * @param preset The claimed preset.
 * @param endpoint Origin, basePath, the insecure-HTTP opt-in and the message form.
 * @param scope Trimmed scope values already checked against the preset.
 * @param credential The resolved credential.
 * @param proxyFacts The environment and runtime of the per-target proxy decision.
 * @returns The target with its search, write and OpenAPI URLs.
 * @throws {ConfigError} The docs/design/config.md §8 origin messages (probe hint for flags), the §9
 *   basePath messages and the §12 proxy messages, Node.js refusal included.
 * @see docs/design/probe.md §1.1; docs/design/config.md §8, §9, §12
 */
export function bindProbeTarget(
  preset: Preset,
  endpoint: EndpointInput,
  scope: Readonly<Partial<Record<ScopeKey, string>>>,
  credential: string,
  proxyFacts: { readonly env: ProxyEnvironment; readonly runtime: ProxyRuntime },
): ProbeTarget {
  const origin = applyOriginPolicy(endpoint.origin, {
    caller: endpoint.caller,
    allowInsecureHttp: endpoint.allowInsecureHttp,
    ...(endpoint.fieldPaths === undefined ? {} : { fieldPath: endpoint.fieldPaths.origin }),
  });
  const prefix = checkBasePath(endpoint.basePath, endpoint.fieldPaths?.basePath);
  const searchUrl = joinRequestUrl(origin, prefix, preset.searchPath);
  const proxy = decideRoute(searchUrl, proxyFacts.env, proxyFacts.runtime);
  return {
    preset,
    searchUrl,
    writeUrl: joinRequestUrl(origin, prefix, preset.writePath),
    scope,
    credential,
    origin,
    openApiUrl: joinRequestUrl(origin, prefix, OPENAPI_PATH),
    proxy,
  };
}
