// valibot schemas of the launch profile, version 1 (docs/design/examples.md §8.3), one per field in the
// spec's field order, and the reason texts they report. Ordering rules valibot does not follow
// (root, `version`, unknown keys, one name across the three variable lists) live in
// validate-launch-profile.ts.
import * as v from 'valibot';
import { isPlainObject } from '../util/plain-object.ts';
import { checkAdminFile, FILE_REASONS, resolveRepository } from './file-checks.ts';

/** Reason texts of docs/design/examples.md §8.3 (plus those of docs/design/config.md §5 it reuses). */
export const LAUNCH_REASONS = {
  ...FILE_REASONS,
  object: 'must be an object',
  required: 'is required',
  unsupported: 'is not a supported field',
  string: 'must be a string',
  version: 'must be 1',
  stringArray: 'must be an array of strings',
  envNameArray: 'must be an array of environment variable names',
  envName: 'must be an environment variable name',
  nul: 'must not contain a NUL character',
  maxEntries: 'must have at most 64 entries',
  duplicate: 'is set more than once',
} as const;

/** Most entries in `qwenArgs`, `env`, `passEnv` and `credentialEnv`. */
export const MAX_LAUNCH_ENTRIES = 64;

/** Environment variable names (docs/design/config.md §4.2). */
// `__proto__` is excluded: Node.js passed it to the child and Bun dropped it (docs/design/examples.md §8.3).
export const ENV_NAME = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]*$/;

const noNul = v.check((value: string) => !value.includes('\u0000'), LAUNCH_REASONS.nul);
const stringWithoutNul = v.pipe(v.string(LAUNCH_REASONS.string), noNul);

// A path string: no U+0000 (which no file-system call accepts), then the file rules.
const adminFile = v.pipeAsync(
  stringWithoutNul,
  v.rawCheckAsync<string>(async ({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const reason = await checkAdminFile(dataset.value);
    if (reason !== undefined) addIssue({ message: reason });
  }),
);

const repository = v.pipeAsync(
  stringWithoutNul,
  v.rawTransformAsync<string, string>(async ({ dataset, addIssue, NEVER }) => {
    const checked = await resolveRepository(dataset.value);
    if (checked.ok) return checked.canonical;
    addIssue({ message: checked.reason });
    return NEVER;
  }),
);

const envName = v.pipe(v.string(LAUNCH_REASONS.envName), v.regex(ENV_NAME, LAUNCH_REASONS.envName));

// An array is checked as an array and counted before its elements are looked at.
function boundedArray<const T extends v.GenericSchema<unknown, string>>(item: T, notArray: string) {
  return v.pipe(v.array(v.unknown(), notArray), v.maxLength(MAX_LAUNCH_ENTRIES, LAUNCH_REASONS.maxEntries), v.array(item, notArray));
}

// env: own keys in file order, each a variable name, each value a string without U+0000. A
// hand-written walk rather than v.record, which silently skips `__proto__` and `constructor`.
/** `env` as validated: `[name, value]` pairs in file order. */
export type LaunchEnvEntries = ReadonlyArray<readonly [string, string]>;

const envEntries = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, LAUNCH_REASONS.object),
  v.check((value) => Object.keys(value).length <= MAX_LAUNCH_ENTRIES, LAUNCH_REASONS.maxEntries),
  v.rawTransform<Record<string, unknown>, LaunchEnvEntries>(({ dataset, addIssue, NEVER }) => {
    const entries: [string, string][] = [];
    for (const [name, value] of Object.entries(dataset.value)) {
      const path: [v.IssuePathItem] = [{ type: 'object', origin: 'value', input: dataset.value, key: name, value }];
      const reason = !ENV_NAME.test(name) ? LAUNCH_REASONS.envName : typeof value !== 'string' ? LAUNCH_REASONS.string : value.includes('\u0000') ? LAUNCH_REASONS.nul : undefined;
      if (reason !== undefined) {
        addIssue({ message: reason, path });
        return NEVER;
      }
      entries.push([name, value as string]);
    }
    return entries;
  }),
);

/**
 * The launch profile, fields in the spec's order. Paths are checked against the file system
 * while parsing; `repository` comes out canonical (symlinks resolved); `env` comes out as
 * `[name, value]` pairs in file order.
 *
 * @see docs/design/examples.md §8.3
 */
export const LaunchProfileSchema = v.strictObjectAsync(
  {
    version: v.literal(1, LAUNCH_REASONS.version),
    qwenExecutable: adminFile,
    repository,
    mcpConfig: v.optionalAsync(adminFile),
    systemSettings: adminFile,
    qwenArgs: v.optional(boundedArray(stringWithoutNul, LAUNCH_REASONS.stringArray), []),
    // The default `{}` runs through the pipe, so an absent `env` comes out as no entries.
    env: v.optional(envEntries, {}),
    passEnv: v.optional(boundedArray(envName, LAUNCH_REASONS.envNameArray), []),
    credentialEnv: v.optional(boundedArray(envName, LAUNCH_REASONS.envNameArray), []),
  },
  LAUNCH_REASONS.object,
);

/** A validated launch profile. */
export type LaunchProfile = v.InferOutput<typeof LaunchProfileSchema>;

/** The profile's field names in the spec's order. */
export type LaunchProfileField = keyof typeof LaunchProfileSchema.entries;
