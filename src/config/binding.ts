// The validated, typed result of loading a configuration: what one process is bound to.
// Produced only by config/load.ts; consumed by providers/ and the surfaces.
import type { PresetId, ScopeKey } from './presets.ts';

/** `generic-http-search-v1` provider settings (docs/design/config.md §4.2). */
export interface GenericHttpProviderConfig {
  readonly type: 'generic-http-search-v1';
  /** Absolute URL as written; the origin policy runs at adapter construction. */
  readonly baseUrl: string;
  readonly tokenEnv: string;
}

/** Legacy `mem0-platform-v3` provider settings (fixed origin https://api.mem0.ai). */
export interface Mem0PlatformProviderConfig {
  readonly type: 'mem0-platform-v3';
  readonly apiKeyEnv: string;
  /** Trimmed, 1…256 code points. */
  readonly appId: string;
}

/** `mem0` preset provider settings. */
export interface Mem0PresetProviderConfig {
  readonly type: 'mem0';
  readonly preset: PresetId;
  readonly endpoint: {
    readonly origin: string;
    /** Default `""`; checked by the nine basePath rules at adapter construction. */
    readonly basePath: string;
    readonly allowInsecureHttp: boolean;
  };
  readonly credentialEnv: string;
  /** Trimmed values, 1…256 code points each; only keys the preset uses. */
  readonly scope: Readonly<Partial<Record<ScopeKey, string>>>;
}

/** Any provider settings, discriminated by `type`. */
export type ProviderConfig = GenericHttpProviderConfig | Mem0PlatformProviderConfig | Mem0PresetProviderConfig;

/** Auto-recall settings of a version 2 configuration. */
export interface AutoRecallBinding {
  /** Canonical (symlink-resolved) repository root. */
  readonly repositoryRoot: string;
  /** Search timeout in ms, 1…5000, default 1500. */
  readonly timeoutMs: number;
}

/** A loaded configuration with its credential resolved. */
export interface Binding {
  readonly version: 1 | 2;
  /** Search and write timeout in ms, 1…30000, default 5000. */
  readonly timeoutMs: number;
  readonly provider: ProviderConfig;
  /** True only for version 1 with `write: {enabled: true}`. */
  readonly writeEnabled: boolean;
  /** Present exactly for version 2. */
  readonly autoRecall: AutoRecallBinding | undefined;
  /** The resolved credential value. Never printed, logged or put in a message. */
  readonly credential: string;
  /** The configuration path as the operator gave it (flag or variable). */
  readonly configPath: string;
}
