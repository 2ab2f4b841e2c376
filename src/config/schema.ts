// valibot schemas for the configuration objects (docs/design/config.md §4) and the mapping of the first
// issue onto the exact reason table of docs/design/config.md §5. Ordering rules valibot does not follow
// (root, `version`, top-level keys in file order) live in validate.ts.
import * as v from 'valibot';
import { closestName } from '../util/closest-name.ts';
import { codePointCount } from '../util/code-points.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { PRESET_IDS, RETIRED_PRESETS } from './presets.ts';

/** Reason texts of docs/design/config.md §5 that schemas attach as issue messages. */
export const REASONS = {
  object: 'must be an object',
  required: 'is required',
  unsupported: 'is not a supported field',
  string: 'must be a string',
  boolean: 'must be a boolean',
  true: 'must be true',
  envName: 'must be an environment variable name',
  trimmed: 'must contain 1 to 256 characters after trimming',
  absoluteUrl: 'must be an absolute URL',
  notEmpty: 'must not be empty',
  providerType: 'must be one of: generic-http-search-v1, mem0-platform-v3, mem0',
  preset: `must be one of: ${PRESET_IDS.join(', ')}`,
} as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A strict object that first requires a plain object (arrays are not objects here). */
function plainStrictObject<const T extends v.ObjectEntries>(entries: T) {
  return v.pipe(v.custom<Record<string, unknown>>(isPlainObject, REASONS.object), v.strictObject(entries, REASONS.object));
}

/** An integer `min`…`max` (JSON number with Number.isInteger true). */
export function integerInRange(min: number, max: number) {
  return v.custom<number>((value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max, `must be an integer from ${min} to ${max}`);
}

const envName = v.pipe(v.string(REASONS.string), v.regex(ENV_NAME, REASONS.envName));

// "Trimmed 1…256": trimmed with String.prototype.trim, then 1…256 code points (docs/design/config.md §4.2).
const trimmed256 = v.pipe(
  v.string(REASONS.string),
  v.trim(),
  v.check((value) => {
    const count = codePointCount(value);
    return count >= 1 && count <= 256;
  }, REASONS.trimmed),
);

const absoluteUrl = v.pipe(
  v.string(REASONS.string),
  v.check((value) => URL.canParse(value), REASONS.absoluteUrl),
);

/** `timeoutMs` of the top level: integer 1…30000, default 5000 ms. */
export const TimeoutMsSchema = v.optional(integerInRange(1, 30000), 5000);

/** `redactSecrets` of versions 1 and 2: boolean, default false (docs/design/config.md §4.3). */
export const RedactSecretsSchema = v.optional(v.boolean(REASONS.boolean), false);

/** `generic-http-search-v1` provider, entries in the table order of docs/design/config.md §4.2. */
export const GenericHttpProviderSchema = plainStrictObject({
  type: v.literal('generic-http-search-v1'),
  baseUrl: absoluteUrl,
  tokenEnv: envName,
  // A search API under a path prefix (issue 25 §4.9): the nine basePath rules of §9.
  basePath: v.optional(v.string(REASONS.string), ''),
});

/** Legacy `mem0-platform-v3` provider. */
export const Mem0PlatformProviderSchema = plainStrictObject({
  type: v.literal('mem0-platform-v3'),
  apiKeyEnv: envName,
  appId: trimmed256,
});

const presetSchema = v.pipe(
  v.string(REASONS.string),
  v.check(
    (value) => !Object.prototype.hasOwnProperty.call(RETIRED_PRESETS, value),
    (issue) => {
      const retired = String(issue.input);
      return `"${retired}" is retired; use "${RETIRED_PRESETS[retired] ?? ''}"`;
    },
  ),
  v.picklist(PRESET_IDS, REASONS.preset),
);

/** `mem0` preset provider; `endpoint` and `scope` are validated at their position. */
export const Mem0PresetProviderSchema = plainStrictObject({
  type: v.literal('mem0'),
  preset: presetSchema,
  endpoint: plainStrictObject({
    origin: absoluteUrl,
    basePath: v.optional(v.string(REASONS.string), ''),
    allowInsecureHttp: v.optional(v.boolean(REASONS.boolean), false),
  }),
  credentialEnv: envName,
  scope: plainStrictObject({
    userId: v.exactOptional(trimmed256),
    agentId: v.exactOptional(trimmed256),
    appId: v.exactOptional(trimmed256),
  }),
});

/** `write` of a version 1 configuration: exactly `{ "enabled": true }`. */
export const WriteSchema = plainStrictObject({
  enabled: v.custom<true>((value) => value === true, REASONS.true),
});

/** `autoRecall` of a version 2 configuration. */
export const AutoRecallSchema = plainStrictObject({
  repositoryRoot: v.pipe(v.string(REASONS.string), v.nonEmpty(REASONS.notEmpty)),
  timeoutMs: v.optional(integerInRange(1, 5000), 1500),
});

/**
 * `generic-http-search-v1` provider settings (docs/design/config.md §4.2): `baseUrl` is the absolute URL as
 * written; the origin policy runs at adapter construction.
 */
export type GenericHttpProviderConfig = v.InferOutput<typeof GenericHttpProviderSchema>;
/** Legacy `mem0-platform-v3` provider settings (fixed origin https://api.mem0.ai); `appId` trimmed, 1…256 code points. */
export type Mem0PlatformProviderConfig = v.InferOutput<typeof Mem0PlatformProviderSchema>;
/**
 * `mem0` preset provider settings: `endpoint.basePath` defaults to `""` and is checked by the nine
 * basePath rules at adapter construction; scope values are trimmed, 1…256 code points each.
 */
export type Mem0PresetProviderConfig = v.InferOutput<typeof Mem0PresetProviderSchema>;
/** Any provider settings, discriminated by `type`. */
export type ProviderConfig = GenericHttpProviderConfig | Mem0PlatformProviderConfig | Mem0PresetProviderConfig;
/** Auto-recall settings of a version 2 configuration: search timeout in ms (1…5000, default 1500). */
export type AutoRecallConfig = v.InferOutput<typeof AutoRecallSchema>;
/** Search and write timeout in ms (1…30000, default 5000). */
export type TimeoutMs = v.InferOutput<typeof TimeoutMsSchema>;

/**
 * Maps the first valibot issue onto `<path> <reason>` of docs/design/config.md §5.
 *
 * @param issue The first issue (validation runs with `abortEarly`).
 * @param prefix Dotted path of the validated value from the root (`provider`), or `` for the root.
 * @returns The message tail, for example `provider.endpoint.origin must be an absolute URL`.
 */
export function describeIssue(issue: v.BaseIssue<unknown>, prefix: string): string {
  let path = v.getDotPath(issue) ?? '';
  let reason = issue.message;
  if (issue.type === 'strict_object') {
    if (issue.expected === 'never') {
      // An unknown key: the path up to its object, then the key as plainKeyOrMark shows it.
      const key = String(issue.path?.[issue.path.length - 1]?.key ?? '');
      const parent = path.slice(0, path.length - key.length).replace(/\.$/, '');
      path = [parent, plainKeyOrMark(key)].filter((part) => part !== '').join('.');
      const fields = knownFields().get([prefix, parent].filter((part) => part !== '').join('.')) ?? [];
      reason = unsupportedReason(key, fields);
    } else if (issue.input === undefined && path !== '') {
      reason = REASONS.required;
    } else {
      reason = REASONS.object;
    }
  }
  return `${[prefix, path].filter((part) => part !== '').join('.') || 'config'} ${reason}`;
}

/**
 * `is not a supported field`, plus ` (did you mean <field>?)` when exactly one field of that
 * object is within two edits of the key (a shown key only: `?` gets no suggestion).
 *
 * @param key The unknown key as written.
 * @param fields The fields that object takes.
 * @see docs/design/config.md §5
 */
export function unsupportedReason(key: string, fields: Iterable<string>): string {
  const suggestion = plainKeyOrMark(key) === '?' ? undefined : closestName(key, fields);
  return suggestion === undefined ? REASONS.unsupported : `${REASONS.unsupported} (did you mean ${suggestion}?)`;
}

let fieldsByObject: Map<string, string[]> | undefined;

/** The fields each object of the configuration takes, by its dotted path, read from the schemas. */
function knownFields(): Map<string, string[]> {
  if (fieldsByObject !== undefined) return fieldsByObject;
  const found = new Map<string, string[]>();
  const add = (at: string, schema: unknown): void => {
    const entries = entriesOf(schema);
    if (entries === undefined) return;
    found.set(at, [...new Set([...(found.get(at) ?? []), ...Object.keys(entries)])]);
    for (const [key, value] of Object.entries(entries)) add(`${at}.${key}`, value);
  };
  for (const schema of [GenericHttpProviderSchema, Mem0PlatformProviderSchema, Mem0PresetProviderSchema]) add('provider', schema);
  add('write', WriteSchema);
  add('autoRecall', AutoRecallSchema);
  fieldsByObject = found;
  return found;
}

/** The entries of an object schema, through `pipe` and optional wrappers; undefined for others. */
function entriesOf(schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if ('entries' in schema) return schema.entries as Record<string, unknown>;
  if ('wrapped' in schema) return entriesOf(schema.wrapped);
  if ('pipe' in schema && Array.isArray(schema.pipe)) {
    for (const item of schema.pipe) {
      const entries = entriesOf(item);
      if (entries !== undefined) return entries;
    }
  }
  return undefined;
}

/**
 * An unknown key of the configuration or a launch profile as a message shows it: verbatim only
 * when it is short and plain, else `?` (docs/design/config.md §5). The Frontend MCP file has a
 * wider rule, any printable ASCII (`printableKeyOrMark` in gateway/config/printable-key.ts).
 *
 * @param key The key as written in the file.
 * @returns The key itself (1 to 64 of `A-Z a-z 0-9 _ $ -`) or `?`.
 * @see docs/design/config.md §5
 */
export function plainKeyOrMark(key: string): string {
  return /^[A-Za-z0-9_$-]{1,64}$/.test(key) ? key : '?';
}
