// From a launch-profile path to the exact child process: argument vector, positive-allowlist
// environment and working directory (docs/design/examples.md §8.1, §8.4). Nothing of the caller's own
// command line or environment reaches the child unless the profile names it.
import path from 'node:path';
import { isUsableCredential, looksLikeVariableName, PASTED_CREDENTIAL_TEXT } from '../config/credential.ts';
import { LaunchProfileError } from './launch-profile-error.ts';
import type { LaunchProfile } from './launch-profile-schema.ts';
import { readLaunchProfile } from './read-launch-profile.ts';
import { SYSTEM_SETTINGS_VARIABLE, validateLaunchProfile } from './validate-launch-profile.ts';
import { ownEnv } from '../util/own-env.ts';

/** The child process the launcher starts. */
export interface LaunchPlan {
  /** `qwenExecutable`, absolute. */
  readonly executable: string;
  /** `--mcp-config <mcpConfig>` when present, then `qwenArgs`; never a caller argument. */
  readonly args: readonly string[];
  /** Exactly the allow-listed variables (null prototype, so no name is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** The canonical repository directory. */
  readonly cwd: string;
}

/** How `--profile` appeared: absent (`undefined`), without a value (`null`), or its value. */
export type ProfileFlag = string | null | undefined;

const PROFILE_PATH_MESSAGE = '--profile must name an absolute file path.';

/**
 * Reads, validates and resolves a launch profile into the child process to start.
 *
 * @param flag The `--profile` value as given on the command line.
 * @param env The launcher's environment; `passEnv` and `credentialEnv` are read from it with
 *   own-property lookups, and no value or name is ever echoed.
 * @returns The plan.
 * @throws {LaunchProfileError} `--profile must name an absolute file path.`; the file messages
 *   of §8.2; the schema messages of §8.3;
 *   `External context launch credential <NAME> <reason>. Field: credentialEnv.`, or for an unset
 *   name that does not look like a variable name `External context launch credential
 *   credentialEnv.<index> names a variable that is not set; … Field: credentialEnv.`
 * @see docs/design/examples.md §8.2–§8.4
 */
export async function loadLaunchPlan(flag: ProfileFlag, env: Readonly<Record<string, string | undefined>>): Promise<LaunchPlan> {
  if (typeof flag !== 'string' || flag === '' || !path.isAbsolute(flag)) throw new LaunchProfileError(PROFILE_PATH_MESSAGE);
  const profile = await validateLaunchProfile(await readLaunchProfile(flag));
  return planFor(profile, env);
}

/**
 * Builds the child process from a validated profile.
 *
 * @param profile The validated profile.
 * @param env The launcher's environment (own properties only).
 * @returns The plan; environment order: `env`, present `passEnv`, `credentialEnv`,
 *   `QWEN_CODE_SYSTEM_SETTINGS_PATH`.
 * @throws {LaunchProfileError} When a `credentialEnv` variable is unavailable (docs/design/config.md §7.1):
 *   the message names the variable and the reason; `fieldPath` is `credentialEnv.<index>`.
 */
export function planFor(profile: LaunchProfile, env: Readonly<Record<string, string | undefined>>): LaunchPlan {
  const childEnv: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of profile.env) childEnv[name] = value;
  for (const name of profile.passEnv) {
    const value = ownEnv(env, name);
    if (value !== undefined && value !== '') childEnv[name] = value;
  }
  profile.credentialEnv.forEach((name, index) => {
    const value = ownEnv(env, name);
    // The administrator wrote the name into the profile, so the message names it and says
    // what is wrong with the value (never the value itself).
    if (!isUsableCredential(value)) {
      // Unless the name does not look like one and is unset: then it may be a pasted credential.
      if (value === undefined && !looksLikeVariableName(name)) {
        throw new LaunchProfileError(`External context launch credential credentialEnv.${index} ${PASTED_CREDENTIAL_TEXT} Field: credentialEnv.`, `credentialEnv.${index}`);
      }
      throw new LaunchProfileError(`External context launch credential ${name} ${unusableReason(value)}. Field: credentialEnv.`, `credentialEnv.${index}`);
    }
    childEnv[name] = value;
  });
  childEnv[SYSTEM_SETTINGS_VARIABLE] = profile.systemSettings;
  const args = profile.mcpConfig === undefined ? [...profile.qwenArgs] : ['--mcp-config', profile.mcpConfig, ...profile.qwenArgs];
  return { executable: profile.qwenExecutable, args, env: childEnv, cwd: profile.repository };
}

/** Why a credential value is unusable (docs/design/config.md §7.1), without any part of it. */
function unusableReason(value: string | undefined): string {
  if (value === undefined) return 'is not set';
  if (value.trim() === '') return 'is empty';
  if (/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/u.test(value)) return 'holds an unresolved ${…} placeholder';
  return 'contains a control character, which cannot go in an HTTP header';
}
