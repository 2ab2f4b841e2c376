// Launch-profile validation in field order (docs/design/examples.md §8.3): a small ordered pre-pass for
// root, `version` and unknown keys, then each field's valibot schema in the spec's order, and
// the one-name-once rule across `env`, `passEnv` and `credentialEnv` right after each of them.
import * as v from 'valibot';
import { plainKeyOrMark } from '../config/schema.ts';
import { isPlainObject } from '../util/plain-object.ts';
import { LaunchProfileError } from './launch-profile-error.ts';
import { type LaunchEnvEntries, LAUNCH_REASONS, type LaunchProfile, type LaunchProfileField, LaunchProfileSchema } from './launch-profile-schema.ts';

/** The variable the launcher sets itself; no list may name it (docs/design/examples.md §8.3). */
export const SYSTEM_SETTINGS_VARIABLE = 'QWEN_CODE_SYSTEM_SETTINGS_PATH';

const FIELDS = Object.keys(LaunchProfileSchema.entries) as LaunchProfileField[];
const REQUIRED: ReadonlySet<LaunchProfileField> = new Set(['version', 'qwenExecutable', 'repository', 'systemSettings']);

function invalid(fieldPath: string, reason: string): LaunchProfileError {
  return new LaunchProfileError(`External context launch profile is invalid: ${fieldPath} ${reason}.`, fieldPath);
}

/**
 * Validates the parsed launch profile, checking its paths against the file system.
 *
 * @param root The parsed file content.
 * @returns The profile with defaults applied (`qwenArgs`, `passEnv`, `credentialEnv` `[]`,
 *   `env` no entries) and the canonical repository path.
 * @throws {LaunchProfileError} `External context launch profile is invalid: <path> <reason>.`
 *   for the first failure in field order; array elements are addressed as `<field>.<index>`.
 * @see docs/design/examples.md §8.3
 */
export async function validateLaunchProfile(root: unknown): Promise<LaunchProfile> {
  if (!isPlainObject(root)) throw invalid('profile', LAUNCH_REASONS.object);
  if (!Object.hasOwn(root, 'version')) throw invalid('version', LAUNCH_REASONS.required);
  if (root['version'] !== 1) throw invalid('version', LAUNCH_REASONS.version);
  for (const key of Object.keys(root)) {
    if (!(FIELDS as string[]).includes(key)) throw invalid(plainKeyOrMark(key), LAUNCH_REASONS.unsupported);
  }
  const output: Record<string, unknown> = {};
  const seen = new Set<string>([SYSTEM_SETTINGS_VARIABLE]);
  for (const field of FIELDS) {
    if (!Object.hasOwn(root, field)) {
      if (REQUIRED.has(field)) throw invalid(field, LAUNCH_REASONS.required);
    }
    const result = await v.safeParseAsync(LaunchProfileSchema.entries[field], root[field], { abortEarly: true });
    if (!result.success) throw describeIssue(field, result.issues);
    output[field] = result.output;
    if (field === 'env')
      claimNames(
        seen,
        (result.output as LaunchEnvEntries).map(([name]) => name),
        (name) => `env.${plainKeyOrMark(name)}`,
      );
    if (field === 'passEnv' || field === 'credentialEnv') {
      const names = result.output as readonly string[];
      claimNames(seen, names, (_name, index) => `${field}.${index}`);
    }
  }
  return output as LaunchProfile;
}

function claimNames(seen: Set<string>, names: readonly string[], pathOf: (name: string, index: number) => string): void {
  names.forEach((name, index) => {
    if (seen.has(name)) throw invalid(pathOf(name, index), LAUNCH_REASONS.duplicate);
    seen.add(name);
  });
}

// The first issue (abortEarly) names the path below the field and carries the reason as its message.
function describeIssue(field: string, issues: readonly v.BaseIssue<unknown>[]): LaunchProfileError {
  const issue = issues[0];
  if (issue === undefined) return invalid(field, LAUNCH_REASONS.object);
  const keys = (issue.path ?? []).map((item) => (field === 'env' ? plainKeyOrMark(String(item.key)) : String(item.key)));
  return invalid([field, ...keys].join('.'), issue.message);
}
