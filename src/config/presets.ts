// The Mem0 preset table: reviewed, immutable mappings from our internal interface to one
// Mem0-family wire contract, plus retired ids and their replacements (docs/design/providers.md §5.2, §5.3;
// docs/design/config.md §4.2).

/** Accepted preset identifiers, in the order the config error message lists them. */
export const PRESET_IDS = ['mem0-platform-v3', 'mem0-server-rest-2026-08', 'polardb-mysql-2026-08'] as const;

/** One accepted preset identifier. */
export type PresetId = (typeof PRESET_IDS)[number];

/** Where a scope value goes in a request (docs/design/providers.md §5.3). */
export type Placement = 'body' | 'filters' | 'body-and-filters' | 'omit';

/** The three scope keys of the config, in request order. */
export const SCOPE_KEYS = ['userId', 'agentId', 'appId'] as const;

/** One scope key of the config (`userId` → `user_id` on the wire). */
export type ScopeKey = (typeof SCOPE_KEYS)[number];

/** Wire names of the scope keys. */
export const SCOPE_WIRE_NAMES: Readonly<Record<ScopeKey, 'user_id' | 'agent_id' | 'app_id'>> = {
  userId: 'user_id',
  agentId: 'agent_id',
  appId: 'app_id',
};

/** Per-key rule: whether the preset needs it, and where it goes for search and write. */
export interface ScopeRule {
  readonly requirement: 'required' | 'optional' | 'absent';
  readonly search: Placement;
  readonly write: Placement;
}

/** One reviewed Mem0-family wire contract. */
export interface Preset {
  readonly id: PresetId;
  readonly deployment: 'managed' | 'operator-deployed';
  /** Credential header: `authorization: Token <k>`, `authorization: Bearer <k>` or `x-api-key: <k>`. */
  readonly credentialHeader: { readonly name: 'authorization' | 'x-api-key'; readonly scheme: 'Token' | 'Bearer' | '' };
  readonly searchPath: string;
  readonly limitField: 'top_k' | 'limit';
  /** Fixed search options in wire order, placed after the limit field. */
  readonly fixedSearchOptions: readonly (readonly [string, number | boolean])[];
  readonly idField: 'id';
  /** Content fields, first non-empty string wins. */
  readonly contentFields: readonly string[];
  /** PolarDB's Direct Import decoding of a JSON-serialized message list (docs/design/providers.md §5.5). */
  readonly directImportDecoding: boolean;
  readonly writePath: string;
  readonly writeResultKind: 'async-status' | 'results-id';
  readonly scope: Readonly<Record<ScopeKey, ScopeRule>>;
}

const ABSENT: ScopeRule = { requirement: 'absent', search: 'omit', write: 'omit' };

/** The preset table, keyed by id (docs/design/providers.md §5.2). */
export const PRESETS: Readonly<Record<PresetId, Preset>> = {
  'mem0-platform-v3': {
    id: 'mem0-platform-v3',
    deployment: 'managed',
    credentialHeader: { name: 'authorization', scheme: 'Token' },
    searchPath: '/v3/memories/search/',
    limitField: 'top_k',
    fixedSearchOptions: [
      ['threshold', 0.1],
      ['rerank', false],
    ],
    idField: 'id',
    contentFields: ['memory'],
    directImportDecoding: false,
    writePath: '/v3/memories/add/',
    writeResultKind: 'async-status',
    scope: {
      userId: ABSENT,
      agentId: ABSENT,
      appId: { requirement: 'required', search: 'filters', write: 'body' },
    },
  },
  'mem0-server-rest-2026-08': {
    id: 'mem0-server-rest-2026-08',
    deployment: 'operator-deployed',
    credentialHeader: { name: 'x-api-key', scheme: '' },
    searchPath: '/search',
    limitField: 'top_k',
    fixedSearchOptions: [],
    idField: 'id',
    contentFields: ['memory', 'content'],
    directImportDecoding: false,
    writePath: '/memories',
    writeResultKind: 'results-id',
    scope: {
      userId: { requirement: 'required', search: 'body-and-filters', write: 'body' },
      agentId: { requirement: 'optional', search: 'body-and-filters', write: 'body' },
      appId: ABSENT,
    },
  },
  'polardb-mysql-2026-08': {
    id: 'polardb-mysql-2026-08',
    deployment: 'operator-deployed',
    credentialHeader: { name: 'authorization', scheme: 'Token' },
    searchPath: '/v2/memories/search',
    limitField: 'top_k',
    fixedSearchOptions: [],
    idField: 'id',
    contentFields: ['memory'],
    directImportDecoding: true,
    writePath: '/v1/memories',
    writeResultKind: 'results-id',
    scope: {
      userId: { requirement: 'required', search: 'filters', write: 'body' },
      agentId: { requirement: 'optional', search: 'body', write: 'body' },
      appId: ABSENT,
    },
  },
};

/** Retired preset ids and their replacements (docs/design/config.md §4.2). */
export const RETIRED_PRESETS: Readonly<Record<string, PresetId>> = {
  'mem0-oss-rest-2026-08': 'mem0-server-rest-2026-08',
  'mem0-oss-2026-08': 'mem0-server-rest-2026-08',
  'aliyun-polardb-mysql-2026-08': 'polardb-mysql-2026-08',
  'mem0-v2': 'polardb-mysql-2026-08',
  'mem0-v3': 'mem0-platform-v3',
};

/** True when `value` is one of the accepted preset ids. */
export function isPresetId(value: unknown): value is PresetId {
  return typeof value === 'string' && (PRESET_IDS as readonly string[]).includes(value);
}
