// Schema validation in the order of docs/design/config.md §5: a small ordered pre-pass for root,
// `version` and top-level keys (valibot's strictObject reports known entries first), then
// valibot with `abortEarly`, one object at a time (timeoutMs → provider → write → autoRecall → redactSecrets).
import * as v from 'valibot';
import { isPlainObject } from '../util/plain-object.ts';
import { ConfigError } from './config-error.ts';
import {
  AutoRecallSchema,
  type AutoRecallConfig,
  describeIssue,
  plainKeyOrMark,
  GenericHttpProviderSchema,
  Mem0PlatformProviderSchema,
  Mem0PresetProviderSchema,
  type ProviderConfig,
  REASONS,
  unsupportedReason,
  type TimeoutMs,
  RedactSecretsSchema,
  TimeoutMsSchema,
  WriteSchema,
} from './schema.ts';

/** The schema-valid configuration, before semantic checks and credential lookup. */
export interface ValidatedConfig {
  readonly version: 1 | 2;
  /** Search and write timeout in ms, 1…30000, default 5000. */
  readonly timeoutMs: TimeoutMs;
  readonly provider: ProviderConfig;
  /** True only for version 1 with `write: {enabled: true}`. */
  readonly writeEnabled: boolean;
  /** Present exactly for version 2. */
  readonly autoRecall: AutoRecallConfig | undefined;
  /** Whether retrieved content and titles are redacted (default false, docs/design/config.md §4.3). */
  readonly redactSecrets: boolean;
}

/** Top-level keys each version allows, in the order of docs/design/config.md §4.1. */
export const TOP_LEVEL_KEYS: Readonly<Record<1 | 2, readonly string[]>> = {
  1: ['version', 'timeoutMs', 'provider', 'write', 'redactSecrets'],
  2: ['version', 'timeoutMs', 'provider', 'autoRecall', 'redactSecrets'],
};

/** The provider schema for each `provider.type` (docs/design/config.md §4.2). */
export const PROVIDER_SCHEMAS = {
  'generic-http-search-v1': GenericHttpProviderSchema,
  'mem0-platform-v3': Mem0PlatformProviderSchema,
  mem0: Mem0PresetProviderSchema,
} as const;

function invalid(tail: string): ConfigError {
  const fieldPath = tail.slice(0, tail.indexOf(' '));
  return new ConfigError(`External context config is invalid: ${tail}.`, fieldPath);
}

function parseOrThrow<const S extends v.GenericSchema>(schema: S, value: unknown, prefix: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (!result.success) throw invalid(describeIssue(result.issues[0], prefix));
  return result.output;
}

/**
 * Validates the parsed JSON against the configuration schema (docs/design/config.md §4, §5).
 *
 * @param root The parsed file content.
 * @returns The typed configuration with defaults applied (timeoutMs 5000, basePath "",
 *   allowInsecureHttp false, autoRecall.timeoutMs 1500); strings trimmed where the spec trims.
 * @throws {ConfigError} `External context config is invalid: <path> <reason>.` for the first failure.
 * @see docs/design/config.md §5, "Check order"
 */
export function validateConfig(root: unknown): ValidatedConfig {
  // Step 1: root is an object.
  if (!isPlainObject(root)) throw invalid(`config ${REASONS.object}`);
  // Step 2: version present and 1 or 2.
  if (!Object.prototype.hasOwnProperty.call(root, 'version')) throw invalid(`version ${REASONS.required}`);
  const version = root['version'];
  if (version !== 1 && version !== 2) throw invalid('version must be 1 or 2');
  // Step 3: top-level keys in file order against the set allowed for this version.
  for (const key of Object.keys(root)) {
    if (TOP_LEVEL_KEYS[version].includes(key)) continue;
    if (key === 'autoRecall' && version === 1) throw invalid('autoRecall is not allowed in a version 1 configuration');
    if (key === 'write' && version === 2) throw invalid('write is not allowed in a version 2 configuration');
    throw invalid(`${plainKeyOrMark(key)} ${unsupportedReason(key, TOP_LEVEL_KEYS[version])}`);
  }
  // Step 4: timeoutMs.
  const timeoutMs = parseOrThrow(TimeoutMsSchema, root['timeoutMs'], 'timeoutMs');
  // Step 5: provider.
  const provider = validateProvider(root);
  // Step 6: write (version 1 only).
  let writeEnabled = false;
  if (version === 1 && Object.prototype.hasOwnProperty.call(root, 'write')) {
    parseOrThrow(WriteSchema, root['write'], 'write');
    writeEnabled = true;
  }
  // Step 7: autoRecall (version 2 only).
  let autoRecall: AutoRecallConfig | undefined;
  if (version === 2) {
    if (!Object.prototype.hasOwnProperty.call(root, 'autoRecall')) throw invalid(`autoRecall ${REASONS.required}`);
    autoRecall = parseOrThrow(AutoRecallSchema, root['autoRecall'], 'autoRecall');
  }
  // Step 8: redactSecrets.
  const redactSecrets = parseOrThrow(RedactSecretsSchema, root['redactSecrets'], 'redactSecrets');
  return { version, timeoutMs, provider, writeEnabled, autoRecall, redactSecrets };
}

function isProviderType(type: string): type is keyof typeof PROVIDER_SCHEMAS {
  return Object.hasOwn(PROVIDER_SCHEMAS, type);
}

function validateProvider(root: Record<string, unknown>): ProviderConfig {
  if (!Object.prototype.hasOwnProperty.call(root, 'provider')) throw invalid(`provider ${REASONS.required}`);
  const provider = root['provider'];
  if (!isPlainObject(provider)) throw invalid(`provider ${REASONS.object}`);
  if (!Object.prototype.hasOwnProperty.call(provider, 'type')) throw invalid(`provider.type ${REASONS.required}`);
  const type = provider['type'];
  if (typeof type !== 'string') throw invalid(`provider.type ${REASONS.string}`);
  if (!isProviderType(type)) throw invalid(`provider.type ${REASONS.providerType}`);
  return parseOrThrow(PROVIDER_SCHEMAS[type], provider, 'provider');
}
