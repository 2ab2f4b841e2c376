// The internal provider interfaces. Neither call carries a tenant, user, repository, namespace
// or filter: the factory binds those from the configuration (docs/design/providers.md, introduction).
import type { Binding } from '../config/binding.ts';
import type { ProxyRuntime } from '../runtime/proxy-runtime.ts';
import type { ProxyEnvironment } from './proxy.ts';

/** One parsed provider item before bounding (docs/design/providers.md §2). Raw lengths are unbounded. */
export interface ProviderItem {
  readonly id: string;
  readonly content: string;
  readonly title?: string;
  readonly uri?: string;
  readonly score?: number;
  readonly updatedAt?: string;
}

/** A search request: the normalized query, the fixed limit (5) and the combined signal. */
export interface SearchRequest {
  readonly query: string;
  readonly limit: number;
  readonly signal: AbortSignal;
}

/** The outcome of one Direct Import write (docs/design/providers.md §6). */
export type RememberResult =
  | { readonly status: 'stored'; readonly providerOperationId?: string }
  | { readonly status: 'accepted'; readonly providerOperationId: string }
  | { readonly status: 'failed'; readonly cause: string }
  | { readonly status: 'unknown'; readonly cause: string };

/** A write request: the exact content (never modified), the caller's signal and the write timeout. */
export interface RememberRequest {
  readonly content: string;
  readonly signal: AbortSignal;
  /** Write timeout in ms, started once the fetch is warmed; default: none beyond `signal`. */
  readonly timeoutMs?: number;
}

/** A bound read adapter. */
export interface SearchProvider {
  /** Exactly one HTTP request; at most 5 items in provider order. @throws {ProviderError} */
  search(request: SearchRequest): Promise<readonly ProviderItem[]>;
  /** The binding's `redactSecrets` (docs/design/config.md §4.3): runSearch redacts before bounding. */
  readonly redactSecrets?: boolean;
}

/** A bound write adapter (Mem0 family only). Outcomes are return values, not exceptions. */
export interface WriteProvider {
  /** Exactly one HTTP request, never retried. */
  remember(request: RememberRequest): Promise<RememberResult>;
}

/** What the factory returns: the adapter plus the URLs it is bound to (for `check`). */
export interface BoundProvider {
  readonly search: SearchProvider['search'];
  /** Present only when writes are enabled in the binding. */
  readonly remember: WriteProvider['remember'] | undefined;
  readonly origin: string;
  readonly searchUrl: string;
  /** Present for Mem0-family providers (whether or not writes are enabled). */
  readonly writeUrl: string | undefined;
  /** How requests to the origin are routed (docs/design/config.md §11 `proxy` line); never the proxy URL. */
  readonly proxy: 'direct' | 'proxied';
  /** The binding's `redactSecrets`, present only when true (docs/design/config.md §4.3). */
  readonly redactSecrets?: true;
}

/** What the factory needs besides the binding. */
export interface ProviderFactoryOptions {
  /**
   * The process environment, for the proxy decision only (docs/design/config.md §12). Entry points pass
   * `process.env`; omitted means an empty environment (every target direct).
   */
  readonly env?: ProxyEnvironment;
  /** The runtime facts of the proxy decision; omitted means the executing runtime. */
  readonly runtime?: ProxyRuntime;
  /**
   * Test-only seam, reachable from no configuration field or environment variable: replaces
   * the fixed https://api.mem0.ai origin of `mem0-platform-v3`.
   */
  readonly platformOriginForTests?: string;
}

/**
 * Builds the bound adapter for a binding.
 *
 * @throws {ConfigError} On origin-policy or basePath failures (docs/design/config.md §6 step 6), and on
 *   the proxy errors of docs/design/config.md §12 (invalid proxy variable, proxy refused on Node.js).
 */
export type ProviderFactory = (binding: Binding, options?: ProviderFactoryOptions) => BoundProvider;
